// The site's own sitemaps against what the crawl found. "In the sitemap" here means the site's
// sitemap files (row `sitemaps` > 0), not the sitemap waymark wrote.
import { MAX_SITEMAP_URLS } from '../../sitemap/internal/protocol-limits.ts';
import type { ReportData, ReportSitemap } from '../report-data.ts';
import { COL, type PageRow, REDIRECT_REASONS } from './page-columns.ts';

/** The reader's diagnostics for a file over sitemaps.org's limits (50,000 URLs, 50 MiB). */
const OVER_LIMIT_CODES: ReadonlySet<string> = new Set(['over-protocol-urls', 'over-protocol-size']);

export interface SitemapFindings {
  /** In a sitemap, crawled, and left out for a reason other than a redirect or a 4xx. */
  readonly listedNotIndexable: readonly number[];
  /** In a sitemap but answering with a redirect or a 4xx. */
  readonly listedRedirectOr4xx: readonly number[];
  /** In a sitemap and linked from no crawled page. */
  readonly orphans: readonly number[];
  /** Indexable (waymark listed it) but in none of the site's sitemaps. */
  readonly missingFromSitemap: readonly number[];
  /** Named by more than one sitemap file. */
  readonly inSeveralSitemaps: readonly number[];
  /** Indices into data.sitemaps of files over the protocol's limits. */
  readonly overLimits: readonly number[];
  /** Indices into data.sitemaps of files with at least one diagnostic. */
  readonly withDiagnostics: readonly number[];
  /** Files read (a kind is known) and files that were not. */
  readonly read: number;
  readonly notRead: number;
}

function redirectOr4xx(row: PageRow): boolean {
  const reason = row[COL.reason];
  if (reason !== null && (REDIRECT_REASONS.has(reason) || reason === 'client-error')) return true;
  const status = row[COL.status];
  return status !== null && status >= 300 && status < 500 && row[COL.outcome] !== 'listed';
}

/** More than 50,000 entries (URLs, or sitemaps of an index), or the reader said so (size). */
export function overProtocolLimits(sitemap: ReportSitemap): boolean {
  return (
    sitemap.entries > MAX_SITEMAP_URLS ||
    sitemap.diagnostics.some((diagnostic) => OVER_LIMIT_CODES.has(diagnostic.code))
  );
}

export function checkSitemaps(data: ReportData): SitemapFindings {
  const listedNotIndexable: number[] = [];
  const listedRedirectOr4xx: number[] = [];
  const orphans: number[] = [];
  const missingFromSitemap: number[] = [];
  const inSeveralSitemaps: number[] = [];
  data.pages.forEach((row, index) => {
    const inSitemaps = row[COL.sitemaps];
    if (inSitemaps === 0) {
      if (row[COL.outcome] === 'listed') missingFromSitemap.push(index);
      return;
    }
    if (inSitemaps > 1) inSeveralSitemaps.push(index);
    if (row[COL.linked] === 0) orphans.push(index);
    if (row[COL.outcome] === 'listed') return;
    if (redirectOr4xx(row)) listedRedirectOr4xx.push(index);
    else listedNotIndexable.push(index);
  });
  const overLimits: number[] = [];
  const withDiagnostics: number[] = [];
  let read = 0;
  data.sitemaps.forEach((sitemap, index) => {
    if (overProtocolLimits(sitemap)) overLimits.push(index);
    if (sitemap.diagnostics.length + sitemap.diagnosticsDropped > 0) withDiagnostics.push(index);
    if (sitemap.kind !== null) read++;
  });
  return {
    listedNotIndexable,
    listedRedirectOr4xx,
    orphans,
    missingFromSitemap,
    inSeveralSitemaps,
    overLimits,
    withDiagnostics,
    read,
    notRead: data.sitemaps.length - read,
  };
}
