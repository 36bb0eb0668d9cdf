// robots.txt hand-out and claims, taking items host by host, and reserve.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostRobots, TakenItem } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import {
  A,
  B,
  C,
  crawlIn,
  finished,
  HOUR,
  isCode,
  page,
  robotsOf,
  settle,
  sorted,
  step,
  take,
  takeRest,
  untilReady,
  urls,
} from './helpers.ts';

export function robotsAndTake(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('robots.txt', () => {
    it('a step hands out the robots.txt fetch of each host with queued items, once', async () => {
      await withCrawl(0, async (state) => {
        await state.add([
          page('https://a.test/1'),
          page('https://b.test/1'),
          page('https://b.test/2'),
        ]);
        // take 0 only records: nothing is handed out.
        assert.deepEqual((await take(state, 0)).robots, []);
        const first = await take(state, 5);
        assert.deepEqual(first.taken, [], 'no host without robots.txt gives items');
        assert.deepEqual(sorted(first.robots), [A, B]);
        assert.equal(first.open, true);
        assert.deepEqual((await take(state, 5)).robots, [], 'handed out once');
        assert.equal(await state.claimRobots(A), 'busy');
        await state.settleRobots(A, robotsOf(A, 0));
        const next = await take(state, 5);
        assert.deepEqual(urls(next.taken), ['https://a.test/1']);
        assert.deepEqual(next.robots, []);
        // A host that had its outcome before its first URL is never handed out.
        await settle(state, C, 0);
        await state.add([page('https://c.test/1')]);
        const third = await take(state, 5);
        assert.deepEqual(third.robots, []);
        assert.deepEqual(urls(third.taken), ['https://c.test/1']);
      });
    });

    it('claimRobots: fetch, then busy until settled, then known; robots() keeps the outcome', async () => {
      await withCrawl(0, async (state) => {
        assert.equal(await state.robots(A), null);
        assert.equal(await state.claimRobots(A), 'fetch', 'nothing of the host need be queued');
        assert.equal(await state.claimRobots(A), 'busy');
        assert.equal(await state.robots(A), null);
        const body = new TextEncoder().encode('User-agent: *\nDisallow: /private\n');
        const outcome: HostRobots = {
          status: 200,
          detail: null,
          url: 'https://a.test/robots.txt',
          body,
          gapMs: 0,
        };
        await state.settleRobots(A, outcome);
        assert.equal(await state.claimRobots(A), 'known');
        const kept = await state.robots(A);
        assert.ok(kept !== null);
        assert.deepEqual(
          { ...kept, body: [...(kept.body ?? [])] },
          { ...outcome, body: [...body] },
        );
        const failed: HostRobots = {
          status: 'network-error',
          detail: 'ECONNREFUSED',
          url: `${C}/robots.txt`,
          body: null,
          gapMs: 0,
        };
        await settle(state, B, 0);
        assert.equal(await state.claimRobots(C), 'fetch');
        await state.settleRobots(C, failed);
        assert.deepEqual(await state.robots(C), failed);
        assert.deepEqual(await state.robots(B), robotsOf(B, 0));
      });
    });

    it('settleRobots sets the gap: the host waits one new gap after its robots.txt request', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1'), page('https://b.test/1')]);
        assert.deepEqual(sorted((await take(state, 5)).robots), [A, B]);
        await state.settleRobots(A, robotsOf(A, 2 * HOUR));
        await state.settleRobots(B, robotsOf(B, 0));
        const result = await take(state, 5);
        assert.deepEqual(urls(result.taken), ['https://b.test/1']);
        assert.ok(result.waitMs !== null && result.waitMs > HOUR, `waitMs ${result.waitMs}`);
        assert.ok(result.waitMs <= 2 * HOUR);
        assert.ok((await state.reserve(A)) > HOUR);
      });
    });

    it('a robots.txt fetch, claimed or handed out, is booked as a request to its host', async () => {
      await withCrawl(2 * HOUR, async (state) => {
        await state.add([page('https://a.test/1')]);
        assert.deepEqual((await take(state, 1)).robots, [A]);
        assert.ok((await state.reserve(A)) > HOUR);
        assert.equal(await state.claimRobots(B), 'fetch');
        assert.ok((await state.reserve(B)) > HOUR);
      });
    });
  });

  describe('take', () => {
    it('a host gives its best URLs: lowest priority, then shallowest, then first added', async () => {
      await withCrawl(0, async (state) => {
        await state.add([
          page('https://a.test/p1-d2', { priority: 1, depth: 2 }),
          page('https://a.test/p0-d1-first', { depth: 1 }),
          page('https://a.test/p1-d0', { priority: 1 }),
          page('https://a.test/p0-d1-second', { depth: 1 }),
          page('https://a.test/p-1-d9', { priority: -1, depth: 9 }),
          page('https://a.test/p0.5-d0', { priority: 0.5 }),
        ]);
        await settle(state, A, 0);
        const first = await take(state, 3);
        assert.deepEqual(urls(first.taken), [
          'https://a.test/p-1-d9',
          'https://a.test/p0-d1-first',
          'https://a.test/p0-d1-second',
        ]);
        const rest = await take(state, 10);
        assert.deepEqual(urls(rest.taken), [
          'https://a.test/p0.5-d0',
          'https://a.test/p1-d0',
          'https://a.test/p1-d2',
        ]);
        assert.deepEqual((await take(state, 10)).taken, []);
      });
    });

    it('a taken item is the item as added, with an id and attempt 1', async () => {
      await withCrawl(0, async (state) => {
        const item = page('HTTPS://A.test/Up#x', {
          origin: A,
          priority: 0.25,
          depth: 3,
          via: 'https://a.test/from',
          kind: 'sitemap',
        });
        await state.add([item]);
        await settle(state, A, 0);
        const [taken] = (await take(state, 1)).taken;
        assert.ok(taken);
        assert.equal(typeof taken.id, 'number');
        assert.deepEqual(taken, { ...item, id: taken.id, attempt: 1, redirects: 0 });
      });
    });

    it('a host with gap 0 gives many items in one step, up to take', async () => {
      await withCrawl(0, async (state) => {
        await state.add([1, 2, 3, 4, 5].map((i) => page(`https://a.test/${i}`)));
        await settle(state, A, 0);
        const first = await take(state, 3);
        assert.equal(first.taken.length, 3);
        assert.equal(first.waitMs, 0, 'still ready');
        assert.equal((await take(state, 10)).taken.length, 2);
      });
    });

    it('a host with a gap gives one item per step and is booked a gap ahead', async () => {
      await withCrawl(0, async (state) => {
        for (const origin of [A, B]) {
          await state.add([1, 2, 3].map((i) => page(`${origin}/${i}`)));
          assert.equal(await state.claimRobots(origin), 'fetch');
          await state.settleRobots(origin, robotsOf(origin, 40));
        }
        // Past both hosts' turns (one gap after each robots.txt request).
        await sleep(50);
        const first = await take(state, 10);
        assert.deepEqual(sorted(urls(first.taken)), ['https://a.test/1', 'https://b.test/1']);
        assert.ok(
          first.waitMs !== null && first.waitMs > 0 && first.waitMs <= 40,
          `waitMs ${first.waitMs}`,
        );
        await untilReady(state);
        const second = await take(state, 10);
        assert.ok(second.taken.length >= 1 && second.taken.length <= 2);
        for (const origin of [A, B]) {
          assert.ok(second.taken.filter((item) => item.origin === origin).length <= 1);
        }
      });
    });

    it('ready hosts are taken in the order their turn came', async () => {
      await withCrawl(0, async (state) => {
        await state.add([page('https://a.test/1'), page('https://a.test/2')]);
        await state.add([page('https://b.test/1'), page('https://b.test/2')]);
        await settle(state, A, 0);
        await settle(state, B, 0);
        const { taken } = await take(state, 4);
        assert.equal(taken.length, 4);
        // Released with a notBefore, each host waits for it; b's turn comes first.
        const now = Date.now();
        const release = (url: string, notBefore: number) => ({
          item: taken.find((item) => item.url === url) as TakenItem,
          notBefore,
        });
        await step(state, {
          released: [
            release('https://a.test/1', now + 1200),
            release('https://b.test/1', now + 600),
          ],
          finished: taken.filter((item) => item.url.endsWith('/2')).map((item) => finished(item)),
        });
        await state.add([page('https://a.test/3'), page('https://b.test/3')]);
        const held = await take(state, 10);
        assert.deepEqual(held.taken, []);
        assert.ok(
          held.waitMs !== null && held.waitMs > 0 && held.waitMs <= 600,
          `waitMs ${held.waitMs}`,
        );
        await sleep(1300);
        const after = await take(state, 10);
        assert.deepEqual(urls(after.taken), [
          'https://b.test/1',
          'https://b.test/3',
          'https://a.test/1',
          'https://a.test/3',
        ]);
        assert.deepEqual(
          after.taken.map((item) => item.attempt),
          [2, 1, 2, 1],
        );
      });
    });

    it('concurrent steps never take one item twice', async () => {
      await withCrawl(0, async (state) => {
        const all = [A, B, C].flatMap((origin) => [1, 2, 3, 4].map((i) => `${origin}/${i}`));
        await state.add(all.map((url) => page(url)));
        for (const origin of [A, B, C]) await settle(state, origin, 0);
        const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => take(state, 3)));
        // A step may pass over a host another step holds (SKIP LOCKED): what it left is
        // taken after; nothing twice.
        const taken = [
          ...results.flatMap((result) => urls(result.taken)),
          ...(await takeRest(state)),
        ];
        assert.deepEqual(sorted(taken), sorted(all));
        assert.deepEqual(await state.counts(), { queued: 0, inFlight: 12, done: 0, seen: 12 });
      });
    });

    it('take must be a non-negative integer', async () => {
      await withCrawl(0, async (state) => {
        for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
          await assert.rejects(take(state, n), isCode('invalid-argument'), String(n));
        }
      });
    });
  });

  describe('reserve', () => {
    it('books a request outside the queue: 0 when it may start, else the wait', async () => {
      await withCrawl(2 * HOUR, async (state) => {
        assert.equal(await state.reserve(A), 0, 'a host never requested is ready');
        const wait = await state.reserve(A);
        assert.ok(wait > HOUR && wait <= 2 * HOUR, `wait ${wait}`);
        assert.ok((await state.reserve(A)) <= wait, 'asking again books nothing');
        assert.equal(await state.reserve(B), 0, 'hosts are apart');
      });
      await withCrawl(0, async (state) => {
        assert.equal(await state.reserve(A), 0);
        assert.equal(await state.reserve(A), 0, 'gap 0');
      });
    });
  });
}
