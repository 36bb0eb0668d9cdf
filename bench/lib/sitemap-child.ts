// One read in a fresh process, so its time and its peak memory are its own. The process
// runs plain JavaScript: `buildChildScript` compiles this module and what it imports
// (waymark's sources, the reader modules) with the project's tsc into a temp directory, as
// the package ships `dist/`. Node's type stripping would otherwise add some 40 MB of RSS to
// every process before any sitemap is read. `runInChild` passes the task as JSON in argv;
// the child prints one JSON line with the result.

import { spawn } from 'node:child_process';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { compileForChild, howItEnded, spawnNode } from './child-process.ts';
import { peakRssNow } from './peak-rss.ts';
import { loadReader, type ReadTarget } from './sitemap-readers.ts';

export interface ChildTask {
  readonly reader: string;
  readonly target: ReadTarget;
}

export interface ChildResult {
  readonly count: number;
  readonly problems: number;
  readonly ms: number;
  /** Peak resident memory before the read (Node and this reader's modules loaded), in bytes. */
  readonly baselineRss: number;
  /** Peak resident memory of the whole process, in bytes. */
  readonly peakRss: number;
  /** Largest heap in use right after a full GC during the read: what was really held. */
  readonly liveHeap: number | null;
}

export interface ChildScript {
  readonly path: string;
  /** False when the build failed and the child runs the TypeScript sources instead. */
  readonly compiled: boolean;
}

const SCRIPT = fileURLToPath(import.meta.url);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MARK = 'sitemap-child-result ';

/** Compiles this script and its imports into `dir`; falls back to the sources on failure. */
export async function buildChildScript(dir: string): Promise<ChildScript> {
  const path = (await compileForChild(REPO, dir, [SCRIPT]))(SCRIPT);
  return path === null ? { path: SCRIPT, compiled: false } : { path, compiled: true };
}

/** Runs `task` in a new `node` process; rejects if it fails or outlives `timeoutMs`. */
export function runInChild(
  script: ChildScript,
  task: ChildTask,
  timeoutMs: number,
): Promise<ChildResult> {
  return spawnNode([script.path, JSON.stringify(task)], { timeoutMs }).then((output) => {
    const line = output.stdout.split('\n').find((l) => l.startsWith(MARK));
    if (output.code !== 0 || line === undefined) {
      throw new Error(
        `${task.reader} on ${task.target.url}: ${howItEnded(output)}\n${output.stderr.slice(-2000)}`,
      );
    }
    return JSON.parse(line.slice(MARK.length)) as ChildResult;
  });
}

/** `peakRssNow` as a one-line CommonJS script, for a `node -e` that loads nothing else. */
const BARE_NODE_SCRIPT =
  "let r = process.resourceUsage().maxRSS * 1024; try { const m = /^VmHWM:\\s*(\\d+)/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8')); if (m) r = Number(m[1]) * 1024; } catch {} process.stdout.write(String(r));";

/** Peak RSS of a `node` process that loads nothing, for reference. */
export function bareNodeRss(): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const child = spawn(process.execPath, ['-e', BARE_NODE_SCRIPT], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.on('error', reject);
    child.on('close', () => resolve(Number(stdout)));
  });
}

async function childMain(task: ChildTask): Promise<void> {
  const reader = await loadReader(task.reader);
  let liveHeap: number | null = null;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      liveHeap = Math.max(liveHeap ?? 0, getHeapStatistics().used_heap_size);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const baselineRss = peakRssNow();
  const start = performance.now();
  const { count, problems } = await reader.read(task.target, false);
  const ms = performance.now() - start;
  const peakRss = peakRssNow();
  // Let the observer see the last collections.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  const result: ChildResult = { count, problems, ms, baselineRss, peakRss, liveHeap };
  process.stdout.write(`${MARK}${JSON.stringify(result)}\n`);
  // Keep-alive sockets to the bench server would hold the process open for seconds.
  process.exit(0);
}

// Run as a script (not imported): the task is the one argument.
if (process.argv[1] === SCRIPT) {
  await childMain(JSON.parse(process.argv[2] ?? '{}') as ChildTask);
}
