// The crawl record, and adding URLs: dedup under the normalised form, marks, redirects, refusals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FrontierItem, TakenItem } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import {
  A,
  crawlIn,
  drain,
  finished,
  HOUR,
  isCode,
  page,
  START,
  settle,
  step,
  take,
  urls,
} from './helpers.ts';

export function recordAndAdd(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('the crawl record', () => {
    it('crawl() is null until create() stores the record', async () => {
      const state = await target.open();
      try {
        assert.equal(await state.crawl(), null);
        const before = Date.now();
        const record = await state.create({ start: START, options: '{"x":1}', gapMs: 250 });
        assert.equal(typeof record.createdAt, 'number');
        // Sanity only (the store may keep its own clock): the same day.
        assert.ok(Math.abs(record.createdAt - before) < 24 * HOUR, `createdAt ${record.createdAt}`);
        assert.deepEqual(record, {
          start: START,
          options: '{"x":1}',
          gapMs: 250,
          createdAt: record.createdAt,
          sitemapsRead: false,
          sitemapUrls: 0,
          depthCut: 0,
          requested: 0,
          finishedAt: null,
        });
        assert.deepEqual(await state.crawl(), record);
      } finally {
        await state.close();
      }
    });

    it('create() keeps the first record and hands it to a later caller', async () => {
      await withCrawl(0, async (state) => {
        const first = await state.crawl();
        const again = await state.create({
          start: 'https://other.test/',
          options: '{"y":2}',
          gapMs: 9,
        });
        assert.deepEqual(again, first);
        assert.equal(again.start, START);
        assert.equal(again.gapMs, 0);
      });
    });
  });

  describe('add', () => {
    it('adds a URL once, under its normalised form, whatever became of it', async () => {
      await withCrawl(0, async (state) => {
        assert.equal(await state.add([page('https://a.test/x')]), 1);
        assert.equal(await state.add([page('https://a.test/x')]), 0);
        assert.equal(await state.add([page('HTTPS://A.test:443/y/../x#top')]), 0);
        assert.equal(await state.add([page('https://a.test/y'), page('https://a.test/y#z')]), 1);
        assert.equal(await state.add([]), 0);
        await settle(state, A, 0);
        const { taken } = await take(state, 1);
        assert.deepEqual(urls(taken), ['https://a.test/x']);
        assert.equal(await state.add([page('https://a.test/x')]), 0, 'in flight');
        await step(state, { finished: [finished(taken[0] as TakenItem)] });
        assert.equal(await state.add([page('https://a.test/x#again')]), 0, 'done');
        assert.deepEqual(await state.counts(), { queued: 1, inFlight: 0, done: 1, seen: 2 });
      });
    });

    it('a URL known again is marked linked or in a sitemap, in either order', async () => {
      await withCrawl(0, async (state) => {
        const item = (path: string, kind: 'page' | 'sitemap') =>
          page(`https://a.test/${path}`, {
            kind,
            priority: kind === 'page' ? 100 : 10,
            depth: 1,
            via: kind === 'page' ? START : 'https://a.test/sitemap.xml',
          });
        await state.add([
          item('both-1', 'sitemap'),
          item('both-2', 'page'),
          item('orphan', 'sitemap'),
          item('unlisted', 'page'),
        ]);
        assert.equal(await state.add([item('both-1', 'page'), item('both-2', 'sitemap')]), 0);
        await settle(state, A, 0);
        // Marks made while an item is in flight, and by the URLs a result led to, count too.
        const { taken } = await take(state, 1);
        assert.deepEqual(urls(taken), ['https://a.test/both-1']);
        await state.add([item('orphan', 'sitemap')]);
        await step(state, {
          finished: [finished(taken[0] as TakenItem, { discovered: [item('late', 'sitemap')] })],
        });
        await state.add([item('late', 'page')]);
        await drain(state);
        const marks = [];
        for await (const r of state.results()) marks.push([r.url.slice(15), r.linked, r.inSitemap]);
        assert.deepEqual(marks, [
          ['both-1', true, true],
          ['both-2', true, true],
          ['late', true, true],
          ['orphan', false, true],
          ['unlisted', true, false],
        ]);
      });
    });

    it('an item keeps its redirects: as added, as found by a result, after a release', async () => {
      await withCrawl(0, async (state) => {
        await state.add([
          page('https://a.test/hop-3', { redirects: 3 }),
          page('https://a.test/plain', { priority: 1 }),
        ]);
        await settle(state, A, 0);
        const first = (await take(state, 2)).taken;
        assert.deepEqual(
          first.map((item) => [item.url, item.redirects]),
          [
            ['https://a.test/hop-3', 3],
            ['https://a.test/plain', 0],
          ],
        );
        const [hop3, plain] = first as [TakenItem, TakenItem];
        // The crawler adds a redirect's target as a URL its result found, one hop further.
        const target = page('https://a.test/hop-4', { redirects: 4, via: hop3.url });
        await step(state, {
          finished: [finished(hop3, { discovered: [target] })],
          released: [{ item: plain, notBefore: null }],
        });
        const again = (await take(state, 2)).taken;
        assert.deepEqual(
          again.map((item) => [item.url, item.redirects, item.attempt]),
          [
            ['https://a.test/hop-4', 4, 1],
            ['https://a.test/plain', 0, 2],
          ],
        );
      });
    });

    it('refuses bad items, adding nothing of their batch', async () => {
      await withCrawl(0, async (state) => {
        const bad: Partial<FrontierItem>[] = [
          { origin: '' },
          { priority: Number.NaN },
          { priority: Number.POSITIVE_INFINITY },
          { depth: -1 },
          { depth: 1.5 },
          { kind: 'image' as 'page' },
          { redirects: -1 },
          { redirects: 0.5 },
          { redirects: Number.NaN },
          { url: '/relative' },
        ];
        for (const extra of bad) {
          await assert.rejects(
            state.add([page('https://a.test/good'), { ...page('https://a.test/bad'), ...extra }]),
            isCode('invalid-argument'),
            JSON.stringify(extra),
          );
        }
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 0, done: 0, seen: 0 });
        assert.equal(await state.add([page('https://a.test/good')]), 1);
      });
    });
  });
}
