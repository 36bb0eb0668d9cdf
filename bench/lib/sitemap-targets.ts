// Issue 14's targets for reading sitemaps: within 2x of `xmllint --stream` on the same file,
// each timed as the whole job a user runs (process start, read, parse, every entry handed
// out, exit); at most 60 MB peak RSS reading 50,000 URLs; MB/s flat from 1 MB to 100 MB, on
// normal input and on every hostile shape. Each prints one `Target: ... met|NOT met` line.

import { spawnSync } from 'node:child_process';
import { howItEnded, spawnNode } from './child-process.ts';
import type { ChildResult, ChildScript, ChildTask } from './sitemap-child.ts';
import { RESULT_MARK } from './sitemap-child-main.ts';
import type { SitemapFile } from './sitemap-inputs.ts';
import { WAYMARK_STREAM_READER_NAME } from './sitemap-readers.ts';
import { formatMB } from './sitemap-report.ts';
import { formatDuration, formatNumber, formatTable, median } from './timing.ts';

/** Within this factor of xmllint's time. */
export const XMLLINT_FACTOR = 2;
/** Peak RSS of the whole process reading 50,000 URLs. */
export const PEAK_RSS_LIMIT = 60 * 1e6;
/** Flat: the slowest size's MB/s at least this share of the fastest's, shape by shape. */
export const FLAT_SHARE = 0.7;

/** One waymark reader's whole jobs on a file. */
export interface ReaderJobs {
  /** The bench reader's name (`waymark` is `parseSitemapFile`). */
  readonly reader: string;
  /** Wall time of each whole waymark process (spawn to exit), in ms. */
  readonly ms: readonly number[];
  /** The waymark processes' own results (peak RSS, entries). */
  readonly runs: readonly ChildResult[];
}

export interface JobTiming {
  readonly file: SitemapFile;
  /** The reader the targets are judged on first, then any others timed beside it. */
  readonly waymark: readonly ReaderJobs[];
  readonly xmllintMs: readonly number[];
}

/** How each waymark reader in the whole-job table reaches the file. */
const HOW: Readonly<Record<string, string>> = {
  waymark: 'parseSitemapFile',
  [WAYMARK_STREAM_READER_NAME]: 'parseSitemap on a file stream (64 KiB reads)',
};

export function hasXmllint(): boolean {
  return spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** One `xmllint --stream --noout --huge` over `path`, spawn to exit. */
function xmllintJob(path: string): number {
  const started = performance.now();
  const run = spawnSync('xmllint', ['--stream', '--noout', '--huge', path], { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`xmllint failed on ${path} (status ${run.status})`);
  return performance.now() - started;
}

/** One waymark read of `file` in a fresh process, spawn to exit, with its own result. */
async function waymarkJob(
  script: ChildScript,
  reader: string,
  file: SitemapFile,
  timeoutMs: number,
): Promise<{ ms: number; result: ChildResult }> {
  // No heap watching: the process loads only what a user's program reading a file loads.
  const task: ChildTask = {
    reader,
    target: { kind: 'urlset', path: file.path, url: file.url, server: '' },
    liveHeap: false,
  };
  const output = await spawnNode([script.path, JSON.stringify(task)], { timeoutMs });
  const line = output.stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (output.code !== 0 || line === undefined) {
    throw new Error(
      `waymark on ${file.path}: ${howItEnded(output)}\n${output.stderr.slice(-2000)}`,
    );
  }
  return { ms: output.wallMs, result: JSON.parse(line.slice(RESULT_MARK.length)) as ChildResult };
}

/**
 * waymark's readers (`readers`, the first judged on) and xmllint taking turns on `file`,
 * `rounds` times each, so load on the host falls on all alike.
 */
export async function timeJobs(
  script: ChildScript,
  readers: readonly string[],
  file: SitemapFile,
  rounds: number,
  xmllint: boolean,
  timeoutMs: number,
): Promise<JobTiming> {
  const waymark = readers.map((reader) => ({
    reader,
    ms: [] as number[],
    runs: [] as ChildResult[],
  }));
  const xmllintMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const jobs of waymark) {
      const job = await waymarkJob(script, jobs.reader, file, timeoutMs);
      jobs.ms.push(job.ms);
      jobs.runs.push(job.result);
    }
    if (xmllint) xmllintMs.push(xmllintJob(file.path));
  }
  return { file, waymark, xmllintMs };
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

/** The table of whole-job times and the targets on time and memory. */
export function jobReport(timings: readonly JobTiming[], xmllint: boolean): string {
  const rows = timings.flatMap((t) => {
    const lint = xmllint ? median(t.xmllintMs) : Number.NaN;
    return t.waymark.map((jobs) => {
      const waymark = median(jobs.ms);
      return [
        `${t.file.label} (${formatMB(t.file.xmlBytes)})`,
        HOW[jobs.reader] ?? jobs.reader,
        formatDuration(waymark),
        formatDuration(median(jobs.runs.map((r) => r.ms))),
        formatNumber(t.file.xmlBytes / 1e6 / (waymark / 1000), 1),
        xmllint ? formatDuration(lint) : 'not installed',
        xmllint ? formatNumber(t.file.xmlBytes / 1e6 / (lint / 1000), 1) : '',
        xmllint ? `${formatNumber(waymark / lint, 2)}x` : '',
        formatMB(Math.max(...jobs.runs.map((r) => r.peakRss))),
      ];
    });
  });
  const lines = [
    formatTable(
      [
        'file',
        'waymark reading with',
        'waymark job',
        'of which read',
        'MB/s',
        'xmllint job',
        'MB/s',
        'waymark / xmllint',
        'waymark peak RSS',
      ],
      rows,
    ),
    '',
    `Median of ${timings[0]?.xmllintMs.length ?? 0} rounds each, all taking turns. A job is one process from spawn to exit:`,
    'waymark: node starting, loading the reader, reading the file as the row says, every entry',
    "handed out; xmllint: `xmllint --stream --noout --huge FILE`. 'of which read' is waymark's read",
    'alone (from the first byte to the last entry, inside the process). The targets are judged',
    'on parseSitemapFile, the way to read a file that the docs give.',
    '',
  ];
  for (const t of timings) {
    if (!xmllint) {
      lines.push(
        `Target: sitemap read within ${XMLLINT_FACTOR}x of xmllint --stream, ${t.file.label}: not measured (xmllint not installed)`,
      );
      continue;
    }
    const [judged, ...others] = t.waymark;
    if (judged === undefined) continue;
    const lint = median(t.xmllintMs);
    const ratio = median(judged.ms) / lint;
    const beside = others
      .map((o) => `; ${HOW[o.reader] ?? o.reader}: ${formatNumber(median(o.ms) / lint, 2)}x`)
      .join('');
    lines.push(
      `Target: sitemap read within ${XMLLINT_FACTOR}x of xmllint --stream, ${t.file.label} (whole job): ${verdict(ratio <= XMLLINT_FACTOR)} (${formatNumber(ratio, 2)}x${beside})`,
    );
  }
  const small = timings.find((t) => t.file.urls === 50_000)?.waymark[0];
  if (small !== undefined) {
    const peaks = small.runs.map((r) => r.peakRss);
    const peak = Math.max(...peaks);
    // The verdict takes the highest run; the median and lowest show how much of it is the
    // JIT's timing on a busy machine (when V8 compiles what, on which thread).
    lines.push(
      `Target: peak RSS <= ${formatMB(PEAK_RSS_LIMIT)} reading 50,000 URLs: ${verdict(peak <= PEAK_RSS_LIMIT)} (${formatMB(peak)}, ${formatNumber(peak / PEAK_RSS_LIMIT, 2)}x the limit; highest of ${peaks.length} runs, median ${formatMB(median(peaks))}, lowest ${formatMB(Math.min(...peaks))})`,
    );
  }
  return lines.join('\n');
}

/** The flat-MB/s target over the sizes of each shape (normal input and the hostile ones). */
export function flatnessReport(rates: ReadonlyMap<string, readonly number[]>): string {
  let worst = Number.POSITIVE_INFINITY;
  let worstShape = '';
  for (const [shape, list] of rates) {
    const share = Math.min(...list) / Math.max(...list);
    if (share < worst) {
      worst = share;
      worstShape = shape;
    }
  }
  return (
    `Target: flat MB/s from the smallest to the largest size on every shape (slowest size >= ${FLAT_SHARE}x the fastest, shape by shape): ` +
    `${verdict(worst >= FLAT_SHARE)} (worst ${formatNumber(worst, 2)}x, ${worstShape})`
  );
}
