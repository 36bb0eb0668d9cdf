import { type Diagnostic, hasErrors } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import { diffSitemaps, type SitemapDiff } from '../../sitemap/diff-sitemaps.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { diagnosticText } from '../internal/diagnostic-output.ts';
import { jsonLine } from '../internal/json-line.ts';
import { cutReadHint, maxBytesOption, openSitemapSource } from '../internal/open-sitemap-url.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap diff';

const HELP = `Compare two sitemaps: which URLs were added, which removed, which changed lastmod.

Usage: ${NAME} <old> <new> [options]

Arguments:
  <old>, <new>           each a sitemap URL, a file, or - for standard input (one of them)

Options:
      --json             one JSON object: counts, added, removed, lastmodChanged, diagnostics
      --user-agent <ua>  User-Agent for fetches (default waymark/<version>)
      --max-bytes <size> most bytes read from each sitemap, after gzip (default 100MiB)
  -h, --help             show this help

Prints a summary line, then one line per difference:
  + <url>                      in <new> only
  - <url>                      in <old> only
  ~ <url> <old> -> <new>       lastmod changed ("none" where there is no lastmod)
Each document is compared as given: two sitemap indexes compare their child sitemaps,
which are not fetched. lastmod values are equal when written the same or when both have
a time of day and name the same instant.
Exit status: 0 when both were read without errors (whether or not they differ), 1 when
one had errors (cut short, broken, an HTTP error: the diff may then be wrong), 2 on a
usage error, 3 when a sitemap cannot be read at all (no such file, no connection).
`;

/** A diff of two command-line sources, with the names to show them by. */
export interface SourcesDiff {
  readonly diff: SitemapDiff;
  readonly oldName: string;
  readonly newName: string;
}

/** Both sources read, or the line that says which one answered with an HTTP error. */
export type SourcesDiffOutcome = SourcesDiff | { readonly httpError: string };

/**
 * Reads `<old>` and then `<new>` (each a URL, a file or `-`) and diffs them. The second is
 * opened only once the first has been read, so its download does not wait, time running,
 * behind the first. Shared with `waymark indexnow submit --diff`.
 */
export async function diffSources(
  command: string,
  oldSource: string,
  newSource: string,
  io: CliIo,
  userAgent: string,
  maxBytes: number,
): Promise<SourcesDiffOutcome> {
  if (oldSource === '-' && newSource === '-') {
    throw usageError(command, 'only one of the two sitemaps can be standard input (-)');
  }
  const first = await openSitemapSource(oldSource, io, userAgent, maxBytes);
  if (first.failedStatus !== null) return { httpError: httpErrorLine(first) };
  let second: Awaited<ReturnType<typeof openSitemapSource>> | null = null;
  const diff = await diffSitemaps(first.reading, async () => {
    second = await openSitemapSource(newSource, io, userAgent, maxBytes);
    // A failed fetch is reported below; its (empty) body is not diffed as a sitemap.
    return second.failedStatus === null ? second.reading : '';
  });
  const opened = second as Awaited<ReturnType<typeof openSitemapSource>> | null;
  if (opened === null) throw new Error('the new sitemap was never opened');
  if (opened.failedStatus !== null) return { httpError: httpErrorLine(opened) };
  return { diff, oldName: first.name, newName: opened.name };
}

/** The readers' diagnostics of both documents on stderr (with the --max-bytes hint); true when any is an error. */
export function reportDiffDiagnostics(
  command: string,
  result: SourcesDiff,
  io: CliIo,
  maxBytes: number,
): boolean {
  const sides: [string, readonly Diagnostic[]][] = [
    [result.oldName, result.diff.oldDiagnostics],
    [result.newName, result.diff.newDiagnostics],
  ];
  for (const [name, diagnostics] of sides) {
    for (const d of diagnostics) io.stderr(diagnosticText(name, d));
    const hint = cutReadHint(command, name, diagnostics, maxBytes);
    if (hint !== null) io.stderr(hint);
  }
  return hasErrors(result.diff.oldDiagnostics) || hasErrors(result.diff.newDiagnostics);
}

export const sitemapDiff: CliCommand = {
  summary: 'compare two sitemaps: added, removed, lastmod changed',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      json: { type: 'boolean' },
      'user-agent': { type: 'string' },
      'max-bytes': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [oldSource, newSource, ...extra] = positionals;
    if (oldSource === undefined || newSource === undefined || extra.length > 0) {
      throw usageError(NAME, `needs two sitemaps, <old> and <new> (got ${positionals.length})`);
    }
    const maxBytes = maxBytesOption(NAME, values['max-bytes']);
    const userAgent = values['user-agent'] ?? `waymark/${io.version}`;
    const outcome = await diffSources(NAME, oldSource, newSource, io, userAgent, maxBytes);
    if ('httpError' in outcome) {
      io.stderr(outcome.httpError);
      return EXIT_PROBLEMS;
    }
    const { diff, oldName, newName } = outcome;
    if (values.json) {
      io.stdout(jsonLine(diffJson(outcome)));
      const failed = hasErrors(diff.oldDiagnostics) || hasErrors(diff.newDiagnostics);
      return failed ? EXIT_PROBLEMS : EXIT_OK;
    }
    const failed = reportDiffDiagnostics(NAME, outcome, io, maxBytes);
    for (const [name, kind] of [
      [oldName, diff.oldKind],
      [newName, diff.newKind],
    ] as const) {
      if (kind === 'index') {
        io.stderr(
          `${printable(name)}: note: a sitemap index: its child sitemaps are compared, not their pages\n`,
        );
      }
    }
    io.stdout(`${printable(summaryLine(outcome))}\n`);
    for (const entry of diff.added) io.stdout(`+ ${printable(entry.loc)}\n`);
    for (const entry of diff.removed) io.stdout(`- ${printable(entry.loc)}\n`);
    for (const change of diff.lastmodChanged) {
      const line = `~ ${change.loc} ${change.oldLastmod ?? 'none'} -> ${change.newLastmod ?? 'none'}`;
      io.stdout(`${printable(line)}\n`);
    }
    return failed ? EXIT_PROBLEMS : EXIT_OK;
  },
};

/** `old.xml (urlset, 6 URLs) -> new.xml (urlset, 6 URLs): 2 added, 2 removed, ...` */
function summaryLine({ diff, oldName, newName }: SourcesDiff): string {
  const side = (name: string, kind: string, count: number) =>
    `${name} (${kind}, ${count} ${kind === 'index' ? 'sitemaps' : 'URLs'})`;
  const { counts } = diff;
  return `${side(oldName, diff.oldKind, counts.old)} -> ${side(newName, diff.newKind, counts.new)}: ${counts.added} added, ${counts.removed} removed, ${counts.lastmodChanged} lastmod changed, ${counts.unchanged} unchanged`;
}

/** The --json document. */
function diffJson({ diff, oldName, newName }: SourcesDiff): unknown {
  const diagnostics = (file: string, list: readonly Diagnostic[]) =>
    list.map(({ line, column, severity, code, message }) => ({
      file,
      line,
      column,
      severity,
      code,
      message,
    }));
  return {
    old: { source: oldName, kind: diff.oldKind },
    new: { source: newName, kind: diff.newKind },
    counts: diff.counts,
    added: diff.added,
    removed: diff.removed,
    lastmodChanged: diff.lastmodChanged,
    diagnostics: [
      ...diagnostics(oldName, diff.oldDiagnostics),
      ...diagnostics(newName, diff.newDiagnostics),
    ],
  };
}

function httpErrorLine(opened: { name: string; failedStatus: number | null }): string {
  return `${printable(opened.name)}: error: HTTP ${opened.failedStatus}\n`;
}
