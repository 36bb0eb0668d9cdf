// A pattern built to make backtracking matchers explode, against a long URL that almost
// matches. robots-txt-guard turns patterns into regexes (`.*` per `*`), so it runs in a
// worker that is stopped at a deadline; the worker reports how its time grows with length.

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import robotsParser from 'robots-parser';
import { parseRobots } from '../../src/robots/index.ts';
import { guardFor } from './robots-contenders.ts';
import { medianPerCall } from './timing.ts';

export const PATHOLOGICAL_PATTERN = '/*a*a*a*a*a*a*a*a*a*b';
export const PATHOLOGICAL_LENGTH = 2000;

const ORIGIN = 'https://example.com';
const ROBOTS = `User-agent: *\nDisallow: ${PATHOLOGICAL_PATTERN}\n`;
const AGENT = 'waymarkbot';
const WORKER_TASK = 'robots-pathological-guard';
/** Path lengths the regex peer is tried at, shortest first, up to the real one. */
const GUARD_LENGTHS = [8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 128, 512, PATHOLOGICAL_LENGTH];

/** Path of `length` characters: `/` then `a`s. No `b`, so every split has to be tried. */
function pathOf(length: number): string {
  return `/${'a'.repeat(length - 1)}`;
}

export interface PathologicalResult {
  readonly name: string;
  /** Median ms per check at the full length; null when stopped before it finished. */
  readonly msPerCheck: number | null;
  readonly allowed: boolean | undefined;
  /** For a stopped run: single-check times at the lengths that finished. */
  readonly growth: readonly { length: number; ms: number }[];
}

export async function runPathological(deadlineMs: number): Promise<PathologicalResult[]> {
  const url = ORIGIN + pathOf(PATHOLOGICAL_LENGTH);
  const waymark = parseRobots(ROBOTS);
  const peer = robotsParser(`${ORIGIN}/robots.txt`, ROBOTS);
  return [
    {
      name: 'waymark',
      msPerCheck: medianPerCall(() => waymark.isAllowed(url, AGENT), 20_000, 7),
      allowed: waymark.isAllowed(url, AGENT),
      growth: [],
    },
    {
      name: 'robots-parser',
      msPerCheck: medianPerCall(() => peer.isAllowed(url, AGENT), 200, 7),
      allowed: peer.isAllowed(url, AGENT),
      growth: [],
    },
    await guardInWorker(deadlineMs),
  ];
}

interface GuardMessage {
  readonly length: number;
  readonly ms: number;
  readonly allowed: boolean;
}

function guardInWorker(deadlineMs: number): Promise<PathologicalResult> {
  const growth: GuardMessage[] = [];
  const worker = new Worker(new URL(import.meta.url), { workerData: { task: WORKER_TASK } });
  let done = false;
  return new Promise((resolve, reject) => {
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const full = growth.find((g) => g.length === PATHOLOGICAL_LENGTH);
      resolve({
        name: 'robots-txt-guard',
        msPerCheck: full?.ms ?? null,
        allowed: full?.allowed,
        growth: growth.map(({ length, ms }) => ({ length, ms })),
      });
    };
    const timer = setTimeout(() => void worker.terminate().then(finish, reject), deadlineMs);
    worker.on('message', (message: GuardMessage) => growth.push(message));
    worker.on('error', reject);
    worker.on('exit', finish);
  });
}

async function guardWorker(): Promise<void> {
  const guard = await guardFor(ROBOTS);
  guard.isAllowed(AGENT, '/'); // compiles the regex, so the first timing is a match only
  for (const length of GUARD_LENGTHS) {
    const path = pathOf(length);
    const start = performance.now();
    const allowed = guard.isAllowed(AGENT, path);
    parentPort?.postMessage({ length, ms: performance.now() - start, allowed });
  }
}

if (!isMainThread && (workerData as { task?: string } | null)?.task === WORKER_TASK) {
  await guardWorker();
}
