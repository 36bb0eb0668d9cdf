// A database that fails under the workers: a connection lost around a COMMIT (did it happen
// or not?), and the server restarted or crashed in the middle of a crawl. The workers wait,
// reconnect and go on; nothing is lost and nothing is done twice.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import type { FinishedItem } from '../crawl-state.ts';
import { drain, finished, page, robotsOf } from '../test-support/conformance/helpers.ts';
import { openPostgresCrawlState, type PostgresCrawlState } from './postgres-crawl-state.ts';
import { startCommitCuttingProxy } from './test-support/commit-cutting-proxy.ts';

const server = await startPostgresServer();
const proxy = await startCommitCuttingProxy(server.url);
after(async () => {
  await proxy.close();
  await server.stop();
});

let crawls = 0;

/** A state through the proxy, one straight to the server, on a new crawl of `urls`. */
async function withCrawl(
  urls: string[],
  fn: (cut: PostgresCrawlState, direct: PostgresCrawlState, retries: Error[]) => Promise<void>,
): Promise<void> {
  const crawl = `failures-${++crawls}`;
  const retries: Error[] = [];
  const direct = await openPostgresCrawlState({ connection: server.url, crawl });
  const cut = await openPostgresCrawlState({
    connection: proxy.url,
    crawl,
    onRetry: (error) => retries.push(error),
  });
  try {
    await direct.create({ start: urls[0] as string, options: '{}', gapMs: 0 });
    // Redirect hops travel with the item, a retried step's answer included.
    await direct.add(urls.map((url, i) => ({ ...page(url), redirects: i % 3 })));
    for (const origin of new Set(urls.map((url) => new URL(url).origin))) {
      await direct.settleRobots(origin, robotsOf(origin, 0));
    }
    await fn(cut, direct, retries);
  } finally {
    await cut.close();
    await direct.close();
  }
}

const TEN = Array.from({ length: 10 }, (_, i) => `https://a.test/${i}`);

describe('a connection lost in a transaction', () => {
  const cases = [
    ['inside', 'in the middle of it'],
    ['before', 'before the server has its COMMIT'],
    ['after', 'after the server committed'],
  ] as const;
  for (const [when, title] of cases) {
    it(`${title}: the step's answer is what was committed, once`, async () => {
      await withCrawl(TEN, async (cut, direct, retries) => {
        // A URL this worker saw committed (sent as a count only), one it did not (known to
        // the crawl: marked and counted), one new: each found by the 3 results below.
        await cut.add([page('https://a.test/hub')]);
        const links = ['hub', '9', 'new'].map((path) => ({
          ...page(`https://a.test/${path}`),
          via: 'https://a.test/0',
        }));
        const cutsBefore = proxy.cuts;
        proxy.cutNext(when);
        const { taken } = await cut.step({ finished: [], released: [], take: 3 });
        assert.equal(proxy.cuts, cutsBefore + 1, 'the connection was cut');
        assert.ok(retries.length >= 1);
        assert.deepEqual(
          taken.map((item) => [item.url, item.attempt, item.redirects]),
          [
            ['https://a.test/0', 1, 0],
            ['https://a.test/1', 1, 1],
            ['https://a.test/2', 1, 2],
          ],
        );
        assert.deepEqual(await direct.counts(), { queued: 8, inFlight: 3, done: 0, seen: 11 });
        proxy.cutNext(when);
        const next = await cut.step({
          finished: taken.map((item) => finished(item, { discovered: links })),
          released: [],
          take: 2,
        });
        assert.equal(next.lost, 0);
        assert.equal(next.requested, 3);
        assert.deepEqual(
          next.taken.map((item) => item.url),
          ['https://a.test/3', 'https://a.test/4'],
        );
        assert.deepEqual(await direct.counts(), { queued: 7, inFlight: 2, done: 3, seen: 12 });
        assert.equal((await direct.crawl())?.requested, 3, 'counted once');
        await cut.step({
          finished: next.taken.map((item) => finished(item)),
          released: [],
          take: 0,
        });
        await drain(direct);
        const inlinks = new Map<string, number | undefined>();
        for await (const r of direct.results()) inlinks.set(r.url, r.inlinks);
        assert.deepEqual(
          ['hub', '9', 'new'].map((path) => inlinks.get(`https://a.test/${path}`)),
          [3, 3, 3],
          'each link counted once',
        );
      });
    });
  }

  it('add, claimSitemaps and claimFinish answer what they committed', async () => {
    await withCrawl(['https://a.test/'], async (cut, direct) => {
      proxy.cutNext('after');
      assert.equal(await cut.add([page('https://a.test/x'), page('https://a.test/y')]), 2);
      proxy.cutNext('after');
      assert.equal(await cut.claimSitemaps(), true);
      await cut.settleSitemaps(0);
      let done: FinishedItem[] = [];
      for (let round = 0; round < 10; round++) {
        const { taken } = await direct.step({ finished: done, released: [], take: 10 });
        done = taken.map((item) => finished(item));
      }
      proxy.cutNext('after');
      assert.equal(await cut.claimFinish(), true, 'the claim that committed is this one');
      assert.equal(await direct.claimFinish(), false);
      assert.equal(typeof (await direct.crawl())?.finishedAt, 'number');
    });
  });
});

describe('the server restarted or crashed in the middle of a crawl', () => {
  for (const how of ['restart', 'crash'] as const) {
    it(`${how}: the workers wait, reconnect and finish; every URL done once`, async () => {
      const crawl = `failures-${++crawls}`;
      const urls = ['a', 'b', 'c'].flatMap((host) =>
        Array.from({ length: 100 }, (_, i) => `https://${host}.test/${i}`),
      );
      const retries: Error[] = [];
      const states = await Promise.all(
        [0, 1].map(() =>
          openPostgresCrawlState({
            connection: server.url,
            crawl,
            onRetry: (e) => retries.push(e),
          }),
        ),
      );
      const [one] = states as [PostgresCrawlState, PostgresCrawlState];
      let outage: Promise<void> | null = null;
      try {
        await one.create({ start: urls[0] as string, options: '{}', gapMs: 0 });
        await one.add(urls.map((url) => page(url)));
        assert.equal(await one.claimSitemaps(), true);
        await one.settleSitemaps(0);
        const recorded: string[] = [];
        const work = async (state: PostgresCrawlState) => {
          let done: FinishedItem[] = [];
          for (let round = 0; round < 5000; round++) {
            const result = await state.step({ finished: done, released: [], take: 4 });
            assert.equal(result.lost, 0);
            recorded.push(...done.map((d) => d.item.url));
            for (const origin of result.robots)
              await state.settleRobots(origin, robotsOf(origin, 0));
            done = result.taken.map((item) => finished(item));
            // Part-way through, the server goes away under the running steps.
            if (outage === null && recorded.length >= 60) {
              outage = how === 'restart' ? server.restart() : crashAndRestart();
            }
            if (!result.open) return;
          }
          assert.fail('never finished');
        };
        await Promise.all(states.map(work));
        assert.ok(outage !== null);
        await outage;
        assert.ok(retries.length >= 1, 'the workers noticed');
        assert.equal(recorded.length, urls.length);
        assert.deepEqual([...recorded].sort(), [...urls].sort(), 'each recorded once');
        assert.deepEqual(await one.counts(), { queued: 0, inFlight: 0, done: 300, seen: 300 });
        const results: string[] = [];
        for await (const result of one.results()) results.push(result.url);
        assert.deepEqual(results, [...urls].sort());
        assert.equal((await one.crawl())?.requested, 300);
      } finally {
        await outage;
        await Promise.all(states.map((state) => state.close()));
      }
    });
  }
});

async function crashAndRestart(): Promise<void> {
  await server.kill();
  // Down for a moment: the workers meet refused connections, then a recovering server.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await server.restart();
}
