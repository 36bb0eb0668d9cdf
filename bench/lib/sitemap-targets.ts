// Issue 14's targets for reading sitemaps: within 2x of `xmllint --stream` on the same file,
// each timed as the whole job a user runs (process start, read, parse, every entry handed
// out, exit); at most 60 MB peak RSS reading 50,000 URLs; MB/s flat from 1 MB to 100 MB, on
// normal input and on every hostile shape. Each prints one `Target: ... met|NOT met` line.

import { spawnSync } from 'node:child_process';
import { howItEnded, spawnNode } from './child-process.ts';
import type { ChildResult, ChildScript, ChildTask } from './sitemap-child.ts';
import { RESULT_MARK } from './sitemap-child-main.ts';
import type { SitemapFile } from './sitemap-inputs.ts';
import { formatMB } from './sitemap-report.ts';
import { formatDuration, formatNumber, formatTable, median } from './timing.ts';

/** Within this factor of xmllint's time. */
export const XMLLINT_FACTOR = 2;
/** Peak RSS of the whole process reading 50,000 URLs. */
export const PEAK_RSS_LIMIT = 60 * 1e6;
/** Flat: the slowest size's MB/s at least this share of the fastest's, shape by shape. */
export const FLAT_SHARE = 0.7;

export interface JobTiming {
  readonly file: SitemapFile;
  /** Wall time of each whole waymark process (spawn to exit), in ms. */
  readonly waymarkMs: readonly number[];
  readonly xmllintMs: readonly number[];
  /** The waymark processes' own results (peak RSS, entries). */
  readonly runs: readonly ChildResult[];
}

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
  file: SitemapFile,
  timeoutMs: number,
): Promise<{ ms: number; result: ChildResult }> {
  // No heap watching: the process loads only what a user's program reading a file loads.
  const task: ChildTask = {
    reader: 'waymark',
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
 * waymark and xmllint taking turns on `file`, `rounds` times each, so load on the host falls
 * on both alike.
 */
export async function timeJobs(
  script: ChildScript,
  file: SitemapFile,
  rounds: number,
  xmllint: boolean,
  timeoutMs: number,
): Promise<JobTiming> {
  const waymarkMs: number[] = [];
  const xmllintMs: number[] = [];
  const runs: ChildResult[] = [];
  for (let round = 0; round < rounds; round++) {
    const job = await waymarkJob(script, file, timeoutMs);
    waymarkMs.push(job.ms);
    runs.push(job.result);
    if (xmllint) xmllintMs.push(xmllintJob(file.path));
  }
  return { file, waymarkMs, xmllintMs, runs };
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

/** The table of whole-job times and the targets on time and memory. */
export function jobReport(timings: readonly JobTiming[], xmllint: boolean): string {
  const rows = timings.map((t) => {
    const waymark = median(t.waymarkMs);
    const lint = xmllint ? median(t.xmllintMs) : Number.NaN;
    const peak = Math.max(...t.runs.map((r) => r.peakRss));
    const readMs = median(t.runs.map((r) => r.ms));
    return [
      `${t.file.label} (${formatMB(t.file.xmlBytes)})`,
      formatDuration(waymark),
      formatDuration(readMs),
      formatNumber(t.file.xmlBytes / 1e6 / (waymark / 1000), 1),
      xmllint ? formatDuration(lint) : 'not installed',
      xmllint ? formatNumber(t.file.xmlBytes / 1e6 / (lint / 1000), 1) : '',
      xmllint ? `${formatNumber(waymark / lint, 2)}x` : '',
      formatMB(peak),
    ];
  });
  const lines = [
    formatTable(
      [
        'file',
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
    `Median of ${timings[0]?.waymarkMs.length ?? 0} rounds each, the two taking turns. A job is one process from spawn to exit:`,
    'waymark: node starting, loading the reader, parseSitemap on a file stream, every entry handed',
    "out; xmllint: `xmllint --stream --noout --huge FILE`. 'of which read' is waymark's read alone",
    '(from the first byte to the last entry, inside the process).',
    '',
  ];
  for (const t of timings) {
    if (!xmllint) {
      lines.push(
        `Target: sitemap read within ${XMLLINT_FACTOR}x of xmllint --stream, ${t.file.label}: not measured (xmllint not installed)`,
      );
      continue;
    }
    const ratio = median(t.waymarkMs) / median(t.xmllintMs);
    lines.push(
      `Target: sitemap read within ${XMLLINT_FACTOR}x of xmllint --stream, ${t.file.label} (whole job): ${verdict(ratio <= XMLLINT_FACTOR)} (${formatNumber(ratio, 2)}x)`,
    );
  }
  const small = timings.find((t) => t.file.urls === 50_000);
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
