import { printable } from '../../shared/printable.ts';
import type { SiteDiagnostic, SiteIndexNowReport } from '../../site/create-site-handler.ts';
import { SITE_CONFIG_FILE } from '../../site/page-meta-cache.ts';
import { type SiteServer, startSiteServer } from '../../site/start-site-server.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';

const NAME = 'waymark serve';

const HELP = `Serve a content root: live robots.txt and sitemaps, and the documents themselves.

Usage: ${NAME} <root> [options]

Arguments:
  <root>                the content root: every file in it is a document; .md and
                        .markdown files are rendered; <file>.meta.yaml is its sidecar

Options:
  -p, --port <n>        port to listen on (8080; 0 picks a free one)
      --host <address>  address to listen on (127.0.0.1)
  -c, --config <file>   site configuration (default: <root>/waymark.site.yaml, followed live)
      --origin <url>    the public origin of every absolute URL (https://www.example.com)
                        instead of the request's Host header
      --revalidate <m>  watch (file-system events; the default on Linux) or stat (stat
                        every file per request; the default elsewhere, and the choice for
                        network mounts and volumes shared into containers)
  -h, --help            show this help

Serves /robots.txt, /sitemap.xml (an index and /sitemaps/ parts past the limits), each
document at its alias and at /id/<hex>, and at / a noindex list of the sitemap's pages,
by first heading and grouped by folder. Problems with sidecars and the configuration are
printed to stderr as file:line:column, at start and whenever a file changes (a fixed one
as "resolved"). A broken <root>/waymark.site.yaml makes every answer 503 until it is
fixed (a later broken edit keeps the last good one).

With indexnow: { key, endpoint } in the configuration (and an origin), serves the key
file at /<key>.txt and submits the URLs of changed public pages to IndexNow, printing
one line per submission (accepted on stdout, not accepted on stderr). Stops on Ctrl-C.
`;

/** How the command waits to be stopped; tests pass an AbortSignal instead of signals. */
export interface ServeCommandOptions {
  readonly stop?: AbortSignal;
  /** Called once the server listens, with it. */
  readonly onListening?: (server: SiteServer) => void;
}

/**
 * `waymark serve`, with a way to stop it other than a process signal.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * const exit = createServeCommand({ stop: stop.signal }).run(['content', '--port', '0'], io);
 * stop.abort();
 * await exit; // 0
 * ```
 */
export function createServeCommand(options: ServeCommandOptions = {}): CliCommand {
  return {
    summary: 'serve a content root with live robots.txt and sitemaps',
    run: async (args: readonly string[], io: CliIo) => {
      const { values, positionals } = parseCommandArgs(NAME, args, {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        config: { type: 'string', short: 'c' },
        origin: { type: 'string' },
        revalidate: { type: 'string' },
      });
      if (values.help) {
        io.stdout(HELP);
        return EXIT_OK;
      }
      const [root, ...extra] = positionals;
      if (root === undefined) throw usageError(NAME, 'missing the content root');
      if (extra.length > 0) throw usageError(NAME, `one content root (got ${positionals.length})`);
      const portText = values.port ?? '8080';
      const port = Number(portText);
      if (!/^\d{1,5}$/.test(portText) || port > 65535) {
        throw usageError(NAME, `--port is a number from 0 to 65535, not "${values.port}"`);
      }
      const revalidate = values.revalidate;
      if (revalidate !== undefined && revalidate !== 'watch' && revalidate !== 'stat') {
        throw usageError(NAME, `--revalidate is watch or stat, not "${revalidate}"`);
      }
      const server = await startSiteServer({
        root,
        port,
        host: values.host ?? '127.0.0.1',
        ...(revalidate === undefined ? {} : { revalidate }),
        ...(values.config === undefined ? {} : { configFile: values.config }),
        ...(values.origin === undefined ? {} : { config: { origin: values.origin } }),
        // Before the server answers: at start, every problem; later, each as its file changes.
        onDiagnostics: ({ found, resolved }) => {
          for (const d of found) io.stderr(problemLine(d, d.severity));
          for (const d of resolved) io.stderr(problemLine(d, 'resolved'));
        },
        onRenderFailure: ({ path, message }) => {
          io.stderr(
            `${printable(path)}: error: the page could not be rendered: ${printable(message)}\n`,
          );
        },
        onIndexNow: (report) => {
          const line = indexNowLine(report);
          if (report.ok) io.stdout(line);
          else io.stderr(line);
        },
      });
      io.stdout(`${NAME}: ${root} at ${server.origin}/ (sitemap: ${server.origin}/sitemap.xml)\n`);
      options.onListening?.(server);
      await stopped(options.stop);
      await server.close();
      return EXIT_OK;
    },
  };
}

/**
 * `file:line:column: <what>: message [code] (document)`; every part from the site is made
 * printable (a file name or message may carry terminal controls).
 */
function problemLine(d: SiteDiagnostic, what: string): string {
  const document = d.file === d.path || d.path === SITE_CONFIG_FILE ? '' : ` (${d.path})`;
  return `${printable(d.file)}:${d.line}:${d.column}: ${what}: ${printable(d.message)} [${printable(d.code)}]${printable(document)}\n`;
}

/**
 * One line per IndexNow submission: `waymark serve: indexnow: 2 URLs submitted to <endpoint>:
 * 202 Accepted: ...`, or, not accepted, the status, and what is kept for the next try.
 */
function indexNowLine(report: SiteIndexNowReport): string {
  const count = `${report.urls.length} URL${report.urls.length === 1 ? '' : 's'}`;
  const status = report.status === null ? '' : `${report.status} `;
  const verb = report.ok ? 'submitted to' : 'not accepted by';
  let line = `${NAME}: indexnow: ${count} ${verb} ${printable(report.endpoint)}: ${status}${printable(report.meaning)}`;
  if (report.error !== undefined) line += ` (${printable(report.error)})`;
  if (report.retrying > 0 && report.retryAt !== null) {
    const seconds = Math.max(0, Math.ceil((report.retryAt - Date.now()) / 1000));
    line += `; ${report.retrying} kept, next try in ${seconds} s`;
  }
  if (report.dropped > 0) line += `; ${report.dropped} given up`;
  return `${line}\n`;
}

/** The command as registered: runs until SIGINT or SIGTERM. */
export const serveCommand: CliCommand = createServeCommand();

function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal !== undefined) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
