// The load generator of the site benchmark: autocannon, in the bench process, against one
// server process. A warm-up run first (JIT, caches, TCP), then the measured run, with the
// server's own CPU time read before and after it.

import autocannon, { type Result } from 'autocannon';
import type { ServerHandle } from './site-server.ts';

export interface LoadPlan {
  readonly connections: number;
  readonly durationS: number;
  readonly warmupS: number;
}

export interface LoadResult {
  /** Completed requests in the measured run. */
  readonly requests: number;
  readonly requestsPerS: number;
  /** Latency percentiles, ms. */
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

/** Warms `server` up on `path`, then measures it; throws if any request failed. */
export async function measure(
  server: ServerHandle,
  path: string,
  plan: LoadPlan,
): Promise<LoadResult> {
  const url = `${server.origin}${path}`;
  if (plan.warmupS > 0) await run(url, plan.connections, plan.warmupS);
  const before = await server.usage();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const result = await run(url, plan.connections, plan.durationS);
  const wallMs = performance.now() - started;
  const own = process.cpuUsage(ownBefore);
  const after = await server.usage();
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  const requests = result.requests.total;
  return {
    requests,
    requestsPerS: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerS: result.throughput.total / result.duration,
    serverCpuMsPerRequest: (after.cpuMs - before.cpuMs) / Math.max(1, requests),
    serverCpuShare: (after.cpuMs - before.cpuMs) / wallMs,
    loadCpuShare: (own.user + own.system) / 1000 / wallMs,
    durationS: result.duration,
  };
}

function run(url: string, connections: number, duration: number): Promise<Result> {
  return Promise.resolve(autocannon({ url, connections, duration, timeout: 30 }));
}
