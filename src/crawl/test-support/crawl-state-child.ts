// A stand-in crawler for the kill test, and the made-up site it crawls (the test imports it):
//   node crawl-state-child.ts <state file> <resume 0|1> <log file>
// It crawls as fast as it can until it is killed. It writes `ready` to stdout once its seeds
// are committed, then appends `<url>` to the log file after each completion is committed.
// The log is a file, not the pipe: a write to the pipe wakes the test, which would then
// tend to kill the child right after a write, always at the same step.
import { openSync, writeSync } from 'node:fs';
import type { FrontierItem, TakenItem } from '../frontier.ts';
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

function main(path: string, resume: boolean, log: number): void {
  const state = openSqliteCrawlState(path, { resume });
  if (!state.resumed) state.addMany(seedUrls().map((url) => item(url, 0, null)));
  writeSync(1, 'ready\n');
  for (let round = 0; ; round++) {
    const batch: TakenItem[] = state.take(8, () => true, { perOrigin: 3 });
    if (batch.length === 0) break;
    for (const taken of batch) {
      if (taken.attempt === 1 && taken.id % 7 === 0) {
        state.release(taken, round % 2 === 0 ? Date.now() + 20 : undefined);
        continue;
      }
      const links = linksOf(taken.url, taken.depth).map((url) =>
        item(url, taken.depth + 1, taken.url),
      );
      state.complete(
        taken,
        {
          status: 200,
          outcome: 'listed',
          reason: null,
          lastmod: null,
          finalUrl: null,
          data: null,
        },
        links,
      );
      writeSync(log, `${taken.url}\n`);
    }
  }
  state.close();
}

if (import.meta.main) {
  const [path = '', resume, log = ''] = process.argv.slice(2);
  main(path, resume === '1', openSync(log, 'a'));
}
