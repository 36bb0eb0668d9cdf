import { printable } from '../shared/printable.ts';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { crawlCommand } from './commands/crawl.ts';
import { indexnow } from './commands/indexnow.ts';
import { navmapCommand } from './commands/navmap.ts';
import { reportCommand } from './commands/report.ts';
import { robots } from './commands/robots.ts';
import { serveCommand } from './commands/serve.ts';
import { sitemap } from './commands/sitemap.ts';
import { commandGroup } from './internal/command-group.ts';
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './io.ts';

/** Every top-level command. Registering one here is all it takes to add it. */
const waymark = commandGroup('waymark', 'waymark: robots.txt and sitemaps, done right.', {
  crawl: crawlCommand,
  indexnow,
  navmap: navmapCommand,
  report: reportCommand,
  robots,
  serve: serveCommand,
  sitemap,
});

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
