// open, waitMs, the sitemaps and finish claims, counts, results and close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlResultFields, TakenItem } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import {
  A,
  B,
  crawlIn,
  finished,
  HOUR,
  isCode,
  LISTED,
  page,
  robotsOf,
  START,
  settle,
  sorted,
  step,
  take,
  urls,
} from './helpers.ts';

export function claimsAndCounts(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('open, waitMs and claims', () => {
    it('open until nothing is queued or in flight, no robots.txt is fetched and the sitemaps are settled', async () => {
      await withCrawl(0, async (state) => {
        assert.equal((await take(state, 0)).open, true, 'the sitemaps are not settled');
        assert.equal(await state.claimSitemaps(), true);
        assert.equal((await take(state, 0)).open, true, 'the sitemaps are being read');
        await state.settleSitemaps(0);
        assert.equal((await take(state, 1)).open, false);
        assert.equal(await state.claimRobots(A), 'fetch');
        assert.equal((await take(state, 1)).open, true, 'a robots.txt is being fetched');
        await state.settleRobots(A, robotsOf(A, 0));
        assert.equal((await take(state, 1)).open, false);
        await state.add([page('https://a.test/1')]);
        const { taken, open } = await take(state, 1);
        assert.equal(open, true, 'in flight');
        const last = await step(state, { finished: [finished(taken[0] as TakenItem)], take: 1 });
        assert.equal(last.open, false);
        assert.equal(last.waitMs, null);
      });
    });

    it('sitemaps are claimed once, then read or given up', async () => {
      await withCrawl(0, async (state) => {
        assert.equal(await state.claimSitemaps(), true);
        assert.equal(await state.claimSitemaps(), false, 'being read');
        await state.settleSitemaps(120);
        assert.equal(await state.claimSitemaps(), false, 'read');
        const record = await state.crawl();
        assert.equal(record?.sitemapsRead, true);
        assert.equal(record?.sitemapUrls, 120);
      });
      await withCrawl(0, async (state) => {
        assert.equal(await state.claimSitemaps(), true);
        await state.settleSitemaps(null);
        assert.equal((await take(state, 1)).open, false, 'given up: no longer keeps it open');
        assert.equal(await state.claimSitemaps(), false, 'not again by the one that gave up');
        const record = await state.crawl();
        assert.equal(record?.sitemapsRead, false);
        assert.equal(record?.sitemapUrls, 0);
      });
    });

    it('claimFinish: only when finished, once, and it sets finishedAt', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1')]);
        assert.equal(await state.claimFinish(), false, 'queued');
        await settle(state, A, 0);
        await state.claimSitemaps();
        await state.settleSitemaps(0);
        const { taken } = await take(state, 1);
        assert.equal(await state.claimFinish(), false, 'in flight');
        await step(state, { finished: taken.map((item) => finished(item)) });
        assert.equal((await state.crawl())?.finishedAt, null);
        assert.equal(await state.claimFinish(), true);
        assert.equal(await state.claimFinish(), false, 'once');
        const { finishedAt, createdAt } = (await state.crawl()) ?? assert.fail('no record');
        assert.equal(typeof finishedAt, 'number');
        assert.ok((finishedAt as number) >= createdAt);
      });
    });

    it('claimFinish(stopped): items still queued do not keep a crawl stopped at its limit open', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1'), page('https://a.test/2')]);
        await settle(state, A, 0);
        assert.equal(await state.claimFinish(true), false, 'the sitemaps are not settled');
        await state.claimSitemaps();
        await state.settleSitemaps(0);
        const { taken } = await take(state, 1);
        assert.equal(await state.claimFinish(true), false, 'in flight');
        await step(state, { finished: taken.map((item) => finished(item)) });
        assert.equal(await state.claimRobots(B), 'fetch');
        assert.equal(await state.claimFinish(true), false, 'a robots.txt is being fetched');
        await state.settleRobots(B, robotsOf(B, 0));
        assert.equal(await state.claimFinish(), false, 'a/2 is queued');
        assert.equal(await state.claimFinish(true), true);
        assert.equal(await state.claimFinish(true), false, 'once');
        assert.equal((await state.counts()).queued, 1);
        assert.equal(typeof (await state.crawl())?.finishedAt, 'number');
      });
    });

    it('waitMs: null when no queued item waits on a host, 0 when one is ready', async () => {
      await withCrawl(0, async (state) => {
        assert.equal((await take(state, 1)).waitMs, null, 'nothing queued');
        await state.add([page('https://a.test/1'), page('https://a.test/2')]);
        assert.equal((await take(state, 1)).waitMs, null, 'waiting on robots.txt, not on a turn');
        await state.settleRobots(A, robotsOf(A, 0));
        const first = await take(state, 1);
        assert.equal(first.taken.length, 1);
        assert.equal(first.waitMs, 0);
        const second = await take(state, 1);
        assert.equal(second.taken.length, 1);
        assert.equal(second.waitMs, null, 'nothing left queued');
      });
    });
  });

  describe('counts and results', () => {
    it('counts: seen = queued + inFlight + done, held items counted as queued', async () => {
      await withCrawl(0, async (state) => {
        await state.add([1, 2, 3, 4].map((i) => page(`https://a.test/${i}`)));
        await settle(state, A, 0);
        const { taken } = await take(state, 3);
        const [one, two] = taken;
        assert.ok(one && two);
        await step(state, {
          finished: [finished(one, { discovered: [page('https://a.test/5')] })],
          released: [{ item: two, notBefore: Date.now() + HOUR }],
        });
        assert.deepEqual(await state.counts(), { queued: 3, inFlight: 1, done: 1, seen: 5 });
      });
    });

    it('results: every recorded result, in the order of the normalised URLs', async () => {
      await withCrawl(0, async (state) => {
        // Byte order (what JavaScript's sort does), whatever the store's collation.
        const all = [
          'https://a.test/b',
          'https://a.test/B',
          'https://a.test/a-z',
          'https://a.test/a_z',
          'https://a.test/a.z',
          'https://a.test/%C3%A9',
          'https://a.test/z',
          'https://a.test/',
          'https://a.test/A/b',
        ];
        await state.add(all.map((url) => page(url)));
        await state.add([page('https://a.test/queued', { priority: 9 })]);
        await settle(state, A, 0);
        const { taken } = await take(state, all.length);
        assert.deepEqual(sorted(urls(taken)), sorted(all));
        const skippedFields: CrawlResultFields = {
          ...LISTED,
          outcome: 'error',
          reason: 'timeout',
          status: null,
        };
        await step(state, {
          finished: taken.map((item) => finished(item, { result: skippedFields })),
        });
        const listed: string[] = [];
        for await (const r of state.results()) {
          listed.push(r.url);
          assert.equal(r.reason, 'timeout');
        }
        assert.deepEqual(listed, sorted(all));
        // A second reading is the same, and one may be read while another is under way.
        const outer: string[] = [];
        for await (const r of state.results()) {
          outer.push(r.url);
          if (outer.length === 1) {
            const inner: string[] = [];
            for await (const s of state.results()) inner.push(s.url);
            assert.deepEqual(inner, listed);
          }
        }
        assert.deepEqual(outer, listed);
      });
    });
  });

  describe('close', () => {
    it('is idempotent; a closed state refuses calls', async () => {
      const state = await target.open();
      await state.create({ start: START, options: '{}', gapMs: 0 });
      await state.close();
      await state.close();
      await assert.rejects(state.add([page('https://a.test/1')]), isCode('usage'));
      await assert.rejects(take(state, 1), isCode('usage'));
    });
  });
}
