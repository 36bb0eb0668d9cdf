// The tables and verdicts of the sitemap benchmark: read speed against waymark fed the same
// way as each peer, and peak memory per implementation and input.

import type { ChildResult } from './sitemap-child.ts';
import type { SitemapFile, SitemapIndexFile } from './sitemap-inputs.ts';
import { isWaymark, type ReadTarget, type SitemapReader } from './sitemap-readers.ts';
import { formatDuration, formatNumber, formatRatio, formatTable } from './timing.ts';

const WAYMARK_FILE = 'waymark';
const WAYMARK_HTTP = 'waymark (HTTP)';

export function formatMB(bytes: number): string {
  return `${formatNumber(bytes / 1e6, 1)} MB`;
}

export interface ReadResult {
  readonly reader: SitemapReader;
  readonly ms: number;
  /** URLs handed back. */
  readonly count: number;
}

/**
 * The waymark result to hold `reader`'s against: the one fed the same way (over HTTP for an
 * HTTP peer and for every index, else from the file).
 */
function waymarkLike(
  reader: SitemapReader,
  kind: ReadTarget['kind'],
  results: readonly ReadResult[],
): ReadResult | undefined {
  const name = kind === 'index' || reader.overHttp ? WAYMARK_HTTP : WAYMARK_FILE;
  return results.find((r) => r.reader.name === name);
}

/** Rows of a read-speed table: one per implementation, ratios against waymark fed alike. */
export function readTableRows(
  file: SitemapFile | SitemapIndexFile,
  kind: ReadTarget['kind'],
  results: readonly ReadResult[],
): string[][] {
  const xmlBytes = 'partBytes' in file ? file.partBytes : file.xmlBytes;
  return results.map(({ reader, ms, count }) => {
    const like = waymarkLike(reader, kind, results);
    const waymarkMs = like?.ms ?? Number.NaN;
    return [
      file.label,
      reader.name,
      kind === 'index' ? (reader.viaIndex ?? reader.via) : reader.via,
      formatNumber(count),
      formatDuration(ms),
      formatNumber(file.urls / (ms / 1000)),
      formatNumber(xmlBytes / 1e6 / (ms / 1000), 1),
      isWaymark(reader) ? '' : `${formatRatio(ms / waymarkMs)} vs ${like?.reader.name}`,
    ];
  });
}

export function readTable(rows: readonly string[][], returned: boolean): string {
  return formatTable(
    [
      'input',
      'implementation',
      'fed as',
      returned ? 'URLs returned' : 'URLs',
      'time',
      'URLs/s',
      'MB/s (XML)',
      'waymark speed-up',
    ],
    rows,
  );
}

/** The fastest peer against waymark fed the same way, and whether `target` is met. */
export function readVerdict(
  label: string,
  kind: ReadTarget['kind'],
  results: readonly ReadResult[],
  target: number,
): string {
  const peers = results.filter((r) => !isWaymark(r.reader));
  const fastest = peers.reduce((a, b) => (b.ms < a.ms ? b : a));
  const like = waymarkLike(fastest.reader, kind, results);
  const ratio = fastest.ms / (like?.ms ?? Number.NaN);
  return (
    `${label}: fastest peer ${fastest.reader.name}; ${like?.reader.name} reads ${formatRatio(ratio)} its URLs/s ` +
    `(target >= ${target}x: ${ratio >= target ? 'met' : 'NOT met'})`
  );
}

export interface ChildRun {
  readonly file: SitemapFile;
  readonly reader: SitemapReader;
  readonly result: ChildResult;
}

/** One row per implementation, one column per input: peak RSS. */
export function memoryTable(readers: readonly SitemapReader[], runs: readonly ChildRun[]): string {
  const labels = [...new Set(runs.map((r) => r.file.label))];
  const rows = readers.map((reader) => {
    const own = runs.filter((r) => r.reader === reader);
    const live = own.reduce((max, r) => Math.max(max, r.result.liveHeap ?? 0), 0);
    return [
      reader.name,
      formatMB(Math.min(...own.map((r) => r.result.baselineRss))),
      ...labels.map((label) => {
        const run = own.find((r) => r.file.label === label);
        return run === undefined ? '' : formatMB(run.result.peakRss);
      }),
      live === 0 ? '-' : formatMB(live),
    ];
  });
  return formatTable(['implementation', 'at start', ...labels, 'live heap'], rows);
}

/**
 * waymark's peak on the largest reads against `limit`, with the smaller ones beside it. Reads
 * from a file are judged; reads over HTTP are set beside Node's fetch draining the same
 * bodies unparsed (the reference run), the floor no reader over HTTP can go below.
 */
export function memoryVerdict(
  runs: readonly ChildRun[],
  limit: number,
  largeUrls: number,
  referenceName: string,
): string {
  const own = runs.filter((r) => isWaymark(r.reader));
  const peak = (list: readonly ChildRun[]) =>
    list.reduce((max, r) => Math.max(max, r.result.peakRss), 0);
  const live = own.reduce((max, r) => Math.max(max, r.result.liveHeap ?? 0), 0);
  const judge = (list: readonly ChildRun[]) => {
    const big = list.filter((r) => r.file.urls >= largeUrls);
    return big.length > 0 ? big : list;
  };
  const fromFile = judge(own.filter((r) => !r.reader.overHttp));
  const overHttp = judge(own.filter((r) => r.reader.overHttp));
  const labels = new Set(overHttp.map((r) => r.file.label));
  const floor = peak(
    runs.filter((r) => r.reader.name === referenceName && labels.has(r.file.label)),
  );
  const worst = peak(fromFile);
  const size = fromFile.some((r) => r.file.urls >= largeUrls) ? '1,000,000-URL' : '50,000-URL';
  return (
    `waymark: peak RSS at most ${formatMB(worst)} over the ${size} reads from files ` +
    `(target < ${formatMB(limit)}: ${worst < limit ? 'met' : 'NOT met'}); over HTTP at most ` +
    `${formatMB(peak(overHttp))}, where Node's fetch alone, not parsing, peaks at ` +
    `${floor === 0 ? '-' : formatMB(floor)}; live heap at most ${live === 0 ? '-' : formatMB(live)}.`
  );
}
