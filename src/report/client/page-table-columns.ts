// The columns page-row lists can show, by name; each list picks the ones it needs.
import { MAX_COUNTED_INLINKS } from '../../crawl/internal/report-counts.ts';
import { formatCount } from './format.ts';
import { COL, indexabilityOf, type PageRow } from './page-columns.ts';
import type { Cell, ColumnSpec } from './table-query.ts';

const count = (value: Cell) => (typeof value === 'number' ? formatCount(value) : String(value));
/** The crawl counts in-links up to a cap: at it, the count is "at least". */
const inlinkCount = (value: Cell) =>
  typeof value === 'number' && value >= MAX_COUNTED_INLINKS ? `${count(value)}+` : count(value);

export const PAGE_TABLE_COLUMNS = {
  url: {
    id: 'url',
    label: 'URL',
    filter: 'text',
    width: 340,
    link: true,
    value: (r) => r[COL.url],
  },
  status: {
    id: 'status',
    label: 'Status',
    filter: 'status',
    width: 90,
    numeric: true,
    value: (r) => r[COL.status],
  },
  outcome: {
    id: 'outcome',
    label: 'Outcome',
    filter: 'select',
    width: 110,
    value: (r) => r[COL.outcome],
  },
  reason: {
    id: 'reason',
    label: 'Reason',
    filter: 'select',
    width: 170,
    value: (r) => r[COL.reason],
  },
  indexability: {
    id: 'indexability',
    label: 'Indexability',
    filter: 'select',
    width: 180,
    value: indexabilityOf,
  },
  detail: {
    id: 'detail',
    label: 'Detail',
    filter: 'text',
    width: 260,
    value: (r) => r[COL.detail],
  },
  depth: {
    id: 'depth',
    label: 'Depth',
    filter: 'range',
    width: 80,
    numeric: true,
    value: (r) => r[COL.depth],
  },
  inSitemap: {
    id: 'inSitemap',
    label: 'In sitemap',
    filter: 'select',
    width: 100,
    value: (r) => (r[COL.sitemaps] > 0 ? 'yes' : 'no'),
  },
  sitemaps: {
    id: 'sitemaps',
    label: 'Sitemaps',
    filter: 'range',
    width: 90,
    numeric: true,
    value: (r) => r[COL.sitemaps],
  },
  linked: {
    id: 'linked',
    label: 'Linked',
    filter: 'select',
    width: 90,
    value: (r) => (r[COL.linked] === 1 ? 'yes' : 'no'),
  },
  inlinks: {
    id: 'inlinks',
    label: 'Linked from',
    filter: 'range',
    width: 110,
    numeric: true,
    format: inlinkCount,
    value: (r) => r[COL.inlinks],
  },
  title: { id: 'title', label: 'Title', filter: 'text', width: 260, value: (r) => r[COL.title] },
  contentType: {
    id: 'contentType',
    label: 'Content type',
    filter: 'select',
    width: 150,
    value: (r) => r[COL.contentType],
  },
  ms: {
    id: 'ms',
    label: 'Time (ms)',
    filter: 'range',
    width: 100,
    numeric: true,
    format: count,
    value: (r) => r[COL.ms],
  },
  sitemapLastmod: {
    id: 'sitemapLastmod',
    label: 'Sitemap lastmod',
    filter: 'text',
    width: 210,
    value: (r) => r[COL.sitemapLastmod],
  },
  lastModified: {
    id: 'lastModified',
    label: 'Last-Modified',
    filter: 'text',
    width: 210,
    value: (r) => r[COL.lastModified],
  },
  lastmod: {
    id: 'lastmod',
    label: 'Written lastmod',
    filter: 'text',
    width: 210,
    value: (r) => r[COL.lastmod],
  },
  rule: {
    id: 'rule',
    label: 'Deciding rule',
    filter: 'text',
    width: 200,
    value: (r) => {
      const rule = r[COL.rule];
      return rule === null ? null : `${rule[0] === 'allow' ? 'Allow' : 'Disallow'}: ${rule[1]}`;
    },
  },
  ruleLine: {
    id: 'ruleLine',
    label: 'Line',
    filter: 'range',
    width: 70,
    numeric: true,
    value: (r) => r[COL.rule]?.[2] ?? null,
  },
} satisfies Record<string, ColumnSpec<PageRow>>;

export type PageColumnName = keyof typeof PAGE_TABLE_COLUMNS;

export function pageColumns(...names: PageColumnName[]): ColumnSpec<PageRow>[] {
  return names.map((name) => PAGE_TABLE_COLUMNS[name]);
}

/** The columns of the All URLs table, in order. */
export const ALL_URL_COLUMNS: readonly PageColumnName[] = [
  'url',
  'status',
  'outcome',
  'reason',
  'depth',
  'inSitemap',
  'inlinks',
  'title',
  'contentType',
  'ms',
  'sitemapLastmod',
  'lastmod',
  'detail',
];

/** The columns the search boxes of page lists look in. */
export const PAGE_SEARCH_COLUMNS: readonly PageColumnName[] = ['url', 'title'];
