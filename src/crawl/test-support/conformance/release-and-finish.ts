// Releases (with and without notBefore), finished items (the attempt fence, lost), maxRequested.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TakenItem } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import {
  A,
  B,
  C,
  crawlIn,
  finished,
  HOUR,
  isCode,
  LISTED,
  page,
  START,
  settle,
  step,
  take,
  untilReady,
  urls,
} from './helpers.ts';

export function releaseAndFinish(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('release', () => {
    it('without notBefore, the item is queued again at its place, attempt + 1', async () => {
      await withCrawl(0, async (state) => {
        await state.add(['/1', '/2', '/3'].map((path) => page(`https://a.test${path}`)));
        await settle(state, A, 0);
        const { taken } = await take(state, 2);
        const [one, two] = taken;
        assert.ok(one && two);
        const result = await step(state, { released: [{ item: one, notBefore: null }], take: 5 });
        assert.deepEqual(urls(result.taken), ['https://a.test/1', 'https://a.test/3']);
        assert.equal(result.taken[0]?.attempt, 2);
        assert.equal(result.taken[0]?.id, one.id);
        assert.equal(result.taken[1]?.attempt, 1);
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 3, done: 0, seen: 3 });
      });
    });

    it('with notBefore, the item and its host are held until then, then ready again', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1'), page('https://b.test/1')]);
        for (const origin of [A, B, C]) await settle(state, origin, 0);
        const { taken } = await take(state, 10);
        const one = taken.find((item) => item.origin === A);
        const b = taken.find((item) => item.origin === B);
        assert.ok(one && b);
        await state.add([page('https://a.test/2'), page('https://c.test/1')]);
        const result = await step(state, {
          released: [
            { item: one, notBefore: Date.now() + 2 * HOUR },
            { item: b, notBefore: Date.now() + 300 },
          ],
          take: 10,
        });
        assert.deepEqual(urls(result.taken), ['https://c.test/1'], 'a and b are held');
        assert.ok(result.waitMs !== null && result.waitMs > 0 && result.waitMs <= 300);
        assert.deepEqual(await state.counts(), { queued: 3, inFlight: 1, done: 0, seen: 4 });
        assert.ok((await state.reserve(A)) > HOUR, 'Retry-After holds the host for every request');
        await untilReady(state);
        const again = await take(state, 10);
        assert.deepEqual(urls(again.taken), ['https://b.test/1']);
        assert.equal(again.taken[0]?.attempt, 2);
        const later = await take(state, 10);
        assert.deepEqual(later.taken, []);
        assert.ok(later.waitMs !== null && later.waitMs > HOUR, 'a still holds both its items');
      });
    });

    it('a notBefore already past queues the item at once', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1')]);
        await settle(state, A, 0);
        const [one] = (await take(state, 1)).taken;
        assert.ok(one);
        const result = await step(state, {
          released: [{ item: one, notBefore: Date.now() - HOUR }],
          take: 1,
        });
        assert.deepEqual(urls(result.taken), ['https://a.test/1']);
      });
    });
  });

  describe('finished items', () => {
    it('are recorded with the URLs they led to; requested and depthCut add up', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page(START, { priority: 1 }), page('https://a.test/robots-only')]);
        await settle(state, A, 0);
        const { taken } = await take(state, 2);
        const [robotsOnly, home] = taken;
        assert.ok(home && robotsOnly);
        const links = [
          page('https://a.test/a', { depth: 1, via: START }),
          page(START, { depth: 1, via: START }),
          page('https://b.test/b', { depth: 1, via: START, kind: 'sitemap' }),
        ];
        const result = await step(state, {
          finished: [
            finished(home, {
              result: { ...LISTED, lastmod: '2024-05-01', data: '{"images":1}' },
              discovered: links,
              depthCut: 3,
            }),
            finished(robotsOnly, {
              result: {
                ...LISTED,
                status: null,
                outcome: 'skipped',
                reason: 'robots-disallowed',
              },
              depthCut: 1,
              requested: false,
            }),
          ],
        });
        assert.equal(result.lost, 0);
        assert.equal(result.requested, 1);
        assert.deepEqual(await state.counts(), { queued: 2, inFlight: 0, done: 2, seen: 4 });
        const record = await state.crawl();
        assert.equal(record?.requested, 1);
        assert.equal(record?.depthCut, 4);
        const results = [];
        for await (const r of state.results()) results.push(r);
        assert.deepEqual(results, [
          {
            url: START,
            kind: 'page',
            depth: 0,
            via: null,
            status: 200,
            outcome: 'listed',
            reason: null,
            lastmod: '2024-05-01',
            finalUrl: null,
            data: '{"images":1}',
            linked: true,
            inSitemap: false,
            // Added as a seed (no link), then linked from itself.
            facts: null,
            inlinks: 1,
            sitemaps: 0,
            sitemapLastmod: null,
          },
          {
            url: 'https://a.test/robots-only',
            kind: 'page',
            depth: 0,
            via: null,
            status: null,
            outcome: 'skipped',
            reason: 'robots-disallowed',
            lastmod: null,
            finalUrl: null,
            data: null,
            linked: true,
            inSitemap: false,
            facts: null,
            inlinks: 0,
            sitemaps: 0,
            sitemapLastmod: null,
          },
        ]);
        // The links are queued: b.test's robots.txt is wanted now.
        assert.deepEqual((await take(state, 5)).robots, [B]);
      });
    });

    it('from a stale attempt are lost: not recorded, nothing they led to added', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1')]);
        await settle(state, A, 0);
        const [stale] = (await take(state, 1)).taken;
        assert.ok(stale);
        const [current] = (
          await step(state, { released: [{ item: stale, notBefore: null }], take: 1 })
        ).taken;
        assert.equal(current?.attempt, 2);
        const late = await step(state, {
          finished: [finished(stale, { discovered: [page('https://a.test/late')], depthCut: 5 })],
        });
        assert.equal(late.lost, 1);
        assert.equal(late.requested, 0);
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 1, done: 0, seen: 1 });
        // A release from a stale attempt changes nothing either.
        await step(state, { released: [{ item: stale, notBefore: null }] });
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 1, done: 0, seen: 1 });
        const done = await step(state, { finished: [finished(current as TakenItem)] });
        assert.equal(done.lost, 0);
        assert.equal(done.requested, 1);
        // Finished twice: the second is lost.
        const twice = await step(state, { finished: [finished(current as TakenItem)] });
        assert.equal(twice.lost, 1);
        assert.equal(twice.requested, 1);
        const record = await state.crawl();
        assert.equal(record?.depthCut, 0);
        assert.equal(record?.requested, 1);
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 0, done: 1, seen: 1 });
        assert.equal(await state.add([page('https://a.test/late')]), 1, 'was never added');
      });
    });

    it('a bad URL among those found refuses the whole step', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1'), page('https://a.test/2')]);
        await settle(state, A, 0);
        const [one] = (await take(state, 1)).taken;
        assert.ok(one);
        await assert.rejects(
          state.step({
            finished: [
              finished(one, {
                discovered: [page('https://a.test/ok'), { ...page(START), url: 'not a url' }],
              }),
            ],
            released: [],
            take: 1,
          }),
          isCode('invalid-argument'),
        );
        assert.deepEqual(await state.counts(), { queued: 1, inFlight: 1, done: 0, seen: 2 });
        assert.equal(await state.add([page('https://a.test/ok')]), 1, 'was not added');
      });
    });

    it('maxRequested caps a take at the limit less the pages recorded, this step included', async () => {
      await withCrawl(0, async (state) => {
        await state.add([1, 2, 3, 4, 5, 6].map((i) => page(`https://a.test/${i}`)));
        await settle(state, A, 0);
        const first = await step(state, { take: 2, maxRequested: 10 });
        assert.equal(first.taken.length, 2);
        // The two recorded here count: 3 - 2 leaves room for one.
        const second = await step(state, {
          finished: first.taken.map((item) => finished(item)),
          take: 10,
          maxRequested: 3,
        });
        assert.equal(second.requested, 2);
        assert.equal(second.taken.length, 1);
        // A result not requested does not count; at the limit, or past it, nothing is taken.
        const third = await step(state, {
          finished: [finished(second.taken[0] as TakenItem, { requested: false })],
          take: 10,
          maxRequested: 2,
        });
        assert.deepEqual([third.requested, third.taken.length], [2, 0]);
        assert.equal((await step(state, { take: 10, maxRequested: -5 })).taken.length, 0);
        assert.equal((await step(state, { take: 10, maxRequested: 2.9 })).taken.length, 0);
        await assert.rejects(
          step(state, { take: 10, maxRequested: Number.NaN }),
          isCode('invalid-argument'),
        );
        const rest = await step(state, { take: 10 });
        assert.equal(rest.taken.length, 3, 'omitted: no limit');
      });
    });
  });
}
