// The shared CrawlState conformance suite, run against PostgreSQL: one real server for the
// file, a fresh crawl (name) for each state opened, and second handles on the same crawl as
// other workers.
import { after } from 'node:test';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import type { CrawlState } from '../crawl-state.ts';
import { crawlStateConformance } from '../test-support/crawl-state-conformance.ts';
import { openPostgresCrawlState } from './postgres-crawl-state.ts';

const server = await startPostgresServer();
after(() => server.stop());

/** The crawl name each state was opened on. */
const crawlOf = new WeakMap<CrawlState, string>();
let crawls = 0;

async function open(crawl: string): Promise<CrawlState> {
  const state = await openPostgresCrawlState({ connection: server.url, crawl });
  crawlOf.set(state, crawl);
  return state;
}

crawlStateConformance({
  open: () => open(`conformance-${++crawls}`),
  second: (state) => open(crawlOf.get(state) as string),
});
