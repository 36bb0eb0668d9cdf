// What the conformance suite's parts share: sample items and the few moves every test makes.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { isWaymarkError } from '../../../shared/waymark-error.ts';
import type {
  CrawlResultFields,
  CrawlState,
  FinishedItem,
  FrontierItem,
  HostRobots,
  StepRequest,
  StepResult,
  TakenItem,
} from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';

export const HOUR = 3_600_000;
export const START = 'https://a.test/';
export const A = 'https://a.test';
export const B = 'https://b.test';
export const C = 'https://c.test';

export const LISTED: CrawlResultFields = {
  status: 200,
  outcome: 'listed',
  reason: null,
  lastmod: null,
  finalUrl: null,
  data: null,
};

export function page(url: string, extra: Partial<FrontierItem> = {}): FrontierItem {
  return {
    url,
    origin: new URL(url).origin,
    priority: 0,
    depth: 0,
    via: null,
    kind: 'page',
    ...extra,
  };
}

export function robotsOf(origin: string, gapMs: number): HostRobots {
  return { status: 404, detail: null, url: `${origin}/robots.txt`, body: null, gapMs };
}

export function finished(item: TakenItem, extra: Partial<FinishedItem> = {}): FinishedItem {
  return { item, result: LISTED, discovered: [], depthCut: 0, requested: true, ...extra };
}

export const urls = (items: readonly { url: string }[]) => items.map((item) => item.url);
export const sorted = (values: readonly string[]) => [...values].sort();

/** A step that only takes. */
export function take(state: CrawlState, n: number): Promise<StepResult> {
  return state.step({ finished: [], released: [], take: n });
}

/** A step of the parts given (take 0 unless given). */
export function step(state: CrawlState, request: Partial<StepRequest>): Promise<StepResult> {
  return state.step({ finished: [], released: [], take: 0, ...request });
}

/** Claims and settles robots.txt of `origin`, as the worker that fetched it. */
export async function settle(state: CrawlState, origin: string, gapMs: number): Promise<void> {
  assert.equal(await state.claimRobots(origin), 'fetch', `robots.txt of ${origin}`);
  await state.settleRobots(origin, robotsOf(origin, gapMs));
}

/** Sleeps until some host is ready (`waitMs` 0) or none waits on its turn (null). */
export async function untilReady(state: CrawlState): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const { waitMs } = await take(state, 0);
    if (waitMs === null || waitMs === 0) return;
    await sleep(waitMs + 1);
  }
  assert.fail('no host became ready in 100 waits');
}

/** Takes everything there is (gap 0), finishing each item, until nothing is queued. */
export async function drain(state: CrawlState): Promise<void> {
  let done: FinishedItem[] = [];
  for (let round = 0; round < 1000; round++) {
    const { taken } = await state.step({ finished: done, released: [], take: 100 });
    if (taken.length === 0) return;
    done = taken.map((item) => finished(item));
  }
  assert.fail('the queue did not drain');
}

/** Takes (without finishing) whatever is still queued and ready (gap 0); returns the URLs. */
export async function takeRest(state: CrawlState): Promise<string[]> {
  const rest: string[] = [];
  for (let round = 0; round < 1000; round++) {
    const { taken } = await take(state, 100);
    if (taken.length === 0) return rest;
    rest.push(...urls(taken));
  }
  assert.fail('the queue did not drain');
}

export function isCode(code: string): (error: unknown) => boolean {
  return (error) => isWaymarkError(error) && error.code === code;
}

/** Runs `fn` on a new state of `target` holding a crawl of {@link START} with gap `gapMs`. */
export type WithCrawl = (gapMs: number, fn: (state: CrawlState) => Promise<void>) => Promise<void>;

export function crawlIn(target: ConformanceTarget): WithCrawl {
  return async (gapMs, fn) => {
    const state = await target.open();
    try {
      await state.create({ start: START, options: '{}', gapMs });
      await fn(state);
    } finally {
      await state.close();
    }
  };
}
