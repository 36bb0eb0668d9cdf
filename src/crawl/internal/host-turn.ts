import { originOf } from '../../url/index.ts';
import type { CrawlState } from '../crawl-state.ts';

/**
 * Waits until the host of a URL may be sent a request (see {@link hostTurn}); rejects when
 * `signal` fires first (the request's time is up), without taking the turn.
 */
export type WaitForTurn = (url: string, signal: AbortSignal) => Promise<void>;

/**
 * The wait before a request outside the queue (a sitemap, a feed, another host's robots.txt,
 * and each redirect on the way), for the host's turn in the crawl state, as every worker's
 * requests wait.
 */
export function hostTurn(
  state: CrawlState,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): WaitForTurn {
  return async (url, signal) => {
    // Not http(s): the request fails on its own, without a turn to wait for.
    const origin = originOf(url);
    if (origin === null) return;
    for (let wait = await state.reserve(origin); wait > 0; wait = await state.reserve(origin)) {
      // The request's signal fires with the worker's too (see Deadline).
      await sleep(wait, signal);
      signal.throwIfAborted();
    }
  };
}
