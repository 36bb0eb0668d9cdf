// The tables and the verdict of the site benchmark: each path served live, from memory and
// from static files side by side, with the live/memory ratio of requests per second (the
// target) and the live/static one.

import type { LoadResult } from './site-load.ts';
import { formatNumber, formatRatio, formatTable } from './timing.ts';

export interface Measured {
  /** Which handler configuration served it, such as `index (maxUrls 10,000)`. */
  readonly setup: string;
  readonly path: string;
  readonly bodyBytes: number;
  /** Whether the target applies to it (sitemaps do; robots.txt is shown for reference). */
  readonly judged: boolean;
  readonly live: LoadResult;
  /** The same bytes held in memory by plain node:http: the reference of the target. */
  readonly memory: LoadResult;
  readonly static: LoadResult;
}

export function formatMB(bytes: number): string {
  return `${formatNumber(bytes / 1e6, 1)} MB`;
}

export function formatSize(bytes: number): string {
  return bytes >= 1e6 ? formatMB(bytes) : `${formatNumber(bytes / 1e3, 1)} KB`;
}

function ms(value: number): string {
  return `${formatNumber(value, value >= 100 ? 0 : value >= 10 ? 1 : 2)} ms`;
}

/** autocannon records latency in whole milliseconds: 0 means under one. */
function latency(value: number): string {
  return value < 1 ? '<1 ms' : `${formatNumber(value)} ms`;
}

function percent(share: number): string {
  return `${formatNumber(share * 100)}%`;
}

/** live/memory requests per second: what the target judges. */
export function ratioOf(m: Measured): number {
  return m.live.requestsPerS / m.memory.requestsPerS;
}

/** live/static requests per second, for reference. */
export function staticRatioOf(m: Measured): number {
  return m.live.requestsPerS / m.static.requestsPerS;
}

export function loadTable(measured: readonly Measured[]): string {
  const rows = measured.flatMap((m) =>
    (['live', 'memory', 'static'] as const).map((server) => {
      const r = m[server];
      return [
        server === 'live' ? m.path : '',
        server === 'live' ? formatSize(m.bodyBytes) : '',
        server,
        formatNumber(r.requestsPerS, r.requestsPerS >= 100 ? 0 : 1),
        latency(r.p50),
        latency(r.p99),
        formatNumber(r.bytesPerS / 1e6, 1),
        ms(r.serverCpuMsPerRequest),
        percent(r.serverCpuShare),
        percent(r.loadCpuShare),
        server === 'live' ? formatRatio(ratioOf(m)) : '',
        server === 'live' ? formatRatio(staticRatioOf(m)) : '',
      ];
    }),
  );
  return formatTable(
    [
      'path',
      'body',
      'server',
      'req/s',
      'p50',
      'p99',
      'MB/s',
      'CPU/req',
      'server CPU',
      'autocannon CPU',
      'live/memory',
      'live/static',
    ],
    rows,
  );
}

/** The worst live/memory ratio over the judged paths, against `target`. */
export function verdict(measured: readonly Measured[], target: number): string {
  const judged = measured.filter((m) => m.judged);
  const worst = judged.reduce((a, b) => (ratioOf(b) < ratioOf(a) ? b : a));
  const ratio = ratioOf(worst);
  return (
    `The live handler serves at least ${formatRatio(ratio)} the requests/s of the same bytes in memory ` +
    `on every sitemap path (lowest: ${worst.path}, ${worst.setup}; target >= ${formatRatio(target)}: ` +
    `${ratio >= target ? 'met' : 'NOT met'}).`
  );
}
