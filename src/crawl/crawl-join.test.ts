// One crawl, several runs: a run finds the crawl and compares its options, a worker that
// joins crawls with the stored ones, `maxPages` counts for the whole crawl, and one run
// writes the output. Each run after the first opens the same SQLite file (one process at a
// time); the PostgreSQL tests run the same rules with workers at once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestServer } from '../http/test-support/test-server.ts';
import { isWaymarkError } from '../shared/waymark-error.ts';
import type { SitemapUrl } from '../sitemap/index.ts';
import { type CrawlRunOptions, crawl } from './crawl.ts';
import { CRAWL_DEFAULTS } from './internal/crawl-defaults.ts';
import { resolveCrawlSettings, sharedOptionsJson } from './internal/crawl-settings.ts';
import { openSqliteCrawlState } from './sqlite-crawl-state.ts';
import { startTreeSite } from './test-support/tree-site.ts';
import type { CrawlSummary } from './types.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-join-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const freshState = () => join(dir, `state-${files++}.db`);

/** Runs a crawl to its end: the summary, and the pages it wrote (null when it wrote none). */
async function run(options: CrawlRunOptions, stopAfter = Number.POSITIVE_INFINITY) {
  let written: string[] | null = null;
  const stop = new AbortController();
  const crawlRun = crawl({
    signal: stop.signal,
    write: async (pages: AsyncIterable<SitemapUrl>) => {
      written = [];
      for await (const page of pages) written.push(page.loc);
    },
    ...options,
  });
  let fetched = 0;
  for await (const event of crawlRun) {
    if (event.type === 'fetched' && ++fetched >= stopAfter) stop.abort();
  }
  const summary: CrawlSummary = await crawlRun;
  return { summary, written: written as string[] | null };
}

/** Requests for each page path (robots.txt and the like left out). */
function pageRequests(server: TestServer, from = 0): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { path } of server.requests.slice(from)) {
    if (path === '/' || path.startsWith('/p/')) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return counts;
}

function refusal(message: RegExp) {
  return (error: unknown) =>
    isWaymarkError(error) && error.code === 'invalid-argument' && message.test(error.message);
}

describe('one crawl, several runs', () => {
  let server: TestServer;
  before(async () => {
    server = await startTreeSite({ pages: 30, latencyMs: 1 });
  });
  after(() => server.close());

  test('a run that finds the crawl with other options is refused, naming each', async () => {
    const statePath = freshState();
    await run({ start: server.url('/'), statePath, rate: 0, maxDepth: 3 });
    const requests = server.requests.length;
    await assert.rejects(
      async () =>
        await run({
          start: server.url('/'),
          statePath,
          resume: true,
          rate: 2,
          maxDepth: 3,
          images: true,
        }),
      refusal(
        /rate \(--rate\): stored 0, given 2; images \(--images\): stored false, given true\)/,
      ),
    );
    // Options left out are the defaults, compared too.
    await assert.rejects(
      async () => await run({ start: server.url('/'), statePath, resume: true, rate: 0 }),
      refusal(/maxDepth \(--max-depth\): stored 3, given 10/),
    );
    assert.equal(server.requests.length, requests, 'a refused run requests nothing');
  });

  test('a worker that joins needs a crawl to join', async () => {
    for (const statePath of [freshState(), null]) {
      await assert.rejects(
        async () => await run({ join: true, statePath }),
        refusal(/there is no crawl to join in .*: start it first \(without join\)/),
      );
    }
  });

  test('a worker that joins crawls with the stored options; one it gives must match', async () => {
    const statePath = freshState();
    const options = { rate: 0, maxDepth: 2, concurrency: 1, sitemaps: false } as const;
    const before = server.requests.length;
    const first = await run({ start: server.url('/'), statePath, ...options }, 2);
    assert.equal(first.summary.stoppedBy, 'aborted');
    assert.equal(first.written, null);
    await assert.rejects(
      async () => await run({ join: true, statePath, maxDepth: 5 }),
      refusal(/maxDepth \(--max-depth\): stored 2, given 5/),
    );
    await assert.rejects(
      async () => await run({ join: true, statePath, start: server.url('/p/1') }),
      refusal(/holds a crawl of .*\/, not of .*\/p\/1/),
    );
    // No start URL and no options but one that matches: the stored ones are crawled with.
    const joined = await run({ join: true, statePath, maxDepth: 2 });
    const fresh = await run({ start: server.url('/'), statePath: freshState(), ...options });
    assert.deepEqual(joined.written, fresh.written);
    const { durationMs: _a, rate: _b, ...joinedSummary } = joined.summary;
    const { durationMs: _c, rate: _d, ...freshSummary } = fresh.summary;
    assert.deepEqual(joinedSummary, freshSummary);
    assert.ok(joinedSummary.truncated?.maxDepth !== null, 'maxDepth cut links');
    // Pages recorded by the first run were not requested again (one was in flight).
    const repeated = [...pageRequests(server, before).values()].filter((n) => n > 2);
    assert.deepEqual(repeated, []);
  });

  test('a finished crawl: a run writes it from the state at once; a worker that joins does not', async () => {
    const statePath = freshState();
    const options = { start: server.url('/'), statePath, rate: 0 };
    const first = await run(options);
    assert.ok(first.written !== null && first.written.length > 0);
    const requests = server.requests.length;
    const joined = await run({ join: true, statePath });
    assert.equal(joined.written, null);
    assert.equal(joined.summary.listed, first.summary.listed);
    const resumed = await run({ ...options, resume: true });
    assert.deepEqual(resumed.written, first.written);
    assert.equal(server.requests.length, requests, 'nothing was requested again');
  });

  test('maxPages counts the pages of the whole crawl, across its runs, and the output is written', async () => {
    const statePath = freshState();
    const options = { start: server.url('/'), statePath, rate: 0, maxPages: 7, concurrency: 2 };
    const before = server.requests.length;
    const first = await run(options, 3);
    assert.equal(first.summary.stoppedBy, 'aborted');
    const second = await run({ ...options, resume: true });
    assert.equal(second.summary.fetched, 7);
    assert.equal(second.summary.stoppedBy, 'max-pages');
    assert.ok((second.summary.truncated?.maxPages?.queued ?? 0) > 0);
    assert.equal(second.written?.length, second.summary.listed);
    // At most what was in flight when the first run stopped is requested twice.
    const requested = [...pageRequests(server, before).values()].reduce((a, b) => a + b, 0);
    assert.ok(requested <= 7 + 2, `${requested} page requests`);
  });

  test('a crawl an older waymark made (no options stored) resumes with the given ones, but cannot be joined', async () => {
    const statePath = freshState();
    const old = openSqliteCrawlState(statePath, { resume: false });
    await old.create({ start: server.url('/'), options: '', gapMs: 0 });
    await old.close();
    await assert.rejects(
      async () => await run({ join: true, statePath }),
      refusal(/made by an older waymark, which did not store its options: resume it without join/),
    );
    const resumed = await run({ start: server.url('/'), statePath, resume: true, rate: 0 });
    assert.ok(resumed.written !== null && resumed.written.length > 0);
  });

  test('every request carries the one default user agent', async () => {
    const before = server.requests.length;
    await run({ start: server.url('/'), rate: 0, maxPages: 3 });
    const agents = new Set(server.requests.slice(before).map((r) => r.headers['user-agent']));
    assert.deepEqual([...agents], [CRAWL_DEFAULTS.userAgent]);
  });
});

test('robots.txt and sitemaps another worker recorded are used, not fetched again', async () => {
  const server = await startTreeSite({ pages: 8, latencyMs: 1 });
  const state = openSqliteCrawlState(null, { resume: false });
  try {
    const start = server.url('/');
    const { shared } = resolveCrawlSettings({ start, rate: 0 });
    await state.create({ start, options: sharedOptionsJson(shared), gapMs: 0 });
    // Another worker's outcomes: a robots.txt unlike the server's, and sitemaps read.
    assert.equal(await state.claimRobots(server.origin), 'fetch');
    await state.settleRobots(server.origin, {
      status: 200,
      detail: null,
      url: server.url('/robots.txt'),
      body: new TextEncoder().encode('User-agent: *\nDisallow: /p/1\n'),
      gapMs: 0,
    });
    assert.equal(await state.claimSitemaps(), true);
    await state.settleSitemaps(0);
    const { summary } = await run({ join: true, state });
    const paths = server.requests.map((r) => r.path);
    assert.ok(!paths.includes('/robots.txt'), 'robots.txt is not fetched again');
    assert.ok(!paths.includes('/p/1'), 'the recorded robots.txt is obeyed');
    assert.ok(paths.includes('/private/0'), "the server's own robots.txt is not read");
    assert.equal(summary.skipped['robots-disallowed'], 1);
  } finally {
    await state.close();
    await server.close();
  }
});
