// The load generator of the site benchmark: autocannon, in the bench process, against the
// server processes. Two servers are compared in alternating rounds (a, b, a, b, ...) after a
// warm-up of each, so that other work on a shared machine, which comes and goes, weighs on
// both alike; each round reads the server's own CPU time before and after it.

import autocannon, { type Result } from 'autocannon';
import type { ServerHandle } from './site-server.ts';
import { median } from './timing.ts';

export interface LoadPlan {
  readonly connections: number;
  /** Measured seconds per server and path, split into `rounds`. */
  readonly durationS: number;
  readonly rounds: number;
  /** Seconds of load on each server before the rounds (JIT, caches, TCP). */
  readonly warmupS: number;
}

export interface LoadResult {
  /** Completed requests over all rounds. */
  readonly requests: number;
  readonly requestsPerS: number;
  /** Latency percentiles, ms: the median over the rounds of each round's percentile. */
  readonly p50: number;
  readonly p99: number;
  /** Response bytes per second (headers and bodies, as received). */
  readonly bytesPerS: number;
  /** The server process's CPU time per completed request, ms. */
  readonly serverCpuMsPerRequest: number;
  /** CPU time over wall time of the server process, and of this one (autocannon): 1 is a core. */
  readonly serverCpuShare: number;
  readonly loadCpuShare: number;
  readonly durationS: number;
}

interface Round {
  readonly result: Result;
  readonly wallMs: number;
  readonly serverCpuMs: number;
  readonly ownCpuMs: number;
}

/**
 * Warms each server up on `path`, then measures them in alternating rounds; throws if any
 * request failed. Results in the order of `servers`.
 */
export async function measureSideBySide(
  servers: readonly ServerHandle[],
  path: string,
  plan: LoadPlan,
): Promise<LoadResult[]> {
  if (plan.warmupS > 0) {
    for (const server of servers) await run(`${server.origin}${path}`, plan, plan.warmupS);
  }
  const rounds: Round[][] = servers.map(() => []);
  const seconds = plan.durationS / Math.max(1, plan.rounds);
  for (let r = 0; r < Math.max(1, plan.rounds); r++) {
    for (const [i, server] of servers.entries())
      rounds[i]?.push(await round(server, path, plan, seconds));
  }
  return rounds.map(combine);
}

/** One server alone: warm-up, then the rounds. */
export async function measure(
  server: ServerHandle,
  path: string,
  plan: LoadPlan,
): Promise<LoadResult> {
  const [result] = await measureSideBySide([server], path, plan);
  if (result === undefined) throw new Error('no result');
  return result;
}

async function round(
  server: ServerHandle,
  path: string,
  plan: LoadPlan,
  seconds: number,
): Promise<Round> {
  const url = `${server.origin}${path}`;
  const before = await server.usage();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run(url, plan, seconds);
  const wallMs = performance.now() - started;
  const own = process.cpuUsage(ownBefore);
  const after = await server.usage();
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  return {
    result,
    wallMs,
    serverCpuMs: after.cpuMs - before.cpuMs,
    ownCpuMs: (own.user + own.system) / 1000,
  };
}

function combine(rounds: readonly Round[]): LoadResult {
  const sum = (pick: (r: Round) => number) => rounds.reduce((n, r) => n + pick(r), 0);
  const requests = sum((r) => r.result.requests.total);
  const seconds = sum((r) => r.result.duration);
  const wallMs = sum((r) => r.wallMs);
  return {
    requests,
    requestsPerS: requests / seconds,
    p50: median(rounds.map((r) => r.result.latency.p50)),
    p99: median(rounds.map((r) => r.result.latency.p99)),
    bytesPerS: sum((r) => r.result.throughput.total) / seconds,
    serverCpuMsPerRequest: sum((r) => r.serverCpuMs) / Math.max(1, requests),
    serverCpuShare: sum((r) => r.serverCpuMs) / wallMs,
    loadCpuShare: sum((r) => r.ownCpuMs) / wallMs,
    durationS: seconds,
  };
}

function run(url: string, plan: LoadPlan, duration: number): Promise<Result> {
  return Promise.resolve(autocannon({ url, connections: plan.connections, duration, timeout: 30 }));
}
