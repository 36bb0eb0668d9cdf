import type { Diagnostic } from '../../shared/diagnostic.ts';
import {
  type SitemapEntry,
  type SitemapReport,
  type SitemapUrl,
  walkSitemaps,
} from '../../sitemap/index.ts';
import { oneSource, parseCommandArgs } from '../internal/args.ts';
import { openSitemapSource } from '../internal/open-sitemap-url.ts';
import { SitemapStats } from '../internal/sitemap-stats.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap parse';

const HELP = `Read a sitemap (URL set, index, gzip, plain text, RSS or Atom) and print its URLs.

Usage: ${NAME} <url|file|-> [options]

Arguments:
  <url|file|->          a sitemap URL, a file, or - for standard input

Options:
      --json            one JSON object a line: the full entry (with "sitemap" when --recursive)
  -r, --recursive       follow sitemap indexes (their sitemaps are fetched over HTTP)
      --stats           print counts per kind, entries, lastmod range and problems instead
      --user-agent <ua> User-Agent for fetches (default waymark/<version>)
  -h, --help            show this help

Problems go to stderr as source:line: severity: message.
Exit status: 0 when read without errors, 1 when a document had errors or could not be
fetched, 2 on a usage error.
`;

export const sitemapParse: CliCommand = {
  summary: 'print the URLs of a sitemap, following indexes with --recursive',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      json: { type: 'boolean' },
      recursive: { type: 'boolean', short: 'r' },
      stats: { type: 'boolean' },
      'user-agent': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const source = oneSource(NAME, positionals);
    const userAgent = values['user-agent'] ?? `waymark/${io.version}`;
    const stats = values.stats ? new SitemapStats() : null;
    let failed = false;

    const print = (entry: SitemapEntry, sitemap: string | null) => {
      if (stats !== null) stats.entry(entry);
      else if (values.json)
        io.stdout(`${JSON.stringify(sitemap === null ? entry : { sitemap, ...entry })}\n`);
      else io.stdout(`${entry.loc}\n`);
    };
    const report = (name: string, diagnostics: readonly Diagnostic[]) => {
      for (const d of diagnostics) {
        io.stderr(`${name}:${d.line}: ${d.severity}: ${d.message} [${d.code}]\n`);
        if (d.severity === 'error') failed = true;
      }
    };
    const onSitemap = (r: SitemapReport) => {
      stats?.document(r.kind, r.diagnostics);
      if (r.skipped !== null) {
        failed = true;
        io.stderr(`${r.url}: error: not read: ${r.skipped}\n`);
      }
      report(r.finalUrl ?? r.url, r.diagnostics);
    };

    // Read the given document first, whatever it is; an index's children are walked after.
    const children: string[] = [];
    const { name, failedStatus, reading } = await openSitemapSource(source, io, userAgent);
    if (failedStatus !== null) {
      io.stderr(`${name}: error: HTTP ${failedStatus}\n`);
      return EXIT_PROBLEMS;
    }
    for await (const entry of reading) {
      if (reading.kind === 'index' && values.recursive) children.push(entry.loc);
      else print(entry, values.recursive ? name : null);
    }
    stats?.document(reading.kind, reading.diagnostics);
    report(name, reading.diagnostics);

    if (children.length > 0) {
      for await (const { sitemap, entry } of walkSitemaps(children, { userAgent, onSitemap })) {
        print(entry as SitemapUrl, sitemap);
      }
    }
    if (stats !== null)
      io.stdout(values.json ? `${JSON.stringify(stats.toJSON())}\n` : stats.format());
    return failed ? EXIT_PROBLEMS : EXIT_OK;
  },
};
