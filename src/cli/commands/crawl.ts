import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CRAWL_DEFAULTS,
  type CrawlRecord,
  type CrawlRunOptions,
  type CrawlState,
  type CrawlSummary,
  crawl,
} from '../../crawl/index.ts';
import { MAX_WORKER_TIMEOUT_MS } from '../../crawl/internal/crawl-defaults.ts';
import { writeFileAtomically } from '../../shared/files/atomic-file.ts';
import { checkWritableFile, checkWritableFolder } from '../../shared/files/output-target.ts';
import { printable } from '../../shared/printable.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import type { SiteServer } from '../../site/index.ts';
import { normalizeUrl } from '../../url/index.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { checkOutputPlace, outputFormat, writeCrawlOutput } from '../internal/crawl-output.ts';
import { CrawlProgress } from '../internal/crawl-progress.ts';
import { type StateLocation, stateLocation } from '../internal/crawl-state-location.ts';
import { openPostgresAt, storedExtensions } from '../internal/open-crawl-state.ts';
import { parseCount, parseDuration, parseSize } from '../internal/units.ts';
import {
  type CliCommand,
  type CliIo,
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_PROBLEMS,
} from '../io.ts';
import { crawlExportCommand } from './crawl-export.ts';
import { crawlStatusCommand } from './crawl-status.ts';

const NAME = 'waymark crawl';

const HELP = `Crawl a site politely and write the sitemap it should have.

Usage: ${NAME} <url> [--out sitemap.xml | --out-dir dir/] [options]
       ${NAME} --serve <content-root> [--out sitemap.xml] [options]
       ${NAME} <url> --state postgres://… --crawl <name> [options]   create or go on with a shared crawl
       ${NAME} --state postgres://… --crawl <name> --join [options]  work on it from another machine
       ${NAME} status --state … --crawl <name>                        its progress and workers
       ${NAME} export --state … --crawl <name> --out-dir dir/         its sitemap, so far or done

Output:
      --out <file>            write the sitemap here (atomically); default: standard output
      --out-dir <dir>         write sitemap.xml, or parts plus sitemap_index.xml past 50,000 URLs
      --format <f>            xml (default), json (one entry a line) or text (one URL a line)
      --gzip                  gzip the parts (--out-dir)
      --lastmod <source>      header (Last-Modified, default) or none
      --hreflang              keep hreflang alternates          --images   keep images
      --feeds <file>          also list the site's RSS/Atom feeds in this file
      --report <file>         also write the crawl audit as one HTML page (see waymark report)
Start:
      --serve <root>          serve this content root as \`waymark serve\` does, on 127.0.0.1 (a free
                              port), and crawl it: does everything it publishes resolve, and does
                              its sitemap name every page? (no <url>; --rate defaults to 0)
Scope:
      --max-pages <n>         pages fetched at most (${CRAWL_DEFAULTS.maxPages})
      --max-depth <n>         link depth from the start page (${CRAWL_DEFAULTS.maxDepth})
      --include <glob>        only paths matching (repeatable; picomatch)
      --exclude <glob>        never paths matching (repeatable)
      --canonical-host        treat www. and the bare host as one site
      --keep-tracking         keep utm_*, gclid, fbclid, msclkid in URLs
      --strip-param <name>    drop this query parameter too (repeatable)
      --strip-query           drop every query
Politeness:
      --concurrency <n>       requests at once (${CRAWL_DEFAULTS.concurrency})
      --rate <n>              requests per second per host (${CRAWL_DEFAULTS.rate}); 0: no limit,
                              Crawl-delay ignored too (for sites you own)
      --max-crawl-delay <s>   the longest Crawl-delay honoured (${CRAWL_DEFAULTS.maxCrawlDelay}s)
      --timeout <t>           per request: connect, headers and body (15s)
      --max-body <size>       per response (10MB)
      --user-agent <ua>       default ${CRAWL_DEFAULTS.userAgent}
      --ignore-robots         do not obey robots.txt (warns)
      --robots-error <p>      disallow (RFC 9309, default) or allow when robots.txt is unreachable
      --no-sitemaps           do not read the sitemaps robots.txt names
      --sitemap <url>         read this sitemap too (repeatable)
State and logging:
      --state <file|url>      keep the crawl state in this SQLite file, or in PostgreSQL
                              (postgres://user@host/db, with --crawl)
      --resume                continue the crawl in --state (an SQLite file)
      --crawl <name>          share the crawl under this name in PostgreSQL: any number of
                              workers on any number of machines; the connection string comes
                              from --state, else WAYMARK_STATE, else the PG* variables
      --join                  work on the existing crawl --crawl names (no <url>: its options
                              come from the database; any given must match)
      --worker-timeout <t>    a worker silent this long is taken for dead and its URLs go to
                              the others (60s); the others judge this worker by it
      --quiet | --verbose | --json-log
  -h, --help                  show this help

Nothing is written when the crawl lists no page or is interrupted: the old file stays.
Exit status: 0 a sitemap was written; 1 the crawl listed no page; 2 usage error (found
before any request, output places included); 3 the site could not be reached (robots.txt
5xx/429 or unreachable, or the start page failed) or a file could not be written;
130 interrupted (with --state, the message says how to resume).
`;

export const crawlCommand: CliCommand = {
  summary: 'crawl a site politely and write its sitemap',
  run: async (args: readonly string[], io: CliIo) => {
    if (args[0] === 'status') return crawlStatusCommand.run(args.slice(1), io);
    if (args[0] === 'export') return crawlExportCommand.run(args.slice(1), io);
    const { values, positionals } = parseCommandArgs(NAME, args, {
      out: { type: 'string' },
      'out-dir': { type: 'string' },
      format: { type: 'string' },
      gzip: { type: 'boolean' },
      lastmod: { type: 'string' },
      hreflang: { type: 'boolean' },
      images: { type: 'boolean' },
      feeds: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      'canonical-host': { type: 'boolean' },
      'keep-tracking': { type: 'boolean' },
      'strip-param': { type: 'string', multiple: true },
      'strip-query': { type: 'boolean' },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      'max-crawl-delay': { type: 'string' },
      timeout: { type: 'string' },
      'max-body': { type: 'string' },
      'user-agent': { type: 'string' },
      'ignore-robots': { type: 'boolean' },
      'robots-error': { type: 'string' },
      'no-sitemaps': { type: 'boolean' },
      sitemap: { type: 'string', multiple: true },
      state: { type: 'string' },
      resume: { type: 'boolean' },
      crawl: { type: 'string' },
      join: { type: 'boolean' },
      'worker-timeout': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      verbose: { type: 'boolean', short: 'v' },
      'json-log': { type: 'boolean' },
      serve: { type: 'string' },
      report: { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [given, ...extra] = positionals;
    const location = stateLocation(NAME, values, io.env);
    if (values.join && location.kind !== 'postgres')
      throw usageError(NAME, '--join works on a shared crawl: give --crawl <name>');
    if (values.join && (given !== undefined || values.serve !== undefined))
      throw usageError(
        NAME,
        '--join takes no URL: the crawl in the database says where it started',
      );
    if (values.resume && location.kind === 'postgres')
      throw usageError(NAME, 'a shared crawl always goes on where it stopped: drop --resume');
    if (values['worker-timeout'] !== undefined && location.kind !== 'postgres')
      throw usageError(NAME, '--worker-timeout is for a shared crawl (--crawl <name>)');
    if (values.serve !== undefined && given !== undefined)
      throw usageError(NAME, '--serve crawls the served root: give no URL with it');
    if (values.serve === undefined && given === undefined && !values.join)
      throw usageError(NAME, 'missing the URL to start from');
    if (extra.length > 0) throw usageError(NAME, `one start URL (got ${positionals.length})`);
    if (given !== undefined && (!URL.canParse(given) || !/^https?:/i.test(given)))
      throw usageError(NAME, `"${given}" is not an http(s) URL`);
    const format = outputFormat(NAME, values.out, values['out-dir'], values.format);
    const lastmod = values.lastmod;
    if (lastmod !== undefined && lastmod !== 'header' && lastmod !== 'none')
      throw usageError(NAME, `--lastmod is header or none, not "${lastmod}"`);
    const robotsError = values['robots-error'];
    if (robotsError !== undefined && robotsError !== 'allow' && robotsError !== 'disallow')
      throw usageError(NAME, `--robots-error is allow or disallow, not "${robotsError}"`);
    if (values.resume && values.state === undefined)
      throw usageError(NAME, '--resume needs --state <file>');
    const workerTimeoutMs =
      values['worker-timeout'] === undefined
        ? undefined
        : parseDuration(NAME, '--worker-timeout', values['worker-timeout']);
    if (
      workerTimeoutMs !== undefined &&
      (workerTimeoutMs <= 0 || workerTimeoutMs > MAX_WORKER_TIMEOUT_MS)
    )
      throw usageError(NAME, '--worker-timeout is more than 0 and at most a day (1440m)');
    // Where the results go is checked before the first request: a crawl of an hour must
    // not end in "cannot write".
    await checkOutputPlace(NAME, '--out', values.out, checkWritableFile);
    await checkOutputPlace(NAME, '--out-dir', values['out-dir'], checkWritableFolder);
    await checkOutputPlace(NAME, '--feeds', values.feeds, checkWritableFile);
    await checkOutputPlace(NAME, '--report', values.report, checkWritableFile);
    if (location.kind === 'sqlite') {
      await checkOutputPlace(NAME, '--state', location.path, checkWritableFile);
    }
    // A shared crawl's database is reached (and a joined crawl's record read) before the
    // site is: a wrong address fails at once.
    const shared = await openSharedState(location, values.join === true, workerTimeoutMs, io);

    // The choice-like options are checked above, before a --serve root is opened; numbers and
    // sizes are read below, and a bad one stops the served root again through `finally`.
    let served: SiteServer | null = null;
    try {
      if (values.serve !== undefined) {
        // The site server and the report are loaded only when asked for: a plain crawl
        // keeps their code (~8 MB of peak RSS) out of its process.
        const { startSiteServer } = await import('../../site/index.ts');
        served = await startSiteServer({ root: values.serve, port: 0 });
      }
      const start =
        served !== null ? `${served.origin}/` : (given ?? (shared?.record?.start as string));
      const origin = new URL(start).origin;
      const progress = new CrawlProgress(
        io,
        values.quiet ? 'quiet' : values['json-log'] ? 'json' : io.stderrIsTTY ? 'tty' : 'log',
        values.verbose === true,
      );
      let written: string | null = null;
      let reportWritten = false;
      // The crawl calls write only when it has a sitemap to give (see CrawlRunOptions.write).
      let wroteSitemap = false;
      /** Why a sitemap with listed pages was not written (an outage), or null. */
      let withheld: string | null = null;
      const extensions =
        shared?.record != null
          ? storedExtensions(shared.record)
          : [
              ...(values.hreflang ? (['xhtml'] as const) : []),
              ...(values.images ? (['image'] as const) : []),
            ];
      let options: CrawlRunOptions = {
        ...(values.join ? { join: true } : { start }),
        ...(values['user-agent'] === undefined ? {} : { userAgent: values['user-agent'] }),
        ...(values['max-pages']
          ? { maxPages: parseCount(NAME, '--max-pages', values['max-pages'], 1) }
          : {}),
        ...(values['max-depth']
          ? { maxDepth: parseCount(NAME, '--max-depth', values['max-depth']) }
          : {}),
        ...(values.concurrency
          ? { concurrency: parseCount(NAME, '--concurrency', values.concurrency, 1) }
          : {}),
        ...(values.rate
          ? { rate: parseRate(values.rate) }
          : values.serve !== undefined
            ? { rate: 0 }
            : {}),
        ...(values['max-crawl-delay']
          ? {
              maxCrawlDelay:
                parseDuration(NAME, '--max-crawl-delay', values['max-crawl-delay']) / 1000,
            }
          : {}),
        ...(values.timeout ? { timeoutMs: parseDuration(NAME, '--timeout', values.timeout) } : {}),
        ...(values['max-body']
          ? { maxBytes: parseSize(NAME, '--max-body', values['max-body']) }
          : {}),
        ...(values.include ? { include: values.include } : {}),
        ...(values.exclude ? { exclude: values.exclude } : {}),
        ...(values['canonical-host'] ? { canonicalHost: true } : {}),
        ...(values['keep-tracking'] ? { keepTracking: true } : {}),
        ...(values['strip-param'] ? { stripParams: values['strip-param'] } : {}),
        ...(values['strip-query'] ? { stripQuery: true } : {}),
        ...(values['ignore-robots'] ? { respectRobots: false } : {}),
        ...(robotsError === undefined ? {} : { robotsError }),
        ...(values['no-sitemaps'] ? { sitemaps: false } : {}),
        ...(values.sitemap ? { extraSitemaps: values.sitemap } : {}),
        ...(lastmod === undefined ? {} : { lastmod }),
        ...(values.hreflang ? { hreflang: true } : {}),
        ...(values.images ? { images: true } : {}),
        ...(values.feeds ? { feeds: true } : {}),
        ...(shared === null
          ? { statePath: location.kind === 'sqlite' ? location.path : null }
          : { state: shared.state }),
        ...(values.resume ? { resume: true } : {}),
        ...(io.interrupts ? { signal: io.interrupts() } : {}),
        writeIf: (summary) => {
          withheld = outageWithheld(summary, values.out, values['out-dir']);
          return withheld === null;
        },
        write: async (pages) => {
          wroteSitemap = true;
          written = await writeCrawlOutput(
            pages,
            {
              out: values.out,
              outDir: values['out-dir'],
              format,
              gzip: values.gzip === true,
              extensions,
            },
            origin,
            io,
          );
        },
      };
      if (values.report !== undefined) {
        const path = values.report;
        options = {
          ...options,
          report: async (state, summary) => {
            const { writeReportFile } = await import('../../report/index.ts');
            await writeReportFile(state, path, { summary, generator: `waymark ${io.version}` });
            reportWritten = true;
          },
        };
      }
      function parseRate(text: string): number {
        const rate = Number(text);
        if (!Number.isFinite(rate) || rate < 0)
          throw usageError(
            NAME,
            `--rate takes requests per second (0 for no limit), not "${text}"`,
          );
        return rate;
      }
      const run = crawl(options);
      // Where the start page itself sent the crawl off the site, when it did: the usual
      // reason a crawl lists nothing (http:// to https://, or to www.).
      const startUrl = normalizeUrl(start);
      let startMoved: string | null = null;
      for await (const event of run) {
        if (
          event.type === 'skipped' &&
          event.reason === 'redirect-off-origin' &&
          event.url === startUrl
        )
          startMoved = event.detail;
        progress.event(event);
      }
      const summary = await run;
      let feedsWritten = false;
      if (values.feeds !== undefined && summary.feeds.length > 0 && wroteSitemap) {
        await writeFileAtomically(
          values.feeds,
          summary.feeds.map((feed) => `${feed}\n`),
        );
        feedsWritten = true;
      }
      // What was asked for and not written stays as it was: say so.
      const kept = [
        ...(written === null ? [values.out, values['out-dir']] : []),
        ...(feedsWritten ? [] : [values.feeds]),
        ...(reportWritten ? [] : [values.report]),
      ].filter((path) => path !== undefined);
      progress.summary(summary, written, kept);
      if (withheld !== null) progress.notice(withheld);
      if (summary.listed === 0 && startMoved !== null) {
        progress.notice(
          `the start URL redirects to ${printable(startMoved)}, on another origin, which is not crawled: start from that URL instead${sameSiteHint(start, startMoved)}`,
        );
      }
      if (reportWritten) progress.notice(`report written: ${printable(values.report ?? '')}`);
      if (summary.stoppedBy === 'aborted') {
        progress.notice(
          location.kind === 'postgres'
            ? `interrupted: this worker stopped; its URLs went back to the crawl in ${location.display}. To work on it again:\n  waymark crawl ${sharedCrawlWords(location, values.state)} --join`
            : resumeHint(args, values.state),
        );
        return EXIT_INTERRUPTED;
      }
      if (shared !== null && !wroteSitemap && summary.listed > 0) {
        progress.notice(
          `another worker finished the crawl and wrote its output; to write it here: waymark crawl export ${location.kind === 'postgres' ? sharedCrawlWords(location, values.state) : ''} --out-dir <dir>`,
        );
      }
      if (summary.unreachable !== null) return EXIT_FAILURE;
      return summary.listed > 0 && withheld === null ? EXIT_OK : EXIT_PROBLEMS;
    } finally {
      await served?.close();
      // The crawl closes its state; this is for a failure before it started.
      await shared?.state.close();
    }
  },
};

/** The flag that would have kept a move between `www.` and the bare host on the site. */
function sameSiteHint(start: string, moved: string): string {
  const from = URL.parse(start);
  const to = URL.parse(moved);
  if (from === null || to === null || from.protocol !== to.protocol || from.port !== to.port) {
    return '';
  }
  const bare = (host: string) => host.replace(/^www\./, '');
  return from.hostname !== to.hostname && bare(from.hostname) === bare(to.hostname)
    ? ' (or add --canonical-host)'
    : '';
}

/**
 * Why the sitemap is not written though pages were listed, or null: more pages failed
 * (network errors, timeouts, 5xx) than were listed, and a sitemap is already at the output
 * place. The sitemap of a site half down lists what happened to answer, and must not
 * replace a good one; the first sitemap of a place is written all the same.
 */
function outageWithheld(
  summary: CrawlSummary,
  out: string | undefined,
  outDir: string | undefined,
): string | null {
  const failed = summary.errors + (summary.skipped['server-error'] ?? 0);
  if (failed <= summary.listed) return null;
  const existing =
    out !== undefined
      ? existsSync(out)
      : outDir !== undefined &&
        ['sitemap.xml', 'sitemap.xml.gz', 'sitemap_index.xml'].some((name) =>
          existsSync(join(outDir, name)),
        );
  if (!existing) return null;
  return `${failed} pages failed (network errors, timeouts, 5xx) and ${summary.listed} were listed: a sitemap of a site this far down would replace a good one, so the old one stays; crawl again when the site answers (with --state, 'waymark crawl export' writes this crawl's sitemap all the same)`;
}

/**
 * `--state … --crawl …` for a command to type next. A connection string that came from the
 * environment is left out (the environment still has it); one given on the command line is
 * shown without its password, which the user puts back (or sets PGPASSWORD).
 */
function sharedCrawlWords(
  location: Extract<StateLocation, { kind: 'postgres' }>,
  given: string | undefined,
): string {
  const state = given === undefined ? [] : ['--state', location.display];
  return [...state, '--crawl', location.crawl].map(shellWord).join(' ');
}

/** A shared crawl's state, opened (and for --join, its record read) before the crawl. */
async function openSharedState(
  location: StateLocation,
  join: boolean,
  workerTimeoutMs: number | undefined,
  io: CliIo,
): Promise<{ state: CrawlState; record: CrawlRecord | null } | null> {
  if (location.kind !== 'postgres') return null;
  const state = await openPostgresAt(location, {
    workerTimeoutMs,
    onRetry: (error, waitMs) =>
      io.stderr(`${NAME}: the database is away (${error.message}); trying again in ${waitMs} ms\n`),
  });
  try {
    const record = await state.crawl();
    if (join && record === null) {
      throw new WaymarkError(
        'invalid-argument',
        `no crawl named "${location.crawl}" in ${location.display}: create it with waymark crawl <url> --state … --crawl ${location.crawl}`,
      );
    }
    return { state, record };
  } catch (error) {
    await state.close();
    throw error;
  }
}

/** What to type to go on after an interruption; without a state there is nothing to resume. */
function resumeHint(args: readonly string[], state: string | undefined): string {
  if (state === undefined) {
    return 'interrupted: the crawl is lost (give --state <file> to make a crawl resumable)';
  }
  const again = ['waymark', 'crawl', ...args.filter((arg) => arg !== '--resume'), '--resume'];
  return `interrupted: the crawl is kept in ${state}; to go on:\n  ${again.map(shellWord).join(' ')}`;
}

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
