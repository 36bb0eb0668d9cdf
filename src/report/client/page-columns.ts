// Named indices into a page row, so code reads `row[COL.status]` and not `row[1]`. The
// literal types give each index its tuple element's type; page-columns.test.ts checks every
// literal against PAGE_COLUMNS, so a reordered contract fails a test rather than shifting data.
import { PAGE_COLUMNS, type ReportPageRow } from '../report-data.ts';

type ColumnName = (typeof PAGE_COLUMNS)[number];

function indexOf<const N extends ColumnName>(name: N): number {
  return PAGE_COLUMNS.indexOf(name);
}

export const COL = {
  url: indexOf('url') as 0,
  status: indexOf('status') as 1,
  outcome: indexOf('outcome') as 2,
  reason: indexOf('reason') as 3,
  detail: indexOf('detail') as 4,
  depth: indexOf('depth') as 5,
  via: indexOf('via') as 6,
  linked: indexOf('linked') as 7,
  sitemaps: indexOf('sitemaps') as 8,
  sitemapLastmod: indexOf('sitemapLastmod') as 9,
  lastModified: indexOf('lastModified') as 10,
  contentType: indexOf('contentType') as 11,
  ms: indexOf('ms') as 12,
  title: indexOf('title') as 13,
  inlinks: indexOf('inlinks') as 14,
  rule: indexOf('rule') as 15,
  lastmod: indexOf('lastmod') as 16,
} as const;

export type PageRow = ReportPageRow;

/** Skip reasons that come from following a redirect; `detail` is then the target. */
export const REDIRECT_REASONS: ReadonlySet<string> = new Set([
  'redirect',
  'redirect-off-origin',
  'too-many-redirects',
]);

/** A short name for why a row is or is not in the written sitemap: `listed`, a skip reason, or `error: cause`. */
export function indexabilityOf(row: PageRow): string {
  if (row[COL.outcome] === 'listed') return 'listed';
  if (row[COL.outcome] === 'error') return `error: ${row[COL.reason] ?? 'unknown'}`;
  return row[COL.reason] ?? 'skipped';
}
