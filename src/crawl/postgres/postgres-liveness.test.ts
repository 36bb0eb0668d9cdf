// A worker that dies or freezes gives its leases back to the others, its late results fenced
// off; each worker is taken for dead by its own workerTimeoutMs, whoever looks. Worker
// processes are real (spawned, killed, stopped).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import { openPostgresCrawlState } from './postgres-crawl-state.ts';
import {
  A,
  B,
  C,
  finished,
  firstLine,
  page,
  robotsOf,
  startWorker,
  takeBack,
  untilDead,
  workersOn,
} from './test-support/workers.ts';

const server = await startPostgresServer();
after(() => server.stop());

const withWorkers = workersOn(server.url, 'liveness');

describe('workers that die, freeze or close', () => {
  it('a killed worker: its items, robots.txt claim and sitemaps claim go to the others', async () => {
    await withWorkers(1, { workerTimeoutMs: 400 }, async (crawl, state) => {
      assert.ok(state);
      await state.add([1, 2, 3, 4].map((i) => page(`${A}/${i}`)));
      await state.settleRobots(A, robotsOf(A, 0));
      const child = startWorker(server.url, crawl, 400, 3, B);
      const claimed = await firstLine(child);
      assert.equal(claimed.taken.length, 3);
      assert.equal(claimed.sitemaps, true);
      assert.equal(claimed.robots, 'fetch');
      assert.equal(await state.claimRobots(B), 'busy');
      assert.equal(await state.claimSitemaps(), false);
      child.kill('SIGKILL');
      await once(child, 'exit');
      const back = await takeBack(state, claimed.taken);
      assert.deepEqual(
        back.map((item) => item.attempt),
        [2, 2, 2],
      );
      assert.equal(await state.claimRobots(B), 'fetch');
      assert.equal(await state.claimSitemaps(), true);
      const workers = await state.workers();
      assert.equal(workers.length, 2);
      assert.equal(workers[1]?.alive, false, 'the killed worker');
    });
  });

  it('a frozen worker loses its leases; its results when it wakes are lost, not recorded', async () => {
    await withWorkers(1, { workerTimeoutMs: 400 }, async (crawl, state) => {
      assert.ok(state);
      await state.add([1, 2, 3].map((i) => page(`${A}/${i}`)));
      await state.settleRobots(A, robotsOf(A, 0));
      const child = startWorker(server.url, crawl, 400, 3, B);
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[
        Symbol.asyncIterator
      ]();
      const claimed = JSON.parse((await lines.next()).value as string);
      child.kill('SIGSTOP');
      try {
        const back = await takeBack(state, claimed.taken);
        await state.step({ finished: back.map((item) => finished(item)), released: [], take: 0 });
      } finally {
        child.kill('SIGCONT');
      }
      child.stdin?.write('finish\n');
      assert.deepEqual(JSON.parse((await lines.next()).value as string), { lost: 3 });
      assert.deepEqual(await state.counts(), { queued: 0, inFlight: 0, done: 3, seen: 3 });
      const results = [];
      for await (const result of state.results()) results.push(result.url);
      assert.deepEqual(results, [`${A}/1`, `${A}/2`, `${A}/3`], 'no link of a lost result added');
      assert.equal((await state.crawl())?.requested, 3, 'only the recorded results count');
      // The worker does not take the links of its lost results for known (it skips sending
      // the URLs it saw committed): found again, they are added.
      child.stdin?.write('again\n');
      assert.deepEqual(JSON.parse((await lines.next()).value as string), { added: 3 });
      await once(child, 'exit');
    });
  });

  // Each worker is judged by the workerTimeoutMs it registered with, never by the one of
  // whoever looks: `waymark crawl status` opens with the default (60 s) and must still see
  // a worker of --worker-timeout 1s die; the 30 s bounds below are far inside 60 s.
  it('a worker killed with a 1 s timeout is dead to a handle of 60 s, and reaped by it', async () => {
    await withWorkers(1, {}, async (crawl, state) => {
      assert.ok(state);
      await state.add([1, 2, 3].map((i) => page(`${A}/${i}`)));
      await state.settleRobots(A, robotsOf(A, 0));
      const child = startWorker(server.url, crawl, 1000, 3, B);
      const claimed = await firstLine(child);
      assert.equal(claimed.taken.length, 3);
      child.kill('SIGKILL');
      await once(child, 'exit');
      const reader = await openPostgresCrawlState({ connection: server.url, crawl });
      try {
        const workers = await untilDead(reader, child.pid as number);
        assert.deepEqual(
          workers.map((worker) => [worker.pid, worker.alive]),
          [
            [process.pid, true],
            [child.pid, false],
          ],
        );
      } finally {
        await reader.close();
      }
      // The sweep of a worker whose own timeout is 60 s gives the items back all the same.
      const back = await takeBack(state, claimed.taken);
      assert.deepEqual(
        back.map((item) => item.attempt),
        [2, 2, 2],
      );
      assert.equal(await state.claimRobots(B), 'fetch');
    });
  });

  it('a worker with a 60 s timeout is not taken for dead by a handle of 1 s', async () => {
    await withWorkers(1, { workerTimeoutMs: 1000 }, async (crawl, state) => {
      assert.ok(state);
      await state.add([1, 2, 3, 4].map((i) => page(`${A}/${i}`)));
      await state.settleRobots(A, robotsOf(A, 0));
      const patient = startWorker(server.url, crawl, 60_000, 2, B);
      const kept = await firstLine(patient);
      const quick = startWorker(server.url, crawl, 1000, 2, C);
      const lost = await firstLine(quick);
      // Both go silent; the patient one first, so it is silent the longer of the two.
      patient.kill('SIGKILL');
      await once(patient, 'exit');
      quick.kill('SIGKILL');
      await once(quick, 'exit');
      // Once the quick one's leases are back, the patient one's are still its own.
      await takeBack(state, lost.taken);
      assert.equal(await state.claimRobots(C), 'fetch');
      assert.equal(await state.claimRobots(B), 'busy', 'claimed by a live worker');
      assert.deepEqual(await state.counts(), { queued: 0, inFlight: 4, done: 0, seen: 4 });
      const { taken } = await state.step({ finished: [], released: [], take: 10 });
      assert.deepEqual(taken, [], `${kept.taken.length} items still held by the patient one`);
      const alive = (await state.workers()).map((worker) => [worker.pid, worker.alive]);
      assert.deepEqual(alive, [
        [process.pid, true],
        [patient.pid, true],
        [quick.pid, false],
      ]);
    });
  });

  it('workers() lists the workers that changed the crawl, never the ones that only read', async () => {
    await withWorkers(2, {}, async (crawl, one, two) => {
      assert.ok(one && two);
      await one.add([page(`${A}/1`), page(`${A}/2`)]);
      await one.settleRobots(A, robotsOf(A, 0));
      const [item] = (await two.step({ finished: [], released: [], take: 1 })).taken;
      assert.ok(item);
      await two.step({ finished: [finished(item)], released: [], take: 0 });
      const reader = await openPostgresCrawlState({ connection: server.url, crawl });
      try {
        assert.equal((await reader.crawl())?.requested, 1);
        await reader.counts();
        for await (const _ of reader.results());
        const workers = await reader.workers();
        assert.equal(workers.length, 2);
        for (const worker of workers) {
          assert.equal(worker.hostname, hostname());
          assert.equal(worker.pid, process.pid);
          assert.equal(worker.alive, true);
          assert.ok(worker.seenAt >= worker.startedAt);
        }
        assert.deepEqual(
          workers.map((worker) => worker.requested),
          [0, 1],
        );
      } finally {
        await reader.close();
      }
      await two.close();
      const [first, second] = await one.workers();
      assert.equal(first?.alive, true);
      assert.equal(second?.alive, false, 'closed');
    });
  });
});
