// What two handles on one crawl share (run only where the target has `second`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlState, TakenItem } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import {
  A,
  B,
  C,
  crawlIn,
  finished,
  HOUR,
  page,
  robotsOf,
  settle,
  sorted,
  step,
  take,
  takeRest,
  urls,
} from './helpers.ts';

export function twoWorkers(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('two workers', { skip: target.second === undefined && 'one process only' }, () => {
    async function withTwo(fn: (one: CrawlState, two: CrawlState) => Promise<void>) {
      await withCrawl(0, async (one) => {
        const two = await (target.second as NonNullable<ConformanceTarget['second']>)(one);
        try {
          await fn(one, two);
        } finally {
          await two.close();
        }
      });
    }

    it('share the record, the queue, robots.txt, bookings, holds and claims', async () => {
      await withTwo(async (one, two) => {
        assert.deepEqual(await two.crawl(), await one.crawl());
        await one.add([page('https://a.test/1'), page('https://a.test/2')]);
        assert.equal(await two.add([page('https://a.test/1')]), 0);
        assert.deepEqual((await take(one, 5)).robots, [A]);
        assert.deepEqual((await take(two, 5)).robots, [], 'handed out once for all');
        assert.equal(await two.claimRobots(A), 'busy');
        await one.settleRobots(A, robotsOf(A, 0));
        assert.equal(await two.claimRobots(A), 'known');
        assert.deepEqual(await two.robots(A), robotsOf(A, 0));
        const [item] = (await take(two, 1)).taken;
        assert.ok(item);
        await step(two, { released: [{ item, notBefore: Date.now() + 2 * HOUR }] });
        const held = await take(one, 5);
        assert.deepEqual(held.taken, [], 'a Retry-After holds the host for every worker');
        assert.ok(held.waitMs !== null && held.waitMs > HOUR);
        assert.equal(await one.reserve(B), 0);
        assert.equal(await two.reserve(B), 0, 'gap 0');
        assert.equal(await one.claimSitemaps(), true);
        assert.equal(await two.claimSitemaps(), false);
        await one.settleSitemaps(7);
        assert.equal((await two.crawl())?.sitemapUrls, 7);
        assert.deepEqual(await two.counts(), await one.counts());
      });
    });

    it('concurrent steps of two workers never take one item twice', async () => {
      await withTwo(async (one, two) => {
        const all = [A, B, C].flatMap((origin) => [1, 2, 3, 4].map((i) => `${origin}/${i}`));
        await one.add(all.map((url) => page(url)));
        for (const origin of [A, B, C]) await settle(one, origin, 0);
        const results = await Promise.all(
          [one, two, one, two, one, two].map((state) => take(state, 3)),
        );
        const taken = [
          ...results.flatMap((result) => urls(result.taken)),
          ...(await takeRest(one)),
        ];
        assert.deepEqual(sorted(taken), sorted(all));
        assert.equal(await one.claimFinish(), false);
        assert.equal(await two.claimFinish(), false);
      });
    });

    it("maxRequested counts every worker's recorded pages", async () => {
      await withTwo(async (one, two) => {
        await one.add([1, 2, 3, 4].map((i) => page(`https://a.test/${i}`)));
        await settle(one, A, 0);
        const { taken } = await take(one, 2);
        await step(one, { finished: taken.map((item) => finished(item)) });
        const next = await step(two, { take: 5, maxRequested: 3 });
        assert.deepEqual([next.requested, next.taken.length], [2, 1]);
      });
    });

    it("close puts the worker's items in flight back for the other; finish is claimed once", async () => {
      await withTwo(async (one, two) => {
        await one.add([page('https://a.test/1')]);
        await settle(one, A, 0);
        await one.claimSitemaps();
        await one.settleSitemaps(0);
        const [item] = (await take(two, 1)).taken;
        assert.ok(item);
        await two.close();
        assert.deepEqual(await one.counts(), { queued: 1, inFlight: 0, done: 0, seen: 1 });
        const [again] = (await take(one, 1)).taken;
        assert.equal(again?.id, item.id);
        assert.equal(again?.attempt, 2);
        const late = await step(one, { finished: [finished(item)] });
        assert.equal(late.lost, 1, "the closed worker's attempt is fenced off");
        await step(one, { finished: [finished(again as TakenItem)] });
        const three = await (target.second as NonNullable<ConformanceTarget['second']>)(one);
        try {
          const claims = await Promise.all([one.claimFinish(), three.claimFinish()]);
          assert.deepEqual(sorted(claims.map(String)), ['false', 'true']);
        } finally {
          await three.close();
        }
      });
    });
  });
}
