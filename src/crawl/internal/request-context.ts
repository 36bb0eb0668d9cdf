import { DEFAULT_FETCH_LIMITS, type FetchFunction } from '../../http/index.ts';
import type { OpenRequestOptions } from '../../http/internal/open-request.ts';
import type { SharedCrawlOptions, WorkerSettings } from './crawl-settings.ts';
import type { WaitForTurn } from './host-turn.ts';

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

/** How every request of a crawl follows redirects: up to `openWithLimits`'s default. */
export const FOLLOW_REDIRECTS = {
  maxRedirects: DEFAULT_FETCH_LIMITS.maxRedirects,
  followRedirects: true,
} as const;

/**
 * The context as options of `openRequest`, with the request's own `accept`: over the
 * caller's fetch if they gave one, else over waymark's own transport; redirects followed
 * (up to `openWithLimits`'s default) unless the caller says otherwise.
 */
export function requestOptions(
  context: RequestContext,
  accept: string,
  beforeSend?: WaitForTurn,
): OpenRequestOptions {
  return {
    fetch: context.fetch,
    signal: context.signal,
    timeoutMs: context.timeoutMs,
    maxBytes: context.maxBytes,
    ...FOLLOW_REDIRECTS,
    headers: { 'user-agent': context.userAgent, accept },
    beforeSend,
  };
}
