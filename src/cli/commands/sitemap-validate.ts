import { hasErrors } from '../../shared/diagnostic.ts';
import { strictSitemapDiagnostics } from '../../sitemap/index.ts';
import { oneSource, parseCommandArgs } from '../internal/args.ts';
import { openSitemapSource } from '../internal/open-sitemap-url.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark sitemap validate';

const HELP = `Check a sitemap against the sitemaps.org schemas and the protocol, and say what to fix.

Usage: ${NAME} <url|file|-> [options]

Checks: well-formed XML, namespaces, element names and order, required elements, loc
(absolute http(s), at most 2,048 characters, on the sitemap's host), lastmod in W3C Datetime
that the schema accepts, changefreq and priority values, image/video/news/hreflang
extensions, encoding, and the 50,000-URL and 50 MiB limits. Gzip is read transparently.

Options:
      --json     one JSON object a line: {file, line, column, severity, code, message}
  -h, --help     show this help

Prints file:line:column: severity: message [code].
Exit status: 0 when valid (warnings allowed), 1 when there are errors, 2 on a usage error.
`;

export const sitemapValidate: CliCommand = {
  summary: 'check a sitemap against the schemas and the protocol',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, { json: { type: 'boolean' } });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const source = oneSource(NAME, positionals);
    const {
      name: file,
      failedStatus,
      reading,
    } = await openSitemapSource(source, io, `waymark/${io.version}`);
    if (failedStatus !== null) {
      io.stderr(`${file}: error: HTTP ${failedStatus}\n`);
      return EXIT_PROBLEMS;
    }
    let entries = 0;
    for await (const _ of reading) entries++;
    const diagnostics = strictSitemapDiagnostics(reading.diagnostics);
    for (const d of diagnostics) {
      io.stdout(
        values.json
          ? `${JSON.stringify({ file, line: d.line, column: d.column, severity: d.severity, code: d.code, message: d.message })}\n`
          : `${file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]\n`,
      );
    }
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    if (!values.json) {
      io.stderr(
        `${file}: ${reading.kind}, ${entries} entries, ${errors === 0 ? 'valid' : `${errors} errors`}\n`,
      );
    }
    return hasErrors(diagnostics) ? EXIT_PROBLEMS : EXIT_OK;
  },
};
