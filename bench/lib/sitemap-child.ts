// One read in a fresh process, so its time and its peak memory are its own. The process
// runs plain JavaScript: `buildChildScript` compiles the child's entry
// (sitemap-child-main.ts) and what it imports
// (waymark's sources, the reader modules) with the project's tsc into a temp directory, as
// the package ships `dist/`. Node's type stripping would otherwise add some 40 MB of RSS to
// every process before any sitemap is read. `runInChild` passes the task as JSON in argv;
// the child prints one JSON line with the result.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileForChild, howItEnded, spawnNode } from './child-process.ts';
import { RESULT_MARK } from './sitemap-child-main.ts';
import type { ReadTarget } from './sitemap-readers.ts';

export interface ChildTask {
  readonly reader: string;
  readonly target: ReadTarget;
  /**
   * Watch the heap after each full GC (`liveHeap`); this loads `node:v8` and `node:perf_hooks`
   * into the child. False for the whole-job timing, whose process must load only what a
   * user's program reading a sitemap loads. Default: true.
   */
  readonly liveHeap?: boolean;
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

/** The child's own entry: kept apart so that the child loads none of the spawning code. */
const SCRIPT = fileURLToPath(new URL('./sitemap-child-main.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

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
    const line = output.stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
    if (output.code !== 0 || line === undefined) {
      throw new Error(
        `${task.reader} on ${task.target.url}: ${howItEnded(output)}\n${output.stderr.slice(-2000)}`,
      );
    }
    return JSON.parse(line.slice(RESULT_MARK.length)) as ChildResult;
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
