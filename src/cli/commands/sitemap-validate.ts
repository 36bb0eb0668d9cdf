import { stat } from 'node:fs/promises';
import { hasErrors } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import { strictSitemapDiagnostics } from '../../sitemap/index.ts';
import { LastmodSanityCheck } from '../../sitemap/lastmod-sanity.ts';
import { oneSource, parseCommandArgs } from '../internal/args.ts';
import { diagnosticJson, diagnosticText } from '../internal/diagnostic-output.ts';
import { lastmodFindingJson, lastmodFindingText } from '../internal/lastmod-output.ts';
import { cutReadHint, maxBytesOption, openSitemapSource } from '../internal/open-sitemap-url.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap validate';

const HELP = `Check a sitemap against the sitemaps.org schemas and the protocol, and say what to fix.

Usage: ${NAME} <url|file|-> [options]

Checks: well-formed XML, namespaces, element names and order, required elements (a URL set
or index with no entries is invalid), loc (absolute http(s), at most 2,048 characters, on
the sitemap's host), lastmod in W3C Datetime that the schema accepts, changefreq and
priority values, image/video/news/hreflang extensions, encoding, and the 50,000-URL and
50 MiB limits. Gzip is read transparently.

It also warns about lastmod values search engines learn to distrust: all identical, equal
to when the sitemap was generated (a file's modification time) or read, in the future,
not W3C Datetime, and (a note) dates alone where other values have a time. These are
warnings about the whole file: they never make a valid sitemap fail.

Options:
      --json             one JSON object a line: {file, line, column, severity, code, message};
                         lastmod findings have line and column null, and add count and
                         examples [{loc, lastmod}]
      --max-bytes <size> most bytes read, after gzip (default 100MiB); a sitemap cut there
                         is not valid
  -h, --help             show this help

Prints file:line:column: severity: message [code]. Control characters from the sitemap
are shown escaped (\\x1b, \\u202e), never sent to the terminal raw.
Exit status: 0 when valid (warnings allowed), 1 when there are errors (or an HTTP error),
2 on a usage error, 3 when the sitemap cannot be read at all (no such file, no connection).
`;

export const sitemapValidate: CliCommand = {
  summary: 'check a sitemap against the schemas and the protocol',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      json: { type: 'boolean' },
      'max-bytes': { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const source = oneSource(NAME, positionals);
    const maxBytes = maxBytesOption(NAME, values['max-bytes']);
    const {
      name: file,
      failedStatus,
      reading,
    } = await openSitemapSource(source, io, `waymark/${io.version}`, maxBytes);
    if (failedStatus !== null) {
      io.stderr(`${printable(file)}: error: HTTP ${failedStatus}\n`);
      return EXIT_PROBLEMS;
    }
    // When the sitemap was read (a sitemap made on request is made now), and for a file
    // when it was written: a lastmod equal to either is the generation time.
    const generatedAt = await modifiedAt(source);
    const lastmods = new LastmodSanityCheck({
      readAt: Date.now(),
      ...(generatedAt === null ? {} : { generatedAt }),
    });
    let entryCount = 0;
    for await (const entry of reading) {
      entryCount++;
      lastmods.add(entry);
    }
    const diagnostics = strictSitemapDiagnostics(reading.diagnostics, {
      kind: reading.kind,
      entryCount,
    });
    for (const d of diagnostics) {
      io.stdout(values.json ? diagnosticJson(file, d) : diagnosticText(file, d, true));
    }
    // Warnings about the file as a whole: they never change the exit status.
    const { findings } = lastmods.result();
    for (const finding of findings) {
      io.stdout(
        values.json ? lastmodFindingJson(file, finding) : lastmodFindingText(file, finding),
      );
    }
    const hint = cutReadHint(NAME, file, diagnostics, maxBytes);
    if (hint !== null) io.stderr(hint);
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    if (!values.json) {
      io.stderr(
        `${printable(file)}: ${reading.kind}, ${count(entryCount, 'entry', 'entries')}, ${errors === 0 ? 'valid' : count(errors, 'error', 'errors')}\n`,
      );
    }
    return hasErrors(diagnostics) ? EXIT_PROBLEMS : EXIT_OK;
  },
};

/** A file's modification time (epoch ms); null for standard input, a URL or no such file. */
async function modifiedAt(source: string): Promise<number | null> {
  if (source === '-' || /^https?:\/\//i.test(source)) return null;
  try {
    return (await stat(source)).mtimeMs;
  } catch {
    return null;
  }
}

/** `1 entry`, `2 entries`. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
