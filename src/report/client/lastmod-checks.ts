// The lastmod checks of the crawl report: the sitemap's own checks (checkLastmodSanity, the
// same that `sitemap validate` and the crawl summary run), over the report's rows, with
// every row they name kept so each section can list them.
import {
  checkLastmodSanity,
  type LastmodFindingCode,
  type LastmodSanity,
} from '../../sitemap/lastmod-sanity.ts';
import type { ReportData } from '../report-data.ts';
import { COL } from './page-columns.ts';

export { LASTMOD_CLOCK_SKEW_MS, LASTMOD_IDENTICAL_MIN } from '../../sitemap/lastmod-sanity.ts';

export interface LastmodFindings {
  /** Rows with a `<lastmod>` in the site's sitemaps. */
  readonly withLastmod: number;
  /** Distinct values among them (as written). */
  readonly distinct: number;
  /** The most common value and how many rows carry it. */
  readonly commonest: { readonly value: string; readonly count: number } | null;
  /** Enough values, and all the same (`lastmod-all-identical`). */
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
  const readAt = data.sitemaps
    .map((s) => (s.fetchedAt === null ? Number.NaN : Date.parse(s.fetchedAt)))
    .filter((t) => !Number.isNaN(t));
  const reference = lastmodReference(data);
  // One entry per row, so an example's index is its row.
  const sanity = checkLastmodSanity(
    data.pages.map((row) => ({
      loc: row[COL.url],
      lastmod: row[COL.sitemapLastmod],
      lastModified: row[COL.lastModified],
    })),
    {
      readAt,
      ...(reference === null ? {} : { now: reference.at }),
      examples: Number.POSITIVE_INFINITY,
    },
  );
  const rows = (code: LastmodFindingCode) => rowsOf(sanity, code);
  const counts = new Map<string, number>();
  for (const row of data.pages) {
    const value = row[COL.sitemapLastmod];
    if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  let commonest: { value: string; count: number } | null = null;
  for (const [value, count] of counts) {
    if (commonest === null || count > commonest.count) commonest = { value, count };
  }
  return {
    withLastmod: sanity.withLastmod,
    distinct: counts.size,
    commonest,
    allIdentical: sanity.findings.some((f) => f.code === 'lastmod-all-identical'),
    generationTime: rows('lastmod-generation-time'),
    future: rows('lastmod-future'),
    dateOnly: rows('lastmod-date-only'),
    olderThanLastModified: rows('lastmod-older-than-page'),
    invalid: rows('lastmod-invalid'),
    reference,
  };
}

function rowsOf(sanity: LastmodSanity, code: LastmodFindingCode): number[] {
  return sanity.findings.find((f) => f.code === code)?.examples.map((e) => e.index) ?? [];
}
