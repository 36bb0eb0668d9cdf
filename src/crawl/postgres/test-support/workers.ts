// What the tests of many workers on one PostgreSQL crawl share: sample items, handles on a new
// crawl, and worker processes of their own (see worker-child.ts) to kill or stop.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { TakenItem } from '../../crawl-state.ts';
import {
  type CrawlWorker,
  openPostgresCrawlState,
  type PostgresCrawlState,
} from '../postgres-crawl-state.ts';

export const HOUR = 3_600_000;
export const A = 'https://a.test';
export const B = 'https://b.test';
export const C = 'https://c.test';

export { finished, page, robotsOf } from '../../test-support/conformance/helpers.ts';

/** Runs `fn` with `n` handles (workers) on one new crawl; all closed afterwards. */
export type WithWorkers = (
  n: number,
  options: { gapMs?: number; workerTimeoutMs?: number },
  fn: (crawl: string, ...states: PostgresCrawlState[]) => Promise<void>,
) => Promise<void>;

/** {@link WithWorkers} on the server at `connection`, crawls named `<prefix>-<n>`. */
export function workersOn(connection: string, prefix: string): WithWorkers {
  let crawls = 0;
  return async (n, options, fn) => {
    const crawl = `${prefix}-${++crawls}`;
    const states: PostgresCrawlState[] = [];
    try {
      for (let i = 0; i < n; i++) {
        const { workerTimeoutMs } = options;
        states.push(
          await openPostgresCrawlState({
            connection,
            crawl,
            ...(workerTimeoutMs === undefined ? {} : { workerTimeoutMs }),
          }),
        );
      }
      await states[0]?.create({ start: `${A}/`, options: '{}', gapMs: options.gapMs ?? 0 });
      await fn(crawl, ...states);
    } finally {
      await Promise.all(states.map((state) => state.close()));
    }
  };
}

const CHILD = fileURLToPath(new URL('./worker-child.ts', import.meta.url));

/** A worker process on `crawl` that takes `take` items and claims what worker-child.ts says. */
export function startWorker(
  connection: string,
  crawl: string,
  workerTimeoutMs: number,
  take: number,
  robotsOrigin: string,
): ChildProcess {
  const args = [CHILD, connection, crawl, String(workerTimeoutMs), String(take), robotsOrigin];
  return spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** What a worker process claimed (its first line). */
export interface Claimed {
  taken: number[];
  sitemaps: boolean;
  robots: string;
}

export async function firstLine(child: ChildProcess): Promise<Claimed> {
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    return JSON.parse(line) as Claimed;
  }
  throw new Error('the worker ended before it claimed anything');
}

/** Steps until the items `ids` (another worker's) are taken again; at most 30 s. */
export async function takeBack(state: PostgresCrawlState, ids: number[]): Promise<TakenItem[]> {
  const back: TakenItem[] = [];
  for (let round = 0; round < 300 && back.length < ids.length; round++) {
    const { taken } = await state.step({ finished: [], released: [], take: 10 });
    back.push(...taken.filter((item) => ids.includes(item.id)));
    const others = taken.filter((item) => !ids.includes(item.id));
    if (others.length > 0)
      await state.step({
        finished: [],
        released: others.map((item) => ({ item, notBefore: null })),
        take: 0,
      });
    if (back.length < ids.length) await sleep(100);
  }
  assert.deepEqual(back.map((item) => item.id).sort(), [...ids].sort());
  return back;
}

/** Asks `state.workers()` until the worker `pid` is reported dead; at most 30 s. */
export async function untilDead(state: PostgresCrawlState, pid: number): Promise<CrawlWorker[]> {
  for (let round = 0; round < 300; round++) {
    const workers = [...(await state.workers())];
    if (workers.some((worker) => worker.pid === pid && !worker.alive)) return workers;
    await sleep(100);
  }
  assert.fail(`worker ${pid} still reported alive after 30 s`);
}
