import type { CrawlRecord, NewCrawl } from '../crawl-state.ts';
import type { Statements } from './sqlite-statements.ts';

/**
 * The crawl record's keys in the `meta` table. Values are text; numbers in decimal, flags
 * `1`/`0`. `finished-at` is absent until a worker claims the finish.
 */
export const META = {
  start: 'start',
  options: 'options',
  gapMs: 'gap-ms',
  createdAt: 'created-at',
  sitemapsRead: 'sitemaps-read',
  sitemapUrls: 'sitemap-urls',
  depthCut: 'depth-cut',
  requested: 'requested',
  finishedAt: 'finished-at',
} as const;

/** Every meta value, by key. */
export function readMeta(s: Statements): Map<string, string> {
  const values = new Map<string, string>();
  for (const row of s.allMeta.all()) values.set(String(row['key']), String(row['value']));
  return values;
}

/** The record in `meta`, or null when no crawl was created. */
export function readRecord(s: Statements): CrawlRecord | null {
  const meta = readMeta(s);
  const start = meta.get(META.start);
  if (start === undefined) return null;
  const number = (key: string) => Number(meta.get(key) ?? 0) || 0;
  const finishedAt = meta.get(META.finishedAt);
  return {
    start,
    options: meta.get(META.options) ?? '',
    gapMs: number(META.gapMs),
    createdAt: number(META.createdAt),
    sitemapsRead: meta.get(META.sitemapsRead) === '1',
    sitemapUrls: number(META.sitemapUrls),
    depthCut: number(META.depthCut),
    requested: number(META.requested),
    finishedAt: finishedAt === undefined ? null : Number(finishedAt),
  };
}

/** Stores a new crawl's record (in the caller's transaction); counters already kept stay. */
export function writeRecord(s: Statements, crawl: NewCrawl, createdAt: number): void {
  s.setMeta.run(META.start, crawl.start);
  s.setMeta.run(META.options, crawl.options);
  s.setMeta.run(META.gapMs, String(crawl.gapMs));
  s.setMeta.run(META.createdAt, String(createdAt));
  for (const key of [META.sitemapsRead, META.sitemapUrls, META.depthCut, META.requested]) {
    s.initMeta.run(key, '0');
  }
}
