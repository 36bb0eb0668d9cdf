// Two workers in this process on one crawl in a real PostgreSQL, each with its own state
// handle (as two machines would have): the crawler assumes nothing about being alone. The
// tests with worker processes, kill -9 and server restarts live with the CLI's.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { FetchFunction } from '../http/index.ts';
import type { TestServer } from '../http/test-support/test-server.ts';
import type { SitemapUrl } from '../sitemap/index.ts';
import { startPostgresServer } from '../test-support/postgres-server.ts';
import { type CrawlRunOptions, crawl } from './crawl.ts';
import type { CrawlState } from './crawl-state.ts';
import { openPostgresCrawlState } from './postgres/postgres-crawl-state.ts';
import { startTreeSite } from './test-support/tree-site.ts';
import type { CrawlSummary } from './types.ts';

const database = await startPostgresServer();
after(() => database.stop());

let crawls = 0;

/** A state handle per worker on one new crawl. */
async function handles(count: number): Promise<CrawlState[]> {
  const crawl = `workers-${++crawls}`;
  return Promise.all(
    Array.from({ length: count }, () =>
      openPostgresCrawlState({ connection: database.url, crawl }),
    ),
  );
}

interface WorkerRun {
  readonly summary: CrawlSummary;
  /** The pages it wrote, or null when it wrote none. */
  readonly written: string[] | null;
  /** Requests it made. */
  readonly requests: number;
}

/** Runs one worker; `beforeRequest` may hold each of its requests back. */
async function work(
  options: CrawlRunOptions,
  beforeRequest: () => Promise<void> = async () => {},
): Promise<WorkerRun> {
  let written: string[] | null = null;
  let requests = 0;
  const counting: FetchFunction = async (url, init) => {
    requests++;
    await beforeRequest();
    return globalThis.fetch(url, init);
  };
  const summary = await crawl({
    fetch: counting,
    write: async (pages: AsyncIterable<SitemapUrl>) => {
      written = [];
      for await (const page of pages) written.push(page.loc);
    },
    ...options,
  });
  return { summary, written, requests };
}

/**
 * The first worker creates the crawl; the others join it once it exists. With `hold`, the
 * first one's requests after its first few wait until another worker has made one, so every
 * worker gets work however the machine schedules them (a request held after the state
 * booked it leaves late: not for a test of the gaps between requests).
 */
async function crawlWithWorkers(
  states: readonly CrawlState[],
  options: CrawlRunOptions,
  hold = true,
): Promise<WorkerRun[]> {
  const [first, ...others] = states as [CrawlState, ...CrawlState[]];
  let othersWorking: () => void = () => {};
  const othersStarted = new Promise<void>((resolve) => {
    othersWorking = resolve;
  });
  let firstRequests = 0;
  const creator = work({ ...options, state: first }, () =>
    hold && ++firstRequests > 3 && others.length > 0 ? othersStarted : Promise.resolve(),
  );
  while ((await first.crawl()) === null) await new Promise((resolve) => setTimeout(resolve, 2));
  const joined = others.map((state) =>
    work({ join: true, concurrency: options.concurrency ?? 2, state }, async () => othersWorking()),
  );
  return Promise.all([creator, ...joined]);
}

function counts(summary: CrawlSummary) {
  const { fetched, listed, skipped, errors, sitemapUrls, truncated, unreachable } = summary;
  return { fetched, listed, skipped, errors, sitemapUrls, truncated, unreachable };
}

function pagePaths(server: TestServer): string[] {
  return server.requests.map((r) => r.path).filter((p) => p === '/' || p.startsWith('/p/'));
}

test('two workers crawl each page once, robots.txt once, and one writes the sitemap one process would', async () => {
  const site = await startTreeSite({ pages: 60, latencyMs: 10 });
  const alone = await startTreeSite({ pages: 60, latencyMs: 0 });
  try {
    const options = { start: site.url('/'), rate: 0, concurrency: 2 };
    const runs = await crawlWithWorkers(await handles(2), options);
    const single = await work({ ...options, start: alone.url('/') });

    const writers = runs.filter((run) => run.written !== null);
    assert.equal(writers.length, 1, 'the sitemap is written once');
    const relative = (locs: string[] | null, origin: string) =>
      (locs ?? []).map((loc) => loc.slice(origin.length));
    assert.deepEqual(
      relative(writers[0]?.written ?? null, site.origin),
      relative(single.written, alone.origin),
    );
    assert.ok(
      runs.every((run) => run.requests > 0),
      'both workers crawled',
    );
    const paths = pagePaths(site);
    assert.equal(new Set(paths).size, paths.length, 'no page was requested twice');
    assert.equal(site.requests.filter((r) => r.path === '/robots.txt').length, 1);
    for (const run of runs) assert.deepEqual(counts(run.summary), counts(single.summary));
  } finally {
    await site.close();
    await alone.close();
  }
});

test('the rate limit holds for the workers together', async () => {
  // 24 pages at 10 a second: the workers that join (and sleep up to a second while the
  // first fetches robots.txt) have time to take part.
  const site = await startTreeSite({ pages: 24, latencyMs: 0 });
  try {
    const options = { start: site.url('/'), rate: 10, concurrency: 2, sitemaps: false };
    const runs = await crawlWithWorkers(await handles(3), options, false);
    assert.ok(runs.filter((run) => run.requests > 0).length >= 2, 'several workers crawled');
    // From the first page on: robots.txt's own arrival includes opening the connection.
    // The workers book each request 100 ms after the last in the database; a request
    // reaches the site a moment after its booking, and on a busy machine that moment varies
    // by tens of milliseconds, so single gaps are not checked. Spans are: a delay moves one
    // end of a span by at most that delay, while a limit applied per worker (three workers
    // at 10 a second each) would put five requests within about 130 ms.
    const times = site.requests.slice(1).map((r) => r.time);
    assert.ok(times.length >= 20);
    const span = (from: number, to: number) => (times[to] as number) - (times[from] as number);
    const whole = span(0, times.length - 1);
    assert.ok(whole >= (times.length - 1) * 90, `${times.length} requests in ${whole} ms`);
    for (let i = 0; i + 4 < times.length; i++) {
      assert.ok(span(i, i + 4) >= 300, `requests ${i}-${i + 4} in ${span(i, i + 4)} ms`);
    }
  } finally {
    await site.close();
  }
});

test('maxPages counts the pages of all workers together', async () => {
  const site = await startTreeSite({ pages: 60, latencyMs: 5 });
  try {
    const runs = await crawlWithWorkers(await handles(2), {
      start: site.url('/'),
      rate: 0,
      concurrency: 2,
      maxPages: 10,
    });
    // Each worker stops taking at the limit; what the other had in flight may pass it. The
    // writer ends last: its summary has every result.
    const writers = runs.filter((run) => run.written !== null);
    assert.equal(writers.length, 1);
    const fetched = writers[0]?.summary.fetched ?? 0;
    assert.ok(fetched >= 10 && fetched <= 12, `${fetched} pages`);
    // Every request but robots.txt is a page request (the 404 `/gone/0` too).
    const requested = site.requests.filter((request) => request.path !== '/robots.txt');
    assert.equal(requested.length, fetched);
    for (const run of runs) assert.equal(run.summary.stoppedBy, 'max-pages');
  } finally {
    await site.close();
  }
});
