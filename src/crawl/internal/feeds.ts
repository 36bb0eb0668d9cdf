import { type FetchFunction, fetchWithLimits } from '../../http/index.ts';
import { readSitemap } from '../../sitemap/index.ts';

/** URLs that are usually feeds: `/feed`, `/rss`, `/atom`, `.rss`, `.atom`, `atom.xml`, `rss.xml`, `feed.xml`. */
const FEED_PATH =
  /(?:^|\/)(?:feed|rss|atom)(?:\/|$)|\.(?:rss|atom)$|(?:^|\/)(?:atom|rss|feed)\.xml$/i;

export function looksLikeFeed(url: string): boolean {
  return FEED_PATH.test(URL.parse(url)?.pathname ?? '');
}

export interface ConfirmFeedsOptions {
  /** Whether robots.txt lets the crawler fetch `url`. */
  readonly allowed: (url: string) => boolean;
  /** A fetch that waits for the origin's turn. */
  readonly fetch: FetchFunction;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly warn: (message: string) => Promise<void>;
  readonly signal?: AbortSignal;
}

/**
 * The candidates that really are feeds, sorted: each is fetched (when robots.txt allows) and
 * read with the sitemap reader, and kept when it reads as RSS or Atom.
 */
export async function confirmFeeds(
  candidates: readonly string[],
  options: ConfirmFeedsOptions,
): Promise<string[]> {
  const feeds: string[] = [];
  for (const url of [...candidates].sort()) {
    if (!options.allowed(url)) continue;
    try {
      const response = await fetchWithLimits(url, {
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        headers: {
          'user-agent': options.userAgent,
          accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5',
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (response.status !== 200) continue;
      const contentType = response.headers.get('content-type');
      const { kind } = await readSitemap(response.body, {
        url: response.url,
        ...(contentType ? { contentType } : {}),
      });
      if (kind === 'rss' || kind === 'atom') feeds.push(url);
    } catch (error) {
      options.signal?.throwIfAborted();
      await options.warn(`feed ${url} could not be read: ${(error as Error).message}`);
    }
  }
  return feeds;
}
