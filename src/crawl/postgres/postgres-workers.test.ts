// Many workers on one PostgreSQL crawl: each URL is taken by one of them, and politeness and
// robots.txt are shared. (A worker that dies or freezes: postgres-liveness.test.ts.)
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import type { FinishedItem } from '../crawl-state.ts';
import type { PostgresCrawlState } from './postgres-crawl-state.ts';
import { A, B, finished, HOUR, page, robotsOf, workersOn } from './test-support/workers.ts';

const server = await startPostgresServer();
const admin = postgres(server.url, { max: 1, onnotice: () => {} });
after(async () => {
  await admin.end();
  await server.stop();
});

const withWorkers = workersOn(server.url, 'workers');

describe('workers on one PostgreSQL crawl', () => {
  it('one URL stepped for by two workers at once is taken by one of them', async () => {
    await withWorkers(2, {}, async (_, one, two) => {
      assert.ok(one && two);
      for (let round = 0; round < 20; round++) {
        const url = `${A}/race-${round}`;
        await one.add([page(url)]);
        if (round === 0) await one.settleRobots(A, robotsOf(A, 0));
        const [a, b] = await Promise.all(
          [one, two].map((state) => state.step({ finished: [], released: [], take: 1 })),
        );
        const taken = [...(a?.taken ?? []), ...(b?.taken ?? [])];
        assert.deepEqual(
          taken.map((item) => item.url),
          [url],
          `round ${round}`,
        );
        await one.step({ finished: [], released: [], take: 0 });
      }
    });
  });

  it('4 workers stepping at once through 2,000 URLs on 20 hosts take each URL once', async () => {
    await withWorkers(4, {}, async (_, ...states) => {
      const origins = Array.from({ length: 20 }, (__, h) => `https://h${h}.test`);
      const all = origins.flatMap((origin) =>
        Array.from({ length: 100 }, (__, i) => `${origin}/${i}`),
      );
      await states[0]?.add(all.map((url) => page(url)));
      assert.equal(await states[0]?.claimSitemaps(), true);
      await states[0]?.settleSitemaps(0);
      const takenBy = new Map<string, number>();
      const robotsBy: string[] = [];
      const work = async (state: PostgresCrawlState, n: number) => {
        let done: FinishedItem[] = [];
        for (let round = 0; round < 2000; round++) {
          const result = await state.step({ finished: done, released: [], take: 25 });
          assert.equal(result.lost, 0);
          for (const origin of result.robots) {
            robotsBy.push(origin);
            await state.settleRobots(origin, robotsOf(origin, 0));
          }
          for (const item of result.taken) {
            assert.equal(takenBy.get(item.url), undefined, `${item.url} taken twice`);
            takenBy.set(item.url, n);
          }
          done = result.taken.map((item) => finished(item));
          if (!result.open) return;
          if (result.taken.length === 0 && result.robots.length === 0) await sleep(5);
        }
        assert.fail('never finished');
      };
      await Promise.all(states.map((state, n) => work(state, n)));
      assert.equal(takenBy.size, all.length);
      assert.deepEqual(
        [...robotsBy].sort(),
        [...origins].sort(),
        'each robots.txt handed out once',
      );
      assert.ok(new Set(takenBy.values()).size > 1, 'the work was shared');
      assert.deepEqual(await states[1]?.counts(), {
        queued: 0,
        inFlight: 0,
        done: 2000,
        seen: 2000,
      });
      let results = 0;
      for await (const _result of (states[2] as PostgresCrawlState).results()) results++;
      assert.equal(results, 2000);
      assert.equal((await states[3]?.crawl())?.requested, 2000);
    });
  });

  it('a host booked by one worker is not ready for the other; robots.txt claims are shared', async () => {
    await withWorkers(2, { gapMs: 2 * HOUR }, async (crawl, one, two) => {
      assert.ok(one && two);
      await one.add([page(`${A}/1`), page(`${A}/2`)]);
      assert.equal(await one.claimRobots(A), 'fetch');
      assert.equal(await two.claimRobots(A), 'busy', 'being fetched by a live worker');
      await one.settleRobots(A, robotsOf(A, 2 * HOUR));
      assert.equal(await two.claimRobots(A), 'known');
      // Its turn comes now (rather than in two hours): then one takes and books it.
      await admin.unsafe(
        'UPDATE waymark.hosts SET next_at = 0 WHERE origin = $1 AND crawl = (SELECT id FROM waymark.crawls WHERE name = $2)',
        [A, crawl],
      );
      const first = await one.step({ finished: [], released: [], take: 5 });
      assert.deepEqual(
        first.taken.map((item) => item.url),
        [`${A}/1`],
      );
      const second = await two.step({ finished: [], released: [], take: 5 });
      assert.deepEqual(second.taken, []);
      assert.ok(second.waitMs !== null && second.waitMs > HOUR, `waitMs ${second.waitMs}`);
      assert.ok((await two.reserve(A)) > HOUR);
      assert.equal(await one.reserve(B), 0);
      assert.ok((await two.reserve(B)) > HOUR, 'the crawl gap books hosts for every worker');
    });
  });
});
