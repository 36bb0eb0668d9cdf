import { writeReportFile } from '../../report/index.ts';
import { checkWritableFile } from '../../shared/files/output-target.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { checkOutputPlace } from '../internal/crawl-output.ts';
import { stateLocation } from '../internal/crawl-state-location.ts';
import { openExistingCrawl } from '../internal/open-crawl-state.ts';
import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';

const NAME = 'waymark report';

const HELP = `The crawl audit as one HTML page: indexability, the sitemap against the crawl,
lastmod sanity, robots.txt (with a tester), the site's structure and every URL.

Usage: ${NAME} <crawl-state.db> --out report.html
       ${NAME} --state <postgres://…> --crawl <name> --out report.html

      --out <file>            write the report here (atomically)
      --state <url|file>      the crawl's state: an SQLite file (also as the first argument),
                              or its PostgreSQL database with --crawl
      --crawl <name>          the crawl's name in that database
  -h, --help                  show this help

The report is one self-contained file: it makes no network request, opens from file://,
and can be mailed. \`waymark crawl … --report report.html\` writes it at the end of a crawl.
`;

export const reportCommand: CliCommand = {
  summary: 'the crawl audit report of a saved crawl, as one HTML page',
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      out: { type: 'string' },
      state: { type: 'string' },
      crawl: { type: 'string' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [file, ...extra] = positionals;
    if (extra.length > 0) throw usageError(NAME, `one crawl state (got ${positionals.length})`);
    if (file !== undefined && values.state !== undefined)
      throw usageError(NAME, `give the crawl state once: "${file}" or --state`);
    if (values.out === undefined) throw usageError(NAME, 'missing --out <file>');
    const location = stateLocation(
      NAME,
      { state: file ?? values.state, crawl: values.crawl },
      io.env,
    );
    if (location.kind === 'temporary')
      throw usageError(NAME, 'say which crawl: a state file, or --crawl <name> with PostgreSQL');
    await checkOutputPlace(NAME, '--out', values.out, checkWritableFile);
    const { state } = await openExistingCrawl(location);
    try {
      const bytes = await writeReportFile(state, values.out, {
        generator: `waymark ${io.version}`,
      });
      io.stderr(
        `report written: ${printable(values.out)} (${bytes.toLocaleString('en-US')} bytes)\n`,
      );
      return EXIT_OK;
    } finally {
      await state.close();
    }
  },
};
