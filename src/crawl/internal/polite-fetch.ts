import type { FetchFunction } from '../../http/index.ts';
import { originOf } from '../../url/index.ts';
import type { CrawlState } from '../crawl-state.ts';
import type { RequestContext } from './request-context.ts';

/**
 * A fetch for requests outside the queue (sitemaps, feeds, another host's robots.txt) that
 * waits for the host's turn in the crawl state, as every worker's requests do.
 */
export function politeFetch(
  state: CrawlState,
  context: RequestContext,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): FetchFunction {
  const fetch = context.fetch ?? globalThis.fetch;
  return async (url, init) => {
    // Not http(s): the request fails on its own, without a turn to wait for.
    const origin = originOf(url);
    if (origin !== null) {
      for (let wait = await state.reserve(origin); wait > 0; wait = await state.reserve(origin)) {
        await sleep(wait, context.signal);
      }
    }
    return fetch(url, init);
  };
}
