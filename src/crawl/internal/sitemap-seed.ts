import type { FetchFunction } from '../../http/index.ts';
import { walkSitemaps } from '../../sitemap/index.ts';
import type { FrontierItem } from '../frontier.ts';
import { looksLikeFeed } from './feeds.ts';
import { PRIORITY_SITEMAP_URL } from './page-outcomes.ts';

/** URLs from the sitemaps go to the frontier this many at a time (one transaction each). */
const BATCH = 500;

export interface SitemapSeedOptions {
  /** The sitemaps (or sitemap indexes) to read. */
  readonly urls: readonly string[];
  /** A fetch that keeps to the origin's politeness, like every other request. */
  readonly fetch: FetchFunction;
  readonly userAgent: string;
  readonly signal?: AbortSignal;
  /** The crawl's URL normalisation; null for a URL it does not crawl. */
  readonly normalize: (url: string) => string | null;
  /** On the crawl's site. */
  readonly onSite: (url: string) => boolean;
  readonly originOf: (url: string) => string;
  /** Feed-looking URLs go here too (with `feeds`), to be confirmed at the end. */
  readonly feedCandidates: Set<string> | null;
  /** Queues a batch of the site's URLs from its sitemaps. */
  readonly add: (items: FrontierItem[]) => void;
}

/**
 * Reads the site's sitemaps as a stream and queues every URL on the site they name, ahead of
 * links, so orphan pages (no link reaches them) are crawled too. Throws when a sitemap cannot
 * be read; what was queued before stays queued.
 */
export async function seedFromSitemaps(options: SitemapSeedOptions): Promise<void> {
  if (options.urls.length === 0) return;
  let batch: FrontierItem[] = [];
  try {
    for await (const { entry } of walkSitemaps([...options.urls], {
      fetch: options.fetch,
      userAgent: options.userAgent,
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      const url = options.normalize(entry.loc);
      if (url === null || !options.onSite(url)) continue;
      if (options.feedCandidates !== null && looksLikeFeed(url)) options.feedCandidates.add(url);
      batch.push({
        url,
        origin: options.originOf(url),
        priority: PRIORITY_SITEMAP_URL,
        depth: 0,
        via: 'sitemap',
        kind: 'sitemap',
      });
      if (batch.length >= BATCH) {
        options.add(batch);
        batch = [];
      }
    }
  } finally {
    // What was read before a failure is queued all the same.
    if (batch.length > 0) options.add(batch);
  }
}
