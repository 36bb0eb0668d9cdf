import type { CrawlResult } from '../crawl-state.ts';
import { looksLikeFeed } from './feeds.ts';

/**
 * The key of a page result's `data` JSON under which the feeds the page names are kept: no
 * field of a sitemap entry, so `crawlSitemapPages` leaves it out.
 */
export const FEEDS_KEY = 'feeds';

/**
 * Results of pages left out whose `data` may hold the feeds they name (see
 * {@link pageData}): a page that was read, whose detail is never JSON (a canonical URL, or
 * none). Another reason's detail may be anything a server sent (a Content-Type).
 */
const READ_PAGE_REASONS: ReadonlySet<string> = new Set([
  'canonical-elsewhere',
  'noindex-meta',
  'noindex-header',
  'excluded',
]);

/**
 * The `data` of a page left out: its detail as it is, or, when the page names feeds, JSON
 * with the detail and the feeds (`{"detail":…,"feeds":[…]}`).
 */
export function pageData(detail: string | null, feeds: readonly string[]): string | null {
  if (feeds.length === 0) return detail;
  return JSON.stringify(detail === null ? { [FEEDS_KEY]: feeds } : { detail, [FEEDS_KEY]: feeds });
}

/**
 * A recorded page's `data` as the JSON object it is (see {@link pageData}; a listed page's
 * is its sitemap extras), or null: not JSON, or not a result whose data may be.
 */
function pageJson(result: CrawlResult): Record<string, unknown> | null {
  const { data } = result;
  if (data === null || !data.startsWith('{')) return null;
  const page =
    result.outcome === 'listed' ||
    (result.outcome === 'skipped' && READ_PAGE_REASONS.has(result.reason ?? ''));
  if (!page) return null;
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The feeds a recorded page names, as its result keeps them; none for any other result. */
function feedsOfResult(result: CrawlResult): readonly unknown[] {
  const feeds = pageJson(result)?.[FEEDS_KEY];
  return Array.isArray(feeds) ? feeds : [];
}

/**
 * The detail of a result left out or failed, as {@link pageData} kept it (the canonical URL,
 * the redirect target, the media type, the error message); null for a listed page, whose
 * data is its sitemap extras.
 */
export function pageDetail(result: CrawlResult): string | null {
  if (result.outcome === 'listed' || result.data === null) return null;
  const json = pageJson(result);
  if (json === null) return result.data;
  return typeof json['detail'] === 'string' ? json['detail'] : null;
}

/** The crawl's view of URLs, to check each candidate as it was checked when found. */
export interface FeedRules {
  normalize(url: string): string | null;
  onSite(url: string): boolean;
}

/**
 * The crawl's possible feeds, read from its state, so the run that confirms them sees what
 * every worker and every earlier run found: the feeds its pages name (kept with their
 * results), and the feed-looking URLs its sitemaps name (or a URL they name redirects to:
 * the state marks both as in a sitemap). Sorted, each once.
 */
export async function feedCandidates(
  results: AsyncIterable<CrawlResult>,
  rules: FeedRules,
): Promise<string[]> {
  const candidates = new Set<string>();
  for await (const result of results) {
    if (result.inSitemap && looksLikeFeed(result.url)) candidates.add(result.url);
    for (const feed of feedsOfResult(result)) {
      const url = typeof feed === 'string' ? rules.normalize(feed) : null;
      if (url !== null && rules.onSite(url)) candidates.add(url);
    }
  }
  return [...candidates].sort();
}
