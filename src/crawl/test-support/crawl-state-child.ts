// A stand-in crawler for the kill test, and the made-up site it crawls (the test imports it):
//   node crawl-state-child.ts <state file> <resume 0|1> <log file>
// It crawls as fast as it can until it is killed. It writes `ready` to stdout once its seeds
// are committed, then appends `<url>` to the log file for each result a step has committed.
// The log is a file, not the pipe: a write to the pipe wakes the test, which would then
// tend to kill the child right after a write, always at the same step.
import { openSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FinishedItem, FrontierItem, ReleasedItem } from '../crawl-state.ts';
import { openSqliteCrawlState } from '../sqlite-crawl-state.ts';

export const ORIGINS = 4;
export const SEEDS_PER_ORIGIN = 100;
/** Pages at this depth have no links. */
export const MAX_DEPTH = 3;
export const CHILDREN = 4;

/** Every seed URL. */
export function seedUrls(): string[] {
  const urls: string[] = [];
  for (let o = 0; o < ORIGINS; o++) {
    for (let i = 0; i < SEEDS_PER_ORIGIN; i++) urls.push(`https://o${o}.test/s${i}`);
  }
  return urls;
}

/** The URLs a page links to: its children, and one link back to a seed (a duplicate). */
export function linksOf(url: string, depth: number): string[] {
  if (depth >= MAX_DEPTH) return [];
  const children = Array.from({ length: CHILDREN }, (_, k) => `${url}/c${k}`);
  return [...children, `${new URL(url).origin}/s0`];
}

/** The page a non-seed URL was found on. */
export function parentOf(url: string): string | null {
  const slash = url.lastIndexOf('/');
  return /\/c\d+$/.test(url) ? url.slice(0, slash) : null;
}

function item(url: string, depth: number, via: string | null): FrontierItem {
  return { url, origin: new URL(url).origin, priority: depth % 2, depth, via, kind: 'page' };
}

async function main(path: string, resume: boolean, log: number): Promise<void> {
  const state = openSqliteCrawlState(path, { resume });
  if (!state.resumed) {
    await state.create({ start: 'https://o0.test/s0', options: '{}', gapMs: 0 });
    await state.add(seedUrls().map((url) => item(url, 0, null)));
    await state.claimSitemaps();
    await state.settleSitemaps(0);
  }
  writeSync(1, 'ready\n');
  let finished: FinishedItem[] = [];
  let released: ReleasedItem[] = [];
  for (let round = 0; ; round++) {
    const step = await state.step({ finished, released, take: 8 });
    // Committed: the step has returned.
    for (const done of finished) writeSync(log, `${done.item.url}\n`);
    finished = [];
    released = [];
    for (const origin of step.robots) {
      const robots = { status: 404, detail: null, url: `${origin}/robots.txt`, body: null };
      await state.settleRobots(origin, { ...robots, gapMs: 0 });
    }
    if (!step.open) break;
    for (const taken of step.taken) {
      if (taken.attempt === 1 && taken.id % 7 === 0) {
        released.push({ item: taken, notBefore: round % 2 === 0 ? Date.now() + 20 : null });
        continue;
      }
      const links = linksOf(taken.url, taken.depth).map((url) =>
        item(url, taken.depth + 1, taken.url),
      );
      const result = { status: 200, reason: null, lastmod: null, finalUrl: null, data: null };
      finished.push({
        item: taken,
        result: { ...result, outcome: 'listed' },
        discovered: links,
        depthCut: 0,
        requested: true,
      });
    }
    const idle = step.taken.length === 0 && step.robots.length === 0;
    if (idle && step.waitMs !== null && step.waitMs > 0) await sleep(step.waitMs);
  }
  await state.close();
}

if (import.meta.main) {
  const [path = '', resume, log = ''] = process.argv.slice(2);
  await main(path, resume === '1', openSync(log, 'a'));
}
