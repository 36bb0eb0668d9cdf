import { MAX_REQUEST_URL_LENGTH } from '../../url/index.ts';

/**
 * waymark's version, as package.json says (a test keeps the two equal). A constant, not a
 * read of package.json at run time: the crawl module stays free of file access.
 */
export const WAYMARK_VERSION = '0.1.0';

/**
 * The longest workerTimeoutMs: a day. Its timers (twice it, plus a margin) and the server's
 * idle_in_transaction_session_timeout (an int of ms) must stay below 2^31 ms, about 24.8 days;
 * and a worker silent for a day is dead by any measure.
 */
export const MAX_WORKER_TIMEOUT_MS = 86_400_000;

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
  /** Bytes of one response body (a page, a feed), as `maxBytes` of `waymark/http`. */
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  maxRetries: 2,
  /** Sent with every request of the crawl (robots.txt, sitemaps, pages, feeds). */
  userAgent: `waymark/${WAYMARK_VERSION} (+https://github.com/waymark)`,
  /** URLs longer than this are left out (`url-too-long`), never requested. */
  maxUrlLength: MAX_REQUEST_URL_LENGTH,
} as const;
