import { CRAWL_DEFAULTS, type CrawlRunOptions, crawl } from '../../crawl/index.ts';
import { writeFileAtomically } from '../../shared/files/atomic-file.ts';
import { checkWritableFile, checkWritableFolder } from '../../shared/files/output-target.ts';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';
import { type SiteServer, startSiteServer } from '../../site/index.ts';
import type { SitemapUrl } from '../../sitemap/index.ts';
import { UrlsetWriter } from '../../sitemap/index.ts';
import { writeSitemaps } from '../../sitemap/node.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { CrawlProgress } from '../internal/crawl-progress.ts';
import { parseCount, parseDuration, parseSize } from '../internal/units.ts';
import {
  type CliCommand,
  type CliIo,
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_PROBLEMS,
} from '../io.ts';

const NAME = 'waymark crawl';

const HELP = `Crawl a site politely and write the sitemap it should have.

Usage: ${NAME} <url> [--out sitemap.xml | --out-dir dir/] [options]
       ${NAME} --serve <content-root> [--out sitemap.xml] [options]

Output:
      --out <file>            write the sitemap here (atomically); default: standard output
      --out-dir <dir>         write sitemap.xml, or parts plus sitemap_index.xml past 50,000 URLs
      --format <f>            xml (default), json (one entry a line) or text (one URL a line)
      --gzip                  gzip the parts (--out-dir)
      --lastmod <source>      header (Last-Modified, default) or none
      --hreflang              keep hreflang alternates          --images   keep images
      --feeds <file>          also list the site's RSS/Atom feeds in this file
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
      --user-agent <ua>       default waymark/<version> (+https://github.com/waymark)
      --ignore-robots         do not obey robots.txt (warns)
      --robots-error <p>      disallow (RFC 9309, default) or allow when robots.txt is unreachable
      --no-sitemaps           do not read the sitemaps robots.txt names
      --sitemap <url>         read this sitemap too (repeatable)
State and logging:
      --state <file>          keep the crawl state in this SQLite file
      --resume                continue the crawl in --state
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
      quiet: { type: 'boolean', short: 'q' },
      verbose: { type: 'boolean', short: 'v' },
      'json-log': { type: 'boolean' },
      serve: { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [given, ...extra] = positionals;
    if (values.serve !== undefined && given !== undefined)
      throw usageError(NAME, '--serve crawls the served root: give no URL with it');
    if (values.serve === undefined && given === undefined)
      throw usageError(NAME, 'missing the URL to start from');
    if (extra.length > 0) throw usageError(NAME, `one start URL (got ${positionals.length})`);
    if (given !== undefined && (!URL.canParse(given) || !/^https?:/i.test(given)))
      throw usageError(NAME, `"${given}" is not an http(s) URL`);
    if (values.out !== undefined && values['out-dir'] !== undefined)
      throw usageError(NAME, '--out and --out-dir exclude each other');
    const format = values.format ?? 'xml';
    if (format !== 'xml' && format !== 'json' && format !== 'text')
      throw usageError(NAME, `--format is xml, json or text, not "${format}"`);
    if (values['out-dir'] !== undefined && format !== 'xml')
      throw usageError(NAME, '--out-dir writes XML; use --out for json or text');
    const lastmod = values.lastmod ?? 'header';
    if (lastmod !== 'header' && lastmod !== 'none')
      throw usageError(NAME, `--lastmod is header or none, not "${lastmod}"`);
    const robotsError = values['robots-error'] ?? 'disallow';
    if (robotsError !== 'allow' && robotsError !== 'disallow')
      throw usageError(NAME, `--robots-error is allow or disallow, not "${robotsError}"`);
    if (values.resume && values.state === undefined)
      throw usageError(NAME, '--resume needs --state <file>');
    // Where the results go is checked before the first request: a crawl of an hour must
    // not end in "cannot write".
    await checkOutput('--out', values.out, checkWritableFile);
    await checkOutput('--out-dir', values['out-dir'], checkWritableFolder);
    await checkOutput('--feeds', values.feeds, checkWritableFile);
    await checkOutput('--state', values.state, checkWritableFile);

    // The choice-like options are checked above, before a --serve root is opened; numbers and
    // sizes are read below, and a bad one stops the served root again through `finally`.
    const served: SiteServer | null =
      values.serve === undefined ? null : await startSiteServer({ root: values.serve, port: 0 });
    const start = served === null ? (given as string) : `${served.origin}/`;
    try {
      const origin = new URL(start).origin;
      const progress = new CrawlProgress(
        io,
        values.quiet ? 'quiet' : values['json-log'] ? 'json' : io.stderrIsTTY ? 'tty' : 'log',
        values.verbose === true,
      );
      let written: string | null = null;
      // The crawl calls write only when it has a sitemap to give (see CrawlRunOptions.write).
      let wroteSitemap = false;
      const extensions = [
        ...(values.hreflang ? (['xhtml'] as const) : []),
        ...(values.images ? (['image'] as const) : []),
      ];
      const options: CrawlRunOptions = {
        start,
        userAgent: values['user-agent'] ?? `waymark/${io.version} (+https://github.com/waymark)`,
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
          ? { maxBodyBytes: parseSize(NAME, '--max-body', values['max-body']) }
          : {}),
        ...(values.include ? { include: values.include } : {}),
        ...(values.exclude ? { exclude: values.exclude } : {}),
        ...(values['canonical-host'] ? { canonicalHost: true } : {}),
        ...(values['keep-tracking'] ? { keepTracking: true } : {}),
        ...(values['strip-param'] ? { stripParams: values['strip-param'] } : {}),
        ...(values['strip-query'] ? { stripQuery: true } : {}),
        ...(values['ignore-robots'] ? { respectRobots: false } : {}),
        robotsError,
        ...(values['no-sitemaps'] ? { sitemaps: false } : {}),
        ...(values.sitemap ? { extraSitemaps: values.sitemap } : {}),
        lastmod,
        ...(values.hreflang ? { hreflang: true } : {}),
        ...(values.images ? { images: true } : {}),
        ...(values.feeds ? { feeds: true } : {}),
        statePath: values.state ?? null,
        ...(values.resume ? { resume: true } : {}),
        ...(io.interrupts ? { signal: io.interrupts() } : {}),
        write: async (pages) => {
          wroteSitemap = true;
          if (values['out-dir'] !== undefined) {
            const result = await writeSitemaps(pages, {
              dir: values['out-dir'],
              baseUrl: `${origin}/`,
              extensions,
              ...(values.gzip ? { gzip: true } : {}),
            });
            written = result.index ?? result.files[0] ?? null;
          } else if (values.out !== undefined) {
            await writeFileAtomically(values.out, render(pages, format, extensions));
            written = values.out;
          } else {
            for (const chunk of render(pages, format, extensions)) io.stdout(chunk);
          }
        },
      };
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
      for await (const event of run) progress.event(event);
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
      ].filter((path) => path !== undefined);
      progress.summary(summary, written, kept);
      if (summary.stoppedBy === 'aborted') {
        progress.notice(resumeHint(args, values.state));
        return EXIT_INTERRUPTED;
      }
      if (summary.unreachable !== null) return EXIT_FAILURE;
      return summary.listed > 0 ? EXIT_OK : EXIT_PROBLEMS;
    } finally {
      await served?.close();
    }
  },
};

/** Runs an output place's check, as a usage error naming the option. */
async function checkOutput(
  option: string,
  path: string | undefined,
  check: (path: string) => Promise<void>,
): Promise<void> {
  if (path === undefined) return;
  try {
    await check(path);
  } catch (error) {
    if (!isWaymarkError(error)) throw error;
    throw usageError(NAME, `${option}: ${error.message}`);
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

/** The listed pages in the chosen format; one XML file holds at most the protocol's limits. */
function* render(
  pages: Iterable<SitemapUrl>,
  format: string,
  extensions: readonly ('xhtml' | 'image')[],
): Generator<string> {
  if (format === 'text') {
    for (const page of pages) yield `${page.loc}\n`;
    return;
  }
  if (format === 'json') {
    for (const page of pages) yield `${JSON.stringify(page)}\n`;
    return;
  }
  const writer = new UrlsetWriter({ extensions, pretty: true });
  yield writer.open();
  for (const page of pages) {
    const result = writer.write(page);
    if (!result.written) {
      throw new WaymarkError(
        'invalid-argument',
        `the sitemap passes ${result.full === 'max-urls' ? '50,000 URLs' : '50 MiB'}: use --out-dir to write an index and parts`,
      );
    }
    yield result.xml;
  }
  yield writer.close();
}
