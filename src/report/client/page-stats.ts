// Counts for the charts: one pass each over the rows, returning label/value pairs in the order
// they are drawn.
import { COL, indexabilityOf, type PageRow } from './page-columns.ts';

export interface Count {
  readonly label: string;
  readonly value: number;
}

function sortedByCount(counts: Map<string, number>): Count[] {
  return [...counts]
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/** Rows per indexability (`listed`, each skip reason, `error: cause`), `listed` first, then by count. */
export function indexabilityCounts(pages: readonly PageRow[]): Count[] {
  const counts = new Map<string, number>();
  for (const row of pages) {
    const key = indexabilityOf(row);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const listed = counts.get('listed');
  counts.delete('listed');
  const rest = sortedByCount(counts);
  return listed === undefined ? rest : [{ label: 'listed', value: listed }, ...rest];
}

/** Rows per depth, every depth from 0 to the deepest; depths past `cap` are counted together as `cap+`. */
export function depthCounts(pages: readonly PageRow[], cap = 20): Count[] {
  const counts: number[] = [];
  for (const row of pages) {
    const depth = Math.min(row[COL.depth], cap);
    counts[depth] = (counts[depth] ?? 0) + 1;
  }
  return Array.from(counts, (value, depth) => ({
    label: depth === cap ? `${cap}+` : String(depth),
    value: value ?? 0,
  }));
}

/** Rows per HTTP status, in status order; rows without one as `none` at the end. */
export function statusCounts(pages: readonly PageRow[]): Count[] {
  const counts = new Map<number, number>();
  let none = 0;
  for (const row of pages) {
    const status = row[COL.status];
    if (status === null) none++;
    else counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const result: Count[] = [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([status, value]) => ({ label: String(status), value }));
  if (none > 0) result.push({ label: 'none', value: none });
  return result;
}

/** Rows per content type, commonest first; past `top` types the rest are summed as `other`. */
export function contentTypeCounts(pages: readonly PageRow[], top = 10): Count[] {
  const counts = new Map<string, number>();
  for (const row of pages) {
    const type = row[COL.contentType] ?? 'none';
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  const sorted = sortedByCount(counts);
  if (sorted.length <= top) return sorted;
  const other = sorted.slice(top).reduce((sum, count) => sum + count.value, 0);
  return [...sorted.slice(0, top), { label: 'other', value: other }];
}

/**
 * Histogram bucket edges in ms. Response times spread over orders of magnitude, so the
 * buckets grow roughly geometrically: linear buckets put nearly every page in the first one.
 */
export const RESPONSE_BUCKETS = [100, 250, 500, 1000, 2000, 5000, 10_000] as const;

function bucketLabel(low: number, high: number | undefined): string {
  const show = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
  return high === undefined ? `≥ ${show(low)}` : `${show(low)} – ${show(high)}`;
}

/** Response-time histogram over rows with a time: every bucket, empty ones included. */
export function responseTimeHistogram(pages: readonly PageRow[]): Count[] {
  const edges = RESPONSE_BUCKETS;
  const counts = new Array<number>(edges.length + 1).fill(0);
  for (const row of pages) {
    const ms = row[COL.ms];
    if (ms === null) continue;
    let bucket = 0;
    while (bucket < edges.length && ms >= (edges[bucket] as number)) bucket++;
    counts[bucket] = (counts[bucket] as number) + 1;
  }
  return counts.map((value, bucket) => ({
    label: bucketLabel(bucket === 0 ? 0 : (edges[bucket - 1] as number), edges[bucket]),
    value,
  }));
}

/** Indices of the `limit` slowest rows, slowest first (ties in row order). */
export function slowestRows(pages: readonly PageRow[], limit = 20): number[] {
  const timed: number[] = [];
  pages.forEach((row, index) => {
    if (row[COL.ms] !== null) timed.push(index);
  });
  const ms = (index: number) => (pages[index] as PageRow)[COL.ms] as number;
  return timed.sort((a, b) => ms(b) - ms(a) || a - b).slice(0, limit);
}
