// The frontier benchmark's data and measurements: URLs spread over many hosts, filled into a
// crawl state in batches, and worker steps timed one by one.

import type {
  CrawlState,
  FinishedItem,
  FrontierItem,
  HostRobots,
  TakenItem,
} from '../../src/crawl/index.ts';
import { LISTED } from '../../src/crawl/test-support/conformance/helpers.ts';
import { seededRandom } from '../../src/test-support/seeded-random.ts';

const ADD_BATCH = 1_000;

export function hostOrigin(host: number): string {
  return `https://www.example-host-${host}.com`;
}

/**
 * The `index`-th URL: hosts in turn (index mod `hosts`), so every host's queue grows alike;
 * paths of about 80 bytes and a referring page of the same length, as a crawl finds them;
 * priority 0-3 and depth 0-9 from a seeded generator, so each host's queue has an order.
 */
export function urlAt(index: number, hosts: number, random: () => number): FrontierItem {
  const origin = hostOrigin(index % hosts);
  const section = `category-${index % 23}/subcategory-${index % 7}`;
  return {
    url: `${origin}/${section}/some-article-title-${index}`,
    origin,
    priority: Math.floor(random() * 4),
    depth: Math.floor(random() * 10),
    via: `${origin}/${section}/index-page-${Math.floor(index / 97)}`,
    kind: 'page',
  };
}

/** Adds URLs `from` to `to` (exclusive) in batches; returns the milliseconds it took. */
export async function fill(
  state: CrawlState,
  from: number,
  to: number,
  hosts: number,
): Promise<number> {
  const random = seededRandom(from + 1);
  const began = performance.now();
  for (let start = from; start < to; start += ADD_BATCH) {
    const end = Math.min(to, start + ADD_BATCH);
    const batch = Array.from({ length: end - start }, (_, i) => urlAt(start + i, hosts, random));
    const added = await state.add(batch);
    if (added !== batch.length) throw new Error(`added ${added} of ${batch.length} new URLs`);
  }
  return performance.now() - began;
}

/** Claims and settles every host's robots.txt: found missing (404), no gap between requests. */
export async function settleRobots(state: CrawlState, hosts: number): Promise<void> {
  for (let host = 0; host < hosts; host++) {
    const origin = hostOrigin(host);
    const claim = await state.claimRobots(origin);
    if (claim !== 'fetch') throw new Error(`robots.txt of ${origin}: ${claim}`);
    const robots: HostRobots = {
      status: 404,
      detail: null,
      url: `${origin}/robots.txt`,
      body: null,
      gapMs: 0,
    };
    await state.settleRobots(origin, robots);
  }
}

/** What {@link timeSteps} measured. */
export interface StepTimes {
  readonly steps: number;
  readonly claimed: number;
  /** Each step's duration, ms, sorted. */
  readonly latencies: readonly number[];
  readonly totalMs: number;
}

/** What a step's crawled items link to: `links` each, picked among `known` URLs. */
export interface FoundLinks {
  readonly links: number;
  /** URLs 0 to known - 1 are in the state. */
  readonly known: number;
  readonly hosts: number;
  readonly random: () => number;
}

function finished(item: TakenItem, found: FoundLinks): FinishedItem {
  const discovered = Array.from({ length: found.links }, () =>
    urlAt(Math.floor(found.random() * found.known), found.hosts, found.random),
  );
  return {
    item,
    result: LISTED,
    discovered,
    depthCut: 0,
    requested: true,
  };
}

/**
 * `steps` worker steps, one after the other, as a crawler makes them: each records the
 * previous step's items as crawled, with the links each had (URLs already known, as most
 * links of a crawl are: found again, marked, nothing new queued), and takes `take` more. The
 * last items are recorded afterwards, untimed.
 */
export async function timeSteps(
  state: CrawlState,
  steps: number,
  take: number,
  found: FoundLinks,
): Promise<StepTimes> {
  const latencies: number[] = [];
  let previous: readonly TakenItem[] = [];
  let claimed = 0;
  for (let i = 0; i < steps; i++) {
    const began = performance.now();
    const record = previous.map((item) => finished(item, found));
    const step = await state.step({ finished: record, released: [], take });
    latencies.push(performance.now() - began);
    if (step.taken.length === 0) throw new Error(`step ${i + 1} took nothing (queue empty?)`);
    claimed += step.taken.length;
    previous = step.taken;
  }
  const record = previous.map((item) => finished(item, found));
  await state.step({ finished: record, released: [], take: 0 });
  const totalMs = latencies.reduce((sum, ms) => sum + ms, 0);
  return { steps, claimed, latencies: latencies.sort((a, b) => a - b), totalMs };
}

/** The `p`-th percentile (0-100) of sorted values, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? Number.NaN;
}
