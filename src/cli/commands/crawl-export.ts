import { crawlSitemapPages } from '../../crawl/index.ts';
import { checkWritableFile, checkWritableFolder } from '../../shared/files/output-target.ts';
import { printable } from '../../shared/printable.ts';
import type { SitemapUrl } from '../../sitemap/index.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { checkOutputPlace, outputFormat, writeCrawlOutput } from '../internal/crawl-output.ts';
import { stateLocation } from '../internal/crawl-state-location.ts';
import { openExistingCrawl, storedExtensions } from '../internal/open-crawl-state.ts';
import { type CliCommand, type CliIo, EXIT_OK, EXIT_PROBLEMS } from '../io.ts';

const NAME = 'waymark crawl export';

const HELP = `Write the sitemap of a crawl from its state: when it is done, or so far.

Usage: ${NAME} --state <postgres://…> --crawl <name> [--out sitemap.xml | --out-dir dir/]
       ${NAME} --state <file.db> [--out sitemap.xml | --out-dir dir/]

      --state <url|file>      the crawl's PostgreSQL database (or WAYMARK_STATE, or the PG*
                              variables), or an SQLite state file (not while a crawl runs on it)
      --crawl <name>          the crawl's name in that database
      --out <file>            write the sitemap here (atomically); default: standard output
      --out-dir <dir>         write sitemap.xml, or parts plus sitemap_index.xml past 50,000 URLs
      --format <f>            xml (default), json (one entry a line) or text (one URL a line)
      --gzip                  gzip the parts (--out-dir)
  -h, --help                  show this help

Nothing is written when the crawl has listed no page yet: the old file stays.
Exit status: 0 written (a crawl still running says so); 1 no page listed yet; 2 usage error.
`;

export const crawlExportCommand: CliCommand = {
  summary: "write a crawl's sitemap from its state",
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      state: { type: 'string' },
      crawl: { type: 'string' },
      out: { type: 'string' },
      'out-dir': { type: 'string' },
      format: { type: 'string' },
      gzip: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    const format = outputFormat(NAME, values.out, values['out-dir'], values.format);
    const location = stateLocation(NAME, values, io.env);
    if (location.kind === 'temporary') {
      throw usageError(
        NAME,
        'say which crawl: --state <file.db>, or --crawl <name> with PostgreSQL',
      );
    }
    await checkOutputPlace(NAME, '--out', values.out, checkWritableFile);
    await checkOutputPlace(NAME, '--out-dir', values['out-dir'], checkWritableFolder);
    const { state, record } = await openExistingCrawl(location);
    try {
      const counts = await state.counts();
      let listed = 0;
      async function* counted(): AsyncGenerator<SitemapUrl, void> {
        for await (const page of crawlSitemapPages(state)) {
          listed++;
          yield page;
        }
      }
      // The first listed page decides whether anything is written: an empty export must not
      // replace a good sitemap.
      const pages = counted();
      const first = await pages.next();
      if (first.done) {
        io.stderr(`${NAME}: the crawl has listed no page yet; nothing written\n`);
        return EXIT_PROBLEMS;
      }
      const firstPage = first.value;
      async function* all(): AsyncGenerator<SitemapUrl, void> {
        yield firstPage;
        yield* pages;
      }
      const written = await writeCrawlOutput(
        all(),
        {
          out: values.out,
          outDir: values['out-dir'],
          format,
          gzip: values.gzip === true,
          extensions: storedExtensions(record),
        },
        new URL(record.start).origin,
        io,
      );
      const running = record.finishedAt === null && counts.queued + counts.inFlight > 0;
      io.stderr(
        `${listed.toLocaleString('en-US')} pages${written === null ? '' : ` written to ${printable(written)}`}${running ? ` (the crawl is still running: ${counts.queued.toLocaleString('en-US')} URLs queued)` : ''}\n`,
      );
      return EXIT_OK;
    } finally {
      await state.close();
    }
  },
};
