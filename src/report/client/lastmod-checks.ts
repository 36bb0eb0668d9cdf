// The `<lastmod>` mistakes that make search engines stop trusting a site's lastmod (Google:
// "we use lastmod if it's consistently and verifiably accurate"). Each check is defined in
// /work/notes/report-page.md; the definitions are lenient where time zones make a value
// ambiguous, so a flagged value is wrong in every reading of it.
import type { ReportData } from '../report-data.ts';
import { COL } from './page-columns.ts';
import { EARLIEST_ZONE_MS, LATEST_ZONE_MS, parseW3cDatetime } from './w3c-datetime.ts';

/** Clock difference tolerated between the site's server and the crawler. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export interface LastmodFindings {
  /** Rows with a `<lastmod>` in the site's sitemaps. */
  readonly withLastmod: number;
  /** Distinct values among them (as written). */
  readonly distinct: number;
  /** The most common value and how many rows carry it. */
  readonly commonest: { readonly value: string; readonly count: number } | null;
  /** Two or more values and all the same. */
  readonly allIdentical: boolean;
  /** Row indices per check. */
  readonly generationTime: readonly number[];
  readonly future: readonly number[];
  readonly dateOnly: readonly number[];
  readonly olderThanLastModified: readonly number[];
  readonly invalid: readonly number[];
  /** The instant "future" is measured from (ms), and what it is. */
  readonly reference: { readonly at: number; readonly what: string } | null;
}

/** When the crawl read the sitemaps: the latest fetch, else the crawl's end, else the report's time. */
export function lastmodReference(data: ReportData): { at: number; what: string } | null {
  let latest = Number.NaN;
  for (const sitemap of data.sitemaps) {
    const at = sitemap.fetchedAt === null ? Number.NaN : Date.parse(sitemap.fetchedAt);
    if (!Number.isNaN(at) && !(at <= latest)) latest = at;
  }
  if (!Number.isNaN(latest)) return { at: latest, what: 'the last sitemap fetch' };
  const finished = data.crawl.finishedAt === null ? Number.NaN : Date.parse(data.crawl.finishedAt);
  if (!Number.isNaN(finished)) return { at: finished, what: 'the end of the crawl' };
  const generated = Date.parse(data.generatedAt);
  return Number.isNaN(generated) ? null : { at: generated, what: 'the report time' };
}

export function checkLastmods(data: ReportData): LastmodFindings {
  const fetchTimes = data.sitemaps
    .map((s) => (s.fetchedAt === null ? Number.NaN : Date.parse(s.fetchedAt)))
    .filter((t) => !Number.isNaN(t))
    .sort((a, b) => a - b);
  const reference = lastmodReference(data);
  const counts = new Map<string, number>();
  const generationTime: number[] = [];
  const future: number[] = [];
  const dateOnly: number[] = [];
  const older: number[] = [];
  const invalid: number[] = [];
  let withLastmod = 0;
  data.pages.forEach((row, index) => {
    const value = row[COL.sitemapLastmod];
    if (value === null) return;
    withLastmod++;
    counts.set(value, (counts.get(value) ?? 0) + 1);
    const parsed = parseW3cDatetime(value);
    if (parsed === null) {
      invalid.push(index);
      return;
    }
    if (parsed.dateOnly) dateOnly.push(index);
    else if (nearAny(fetchTimes, parsed.start, CLOCK_SKEW_MS)) generationTime.push(index);
    if (reference !== null) {
      const surelyLater = parsed.dateOnly
        ? parsed.start - EARLIEST_ZONE_MS > reference.at
        : parsed.start > reference.at + CLOCK_SKEW_MS;
      if (surelyLater) future.push(index);
    }
    const header = row[COL.lastModified];
    const modified = header === null ? Number.NaN : Date.parse(header);
    if (!Number.isNaN(modified)) {
      const isOlder = parsed.dateOnly
        ? modified >= parsed.end + LATEST_ZONE_MS
        : modified - parsed.start >= 1000;
      if (isOlder) older.push(index);
    }
  });
  let commonest: { value: string; count: number } | null = null;
  for (const [value, count] of counts) {
    if (commonest === null || count > commonest.count) commonest = { value, count };
  }
  return {
    withLastmod,
    distinct: counts.size,
    commonest,
    allIdentical: withLastmod >= 2 && counts.size === 1,
    generationTime,
    future,
    dateOnly,
    olderThanLastModified: older,
    invalid,
    reference,
  };
}

/** Whether some value of the sorted `times` lies within `tolerance` of `at` (binary search). */
export function nearAny(times: readonly number[], at: number, tolerance: number): boolean {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] as number) < at - tolerance) low = middle + 1;
    else high = middle;
  }
  const candidate = times[low];
  return candidate !== undefined && candidate <= at + tolerance;
}
