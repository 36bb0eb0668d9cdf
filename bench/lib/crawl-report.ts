// The crawl benchmark's scoring and tables: each crawler's sitemap against the true one,
// the errors grouped by why, speed and memory side by side.

import type { ChildRun } from './crawl-child.ts';
import type { CrawlStats, SiteHandle } from './crawl-site-server.ts';
import { formatDuration, formatNumber, formatRatio, formatTable } from './timing.ts';

export interface CrawlOutcome {
  readonly crawler: string;
  /** Which crawl of this crawler on this site it was, from 1; null when it crawled it once. */
  readonly round: number | null;
  readonly pages: number;
  readonly run: ChildRun;
  readonly stats: CrawlStats;
  /** Its sitemap against the site's true one. */
  readonly score: Score;
}

export interface Score {
  readonly listed: number;
  readonly right: number;
  /** Listed but not in the true sitemap. */
  readonly wrong: readonly string[];
  /** In the true sitemap but not listed. */
  readonly missed: readonly string[];
  /** Locs listed more than once. */
  readonly duplicates: number;
}

export function score(locs: readonly string[], truth: readonly string[]): Score {
  const expected = new Set(truth);
  const got = new Set(locs);
  const wrong = [...got].filter((url) => !expected.has(url)).sort();
  const missed = truth.filter((url) => !got.has(url));
  return {
    listed: locs.length,
    right: got.size - wrong.length,
    wrong,
    missed,
    duplicates: locs.length - got.size,
  };
}

export function isExact(s: Score): boolean {
  return s.wrong.length === 0 && s.missed.length === 0 && s.duplicates === 0;
}

export function formatMB(bytes: number): string {
  return `${formatNumber(bytes / 1e6, 1)} MB`;
}

function label(o: CrawlOutcome): string {
  return o.round === null ? o.crawler : `${o.crawler} (run ${o.round})`;
}

export function correctnessTable(outcomes: readonly CrawlOutcome[], truth: number): string {
  return formatTable(
    ['crawler', 'site', 'listed', 'right', 'wrong (not in truth)', 'missed', 'duplicates', 'exact'],
    outcomes.map((o) => [
      label(o),
      `${formatNumber(o.pages)} pages`,
      formatNumber(o.score.listed),
      `${formatNumber(o.score.right)} of ${formatNumber(truth)}`,
      formatNumber(o.score.wrong.length),
      formatNumber(o.score.missed.length),
      formatNumber(o.score.duplicates),
      isExact(o.score) ? 'yes' : 'NO',
    ]),
  );
}

/**
 * The errors of one kind, grouped by the site's explanation (URLs and numbers in it
 * generalised), largest group first, with up to `examples` URLs each.
 */
export async function errorGroups(
  site: SiteHandle,
  urls: readonly string[],
  missed: boolean,
  examples: number,
): Promise<string[]> {
  if (urls.length === 0) return [];
  const reasons = await site.explain(urls, missed);
  const groups = new Map<string, { url: string; reason: string }[]>();
  urls.forEach((url, i) => {
    const reason = reasons[i] ?? '?';
    const kind = reason.replace(/https?:\/\/\S+/g, '<url>').replace(/\d+/g, 'N');
    const list = groups.get(kind) ?? [];
    list.push({ url, reason });
    groups.set(kind, list);
  });
  const lines: string[] = [];
  for (const [kind, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`    ${formatNumber(list.length).padStart(5)}  ${kind}`);
    for (const { url, reason } of list.slice(0, examples)) {
      lines.push(`             e.g. ${url}${reason === kind ? '' : `  (${reason})`}`);
    }
  }
  return lines;
}

export function speedTable(outcomes: readonly CrawlOutcome[], baseline: CrawlOutcome): string {
  return formatTable(
    [
      'crawler',
      'site',
      'time',
      'HTML pages fetched',
      'requests',
      'repeated',
      'pages/s',
      'connections (max open, opened)',
      'CPU (user+sys)',
      'CPU/page',
      'vs sitemap-generator (pages/s, CPU/page)',
    ],
    outcomes.map((o) => [
      label(o),
      `${formatNumber(o.pages)} pages`,
      formatDuration(o.run.wallMs),
      formatNumber(o.stats.htmlPages),
      formatNumber(o.stats.requests),
      formatNumber(o.stats.repeats),
      formatNumber(pagesPerSecond(o)),
      `${formatNumber(o.stats.maxConnections)}, ${formatNumber(o.stats.connections)}`,
      formatDuration(o.run.report.cpuMs),
      formatDuration(cpuPerPage(o)),
      o === baseline
        ? ''
        : `${formatRatio(pagesPerSecond(o) / pagesPerSecond(baseline))}, ${formatRatio(cpuPerPage(baseline) / cpuPerPage(o))}`,
    ]),
  );
}

/** CPU milliseconds of the crawler's process per HTML page fetched. */
export function cpuPerPage(o: CrawlOutcome): number {
  return o.run.report.cpuMs / o.stats.htmlPages;
}

export function pagesPerSecond(o: CrawlOutcome): number {
  return o.stats.htmlPages / (o.run.wallMs / 1000);
}

/** One row per crawl: peak RSS and V8's heap beside the process once loaded; disk writes. */
export function memoryTable(
  outcomes: readonly CrawlOutcome[],
  atStart: ReadonlyMap<string, number>,
): string {
  return formatTable(
    [
      'crawler',
      'site',
      'loaded, no crawl',
      'peak RSS',
      'V8 heap reserved',
      'live heap',
      'written to disk',
      'per HTML page',
    ],
    outcomes.map((o) => {
      const written = o.run.report.writtenBytes;
      return [
        label(o),
        `${formatNumber(o.pages)} pages`,
        formatMB(atStart.get(o.crawler) ?? Number.NaN),
        formatMB(o.run.report.peakRss),
        formatMB(o.run.report.heapTotal),
        o.run.report.liveHeap === 0 ? '-' : formatMB(o.run.report.liveHeap),
        written === null ? '-' : formatMB(written),
        written === null ? '-' : `${formatNumber(written / o.stats.htmlPages / 1000, 1)} KB`,
      ];
    }),
  );
}

export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met';
}
