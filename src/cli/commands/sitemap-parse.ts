import type { Diagnostic } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import type { SitemapEntry, SitemapReport, SitemapUrl } from '../../sitemap/index.ts';
import { notReadDiagnostic, walkSitemapsWith } from '../../sitemap/walk-sitemaps.ts';
import { oneSource, parseCommandArgs } from '../internal/args.ts';
import { diagnosticText } from '../internal/diagnostic-output.ts';
import { jsonLine } from '../internal/json-line.ts';
import {
  cliSitemapOpener,
  cutReadHint,
  maxBytesOption,
  openSitemapSource,
} from '../internal/open-sitemap-url.ts';
import { SitemapStats } from '../internal/sitemap-stats.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap parse';
/** Sitemaps a walk reads at most (walkSitemaps' default), the first document's children included. */
const MAX_SITEMAPS = 1000;

const HELP = `Read a sitemap (URL set, index, gzip, plain text, RSS or Atom) and print its URLs.

Usage: ${NAME} <url|file|-> [options]

Arguments:
  <url|file|->           a sitemap URL, a file, or - for standard input

Options:
      --json             one JSON object a line: the full entry (with "sitemap" when --recursive)
  -r, --recursive        follow sitemap indexes (their sitemaps are fetched over HTTP)
      --stats            print counts per kind, entries, lastmod range and problems instead
      --user-agent <ua>  User-Agent for fetches (default waymark/<version>)
      --max-bytes <size> most bytes read from one sitemap, after gzip (default 100MiB)
  -h, --help             show this help

Problems go to stderr as source:line: severity: message. Control characters from the
sitemap are shown escaped (\\x1b, \\u202e), never sent to the terminal raw.
Exit status: 0 when read without errors, 1 when a document had errors, was cut at
--max-bytes or answered with an HTTP error, 2 on a usage error, 3 when the sitemap
cannot be read at all (no such file, no connection).
`;

export const sitemapParse: CliCommand = {
  summary: 'print the URLs of a sitemap, following indexes with --recursive',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      json: { type: 'boolean' },
      recursive: { type: 'boolean', short: 'r' },
      stats: { type: 'boolean' },
      'user-agent': { type: 'string' },
      'max-bytes': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const source = oneSource(NAME, positionals);
    const maxBytes = maxBytesOption(NAME, values['max-bytes']);
    const userAgent = values['user-agent'] ?? `waymark/${io.version}`;
    const stats = values.stats ? new SitemapStats() : null;
    let failed = false;

    const print = (entry: SitemapEntry, sitemap: string | null) => {
      if (stats !== null) stats.entry(entry);
      else if (values.json) io.stdout(jsonLine(sitemap === null ? entry : { sitemap, ...entry }));
      else io.stdout(`${printable(entry.loc)}\n`);
    };
    const report = (name: string, diagnostics: readonly Diagnostic[]) => {
      for (const d of diagnostics) {
        io.stderr(diagnosticText(name, d));
        if (d.severity === 'error') failed = true;
      }
      const hint = cutReadHint(NAME, name, diagnostics, maxBytes);
      if (hint !== null) io.stderr(hint);
    };
    const onSitemap = (r: SitemapReport) => {
      stats?.document(r.kind, r.diagnostics);
      if (r.skipped !== null) {
        failed = true;
        io.stderr(`${printable(`${r.url}: error: not read: ${r.skipped}`)}\n`);
      }
      report(r.finalUrl ?? r.url, r.diagnostics);
    };

    // Read the given document first, whatever it is; an index's children are walked after,
    // as many as a walk reads (the rest counted, not held).
    const children: string[] = [];
    let notHeld = 0;
    const { name, failedStatus, reading } = await openSitemapSource(
      source,
      io,
      userAgent,
      maxBytes,
    );
    if (failedStatus !== null) {
      io.stderr(`${printable(name)}: error: HTTP ${failedStatus}\n`);
      return EXIT_PROBLEMS;
    }
    for await (const entry of reading) {
      if (reading.kind !== 'index' || !values.recursive)
        print(entry, values.recursive ? name : null);
      else if (children.length < MAX_SITEMAPS - 1) children.push(entry.loc);
      else notHeld++;
    }
    const diagnostics =
      notHeld > 0
        ? [...reading.diagnostics, notReadDiagnostic(notHeld, MAX_SITEMAPS)]
        : reading.diagnostics;
    stats?.document(reading.kind, diagnostics);
    report(name, diagnostics);

    if (children.length > 0) {
      // One cap for every document, as for the first; the reader cancels a download at it.
      const caps = { maxBytes, maxDownloadBytes: 2 * maxBytes + 1024 * 1024 };
      // Fetched, the first document is the index its children belong to: the walk holds them
      // to its origin (a child elsewhere is not read) and counts them against maxSitemaps.
      const from = /^https?:\/\//i.test(source) ? { url: source, finalUrl: name } : undefined;
      const walk = walkSitemapsWith(
        children,
        // The given document was the first of the MAX_SITEMAPS.
        { userAgent, onSitemap, maxSitemaps: MAX_SITEMAPS - 1, ...caps },
        cliSitemapOpener,
        from,
      );
      for await (const { sitemap, entry } of walk) print(entry as SitemapUrl, sitemap);
    }
    if (stats !== null) io.stdout(values.json ? jsonLine(stats.toJSON()) : stats.format());
    return failed ? EXIT_PROBLEMS : EXIT_OK;
  },
};
