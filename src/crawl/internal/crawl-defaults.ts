import { MAX_REQUEST_URL_LENGTH } from '../../url/index.ts';

/**
 * The crawl's limits when an option is left out.
 *
 * @example
 * ```ts
 * crawl({ start: 'https://example.com/', maxPages: 4 * CRAWL_DEFAULTS.maxPages });
 * ```
 */
export const CRAWL_DEFAULTS = {
  maxPages: 5000,
  maxDepth: 10,
  concurrency: 8,
  rate: 4,
  maxCrawlDelay: 30,
  timeoutMs: 15_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  maxRetries: 2,
  /** URLs longer than this are left out (`url-too-long`), never requested. */
  maxUrlLength: MAX_REQUEST_URL_LENGTH,
} as const;
