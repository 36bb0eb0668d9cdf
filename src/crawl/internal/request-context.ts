import type { FetchFunction, FetchLimitsOptions } from '../../http/index.ts';
import type { SharedCrawlOptions, WorkerSettings } from './crawl-settings.ts';

/**
 * What every request of a crawl is made with (robots.txt, sitemaps, pages, feeds), built
 * once from the crawl's settings, so no fetch has its own defaults.
 */
export interface RequestContext {
  /** Sent as `User-Agent`. */
  readonly userAgent: string;
  /** Time for one request: connecting, the headers and the whole body. */
  readonly timeoutMs: number;
  /** Bytes of one response body (a page, a feed); robots.txt and sitemaps have their own caps. */
  readonly maxBytes: number;
  /** The fetch to call; undefined for the global one. */
  readonly fetch: FetchFunction | undefined;
  /** Stops every request of this worker. */
  readonly signal: AbortSignal | undefined;
  readonly now: () => number;
}

export function requestContext(
  shared: SharedCrawlOptions,
  worker: WorkerSettings,
  signal: AbortSignal | undefined,
): RequestContext {
  return {
    userAgent: shared.userAgent,
    timeoutMs: shared.timeoutMs,
    maxBytes: shared.maxBytes,
    fetch: worker.fetch,
    signal,
    now: worker.now,
  };
}

/**
 * The context as options of `openWithLimits` / `fetchWithLimits`, with the request's own
 * `accept`; `fetch` replaces the context's (a polite fetch that waits for the host's turn).
 */
export function limitsOf(
  context: RequestContext,
  accept: string,
  fetch: FetchFunction | undefined = context.fetch,
): FetchLimitsOptions & { timeoutMs: number; maxBytes: number } {
  return {
    ...(fetch ? { fetch } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    timeoutMs: context.timeoutMs,
    maxBytes: context.maxBytes,
    headers: { 'user-agent': context.userAgent, accept },
  };
}
