// The measured child process's entry (see sitemap-child.ts, which spawns it): reads one
// document with one reader and prints one JSON line with the result. It imports nothing
// the parent needs for spawning (`node:child_process` alone is some 2.5 MB of RSS), and
// loads `node:v8` and `node:perf_hooks` only when asked to watch the heap, so that the
// whole-job timing's process loads what a user's program reading a sitemap loads.

import { fileURLToPath } from 'node:url';
import { peakRssNow } from './peak-rss.ts';
import type { ChildResult, ChildTask } from './sitemap-child.ts';
import { loadReader } from './sitemap-readers.ts';

/** Starts the child's result line on stdout. */
export const RESULT_MARK = 'sitemap-child-result ';

const SCRIPT = fileURLToPath(import.meta.url);

/** Largest heap in use right after a full GC, from now on; `stop` ends watching. */
async function watchLiveHeap(): Promise<{ stop(): Promise<number | null> }> {
  const { constants, PerformanceObserver } = await import('node:perf_hooks');
  const { getHeapStatistics } = await import('node:v8');
  let liveHeap: number | null = null;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      liveHeap = Math.max(liveHeap ?? 0, getHeapStatistics().used_heap_size);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      // Let the observer see the last collections.
      await new Promise((resolve) => setImmediate(resolve));
      observer.disconnect();
      return liveHeap;
    },
  };
}

async function childMain(task: ChildTask): Promise<void> {
  const reader = await loadReader(task.reader);
  const heap = task.liveHeap === false ? null : await watchLiveHeap();
  const baselineRss = peakRssNow();
  const start = performance.now();
  const { count, problems } = await reader.read(task.target, false);
  const ms = performance.now() - start;
  const peakRss = peakRssNow();
  const liveHeap = heap === null ? null : await heap.stop();
  const result: ChildResult = { count, problems, ms, baselineRss, peakRss, liveHeap };
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
  // Keep-alive sockets to the bench server would hold the process open for seconds.
  process.exit(0);
}

// Run as a script (not imported): the task is the one argument.
if (process.argv[1] === SCRIPT) {
  await childMain(JSON.parse(process.argv[2] ?? '{}') as ChildTask);
}
