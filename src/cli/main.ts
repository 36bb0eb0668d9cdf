import { printable } from '../shared/printable.ts';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { commandGroup } from './internal/command-group.ts';
import { type LazyCommand, lazyCommand } from './internal/lazy-command.ts';
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './io.ts';

/**
 * Every top-level command, each loaded when it runs (see {@link lazyCommand}). Registering
 * one here is all it takes to add it.
 */
export const COMMANDS: Readonly<Record<string, LazyCommand>> = {
  crawl: lazyCommand(
    'crawl a site politely and write its sitemap',
    async () => (await import('./commands/crawl.ts')).crawlCommand,
  ),
  indexnow: lazyCommand(
    'tell search engines what changed, with the IndexNow protocol',
    async () => (await import('./commands/indexnow.ts')).indexnow,
  ),
  navmap: lazyCommand(
    'find the navigational sitemap a page names and print its outline',
    async () => (await import('./commands/navmap.ts')).navmapCommand,
  ),
  report: lazyCommand(
    'the crawl audit report of a saved crawl, as one HTML page',
    async () => (await import('./commands/report.ts')).reportCommand,
  ),
  robots: lazyCommand(
    'read, check, audit and write robots.txt files, exactly as Google reads them',
    async () => (await import('./commands/robots.ts')).robots,
  ),
  serve: lazyCommand(
    'serve a content root with live robots.txt and sitemaps',
    async () => (await import('./commands/serve.ts')).serveCommand,
  ),
  sitemap: lazyCommand(
    'read and write sitemaps',
    async () => (await import('./commands/sitemap.ts')).sitemap,
  ),
};

const waymark = commandGroup('waymark', 'robots.txt and sitemaps, done right', COMMANDS);

/**
 * Runs the `waymark` command line and returns its exit code. `--version` and `--debug`
 * (stack traces on failure) are accepted anywhere. Failures are one line on stderr, and
 * the exit code says which kind: 2 for a wrong command line or value (`usage`,
 * `invalid-argument`), 3 when the job could not be done (a site, a file or the network
 * failed: every other code, and anything unexpected).
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const debug = args.includes('--debug');
  const rest = args.filter((arg) => arg !== '--debug');
  if (rest[0] === '--version' || rest[0] === '-V') {
    io.stdout(`${io.version}\n`);
    return EXIT_OK;
  }
  try {
    return await waymark.run(rest, io);
  } catch (error) {
    // Usage errors already start with the command that refused them ("waymark robots check: ...").
    const message = !isWaymarkError(error)
      ? `waymark: unexpected failure: ${String((error as Error)?.message ?? error)}${debug ? '' : ' (--debug shows where)'}`
      : error.code === 'usage'
        ? error.message
        : `waymark: ${error.message}`;
    // Messages quote input (a URL, a value from a file): shown safe for the terminal.
    io.stderr(`${printable(message)}\n`);
    if (debug && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
    return exitCodeOf(error);
  }
}

/** The exit code for a failure: see {@link runCli}. */
function exitCodeOf(error: unknown): number {
  if (!isWaymarkError(error)) return EXIT_FAILURE;
  return error.code === 'usage' || error.code === 'invalid-argument' ? EXIT_USAGE : EXIT_FAILURE;
}
