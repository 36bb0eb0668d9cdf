import type { CrawlResult, FrontierItem, TakenItem } from '../crawl-state.ts';
import { checkItem } from './crawl-state-input.ts';
import { itemCounts, parseFacts } from './report-counts.ts';
import type { ResultRow, TakenRow } from './sqlite-statements.ts';

/** The values bound by the insert statement, in its column order. */
export type InsertValues = [
  key: string,
  url: string | null,
  origin: string,
  kind: string,
  priority: number,
  depth: number,
  via: string | null,
  linked: number,
  inSitemap: number,
  redirects: number,
  inlinks: number,
  sitemaps: number,
  sitemapLastmod: string | null,
];

/**
 * The insert values of an item, checked; `url` is stored only when it differs from its key,
 * which is rare, so most rows hold the URL once.
 */
export function insertValues(item: FrontierItem, key: string): InsertValues {
  checkItem(item);
  const { url, origin, kind, priority, depth, via, redirects = 0 } = item;
  // A page is reached by a link (or is the start page); a sitemap item is named by a sitemap.
  const linked = kind === 'page' ? 1 : 0;
  const inSitemap = kind === 'sitemap' ? 1 : 0;
  const stored = url === key ? null : url;
  const { inlinks, sitemaps, sitemapLastmod } = itemCounts(item);
  return [
    key,
    stored,
    origin,
    kind,
    priority,
    depth,
    via,
    linked,
    inSitemap,
    redirects,
    inlinks,
    sitemaps,
    sitemapLastmod,
  ];
}

export function toTakenItem(row: TakenRow): TakenItem {
  const { id, url, origin, kind, priority, depth, via, attempts, redirects } = row;
  return { url, origin, priority, depth, via, kind, id, attempt: attempts, redirects };
}

export function toResult(row: ResultRow): CrawlResult {
  const { url, kind, depth, via, status, outcome, reason, lastmod, data } = row;
  return {
    url,
    kind,
    depth,
    via,
    status,
    outcome,
    reason,
    lastmod,
    finalUrl: row.final_url,
    data,
    linked: row.linked === 1,
    inSitemap: row.in_sitemap === 1,
    facts: parseFacts(row.facts),
    inlinks: row.inlinks,
    sitemaps: row.sitemaps,
    sitemapLastmod: row.sitemap_lastmod,
  };
}
