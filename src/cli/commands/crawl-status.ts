import type { CrawlWorker } from '../../crawl/index.ts';
import { printable } from '../../shared/printable.ts';
import { parseCommandArgs, usageError } from '../internal/args.ts';
import { stateLocation } from '../internal/crawl-state-location.ts';
import { jsonLine } from '../internal/json-line.ts';
import { openExistingCrawl } from '../internal/open-crawl-state.ts';
import { type CliCommand, type CliIo, EXIT_OK } from '../io.ts';

const NAME = 'waymark crawl status';

const HELP = `How far a crawl got: its URLs by state, pages requested, and its workers.

Usage: ${NAME} --state <postgres://…> --crawl <name> [--json]
       ${NAME} --state <file.db> [--json]

      --state <url|file>      the crawl's PostgreSQL database (or WAYMARK_STATE, or the PG*
                              variables), or an SQLite state file (not while a crawl runs on it)
      --crawl <name>          the crawl's name in that database
      --json                  one JSON object instead of text
  -h, --help                  show this help
`;

export const crawlStatusCommand: CliCommand = {
  summary: "a crawl's progress and workers",
  run: async (args: readonly string[], io: CliIo) => {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      state: { type: 'string' },
      crawl: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument "${positionals[0]}"`);
    const location = stateLocation(NAME, values, io.env);
    if (location.kind === 'temporary') {
      throw usageError(
        NAME,
        'say which crawl: --state <file.db>, or --crawl <name> with PostgreSQL',
      );
    }
    const { state, record, postgres } = await openExistingCrawl(location);
    try {
      const counts = await state.counts();
      const workers: readonly CrawlWorker[] = postgres === null ? [] : await postgres.workers();
      const status = {
        crawl: location.kind === 'postgres' ? location.crawl : null,
        state: location.kind === 'postgres' ? location.display : location.path,
        start: record.start,
        createdAt: new Date(record.createdAt).toISOString(),
        finishedAt: record.finishedAt === null ? null : new Date(record.finishedAt).toISOString(),
        counts,
        requested: record.requested,
        sitemapsRead: record.sitemapsRead,
        sitemapUrls: record.sitemapUrls,
        workers: workers.map((worker) => ({
          ...worker,
          startedAt: new Date(worker.startedAt).toISOString(),
          seenAt: new Date(worker.seenAt).toISOString(),
        })),
      };
      if (values.json) {
        io.stdout(jsonLine(status));
        return EXIT_OK;
      }
      const n = (value: number) => value.toLocaleString('en-US');
      const alive = workers.filter((worker) => worker.alive).length;
      const lines = [
        `crawl      ${printable(status.crawl ?? status.state)}${status.crawl === null ? '' : ` (${printable(status.state)})`}`,
        `start      ${printable(record.start)}`,
        `created    ${status.createdAt}`,
        `progress   ${status.finishedAt === null ? (counts.queued + counts.inFlight > 0 ? 'running' : 'not finished') : `finished ${status.finishedAt}`}`,
        `urls       ${n(counts.seen)} seen: ${n(counts.queued)} queued, ${n(counts.inFlight)} in flight, ${n(counts.done)} done`,
        `requested  ${n(record.requested)} pages`,
        `sitemaps   ${record.sitemapsRead ? `read, ${n(record.sitemapUrls)} URLs on the site` : 'not read (yet)'}`,
      ];
      if (postgres !== null) {
        lines.push(`workers    ${alive} alive, ${workers.length - alive} gone`);
        for (const worker of workers) {
          lines.push(
            `  ${printable(worker.hostname)} pid ${worker.pid}: ${n(worker.requested)} requested, ${worker.alive ? 'alive' : 'gone'}, last seen ${new Date(worker.seenAt).toISOString()}`,
          );
        }
      }
      io.stdout(`${lines.join('\n')}\n`);
      return EXIT_OK;
    } finally {
      await state.close();
    }
  },
};
