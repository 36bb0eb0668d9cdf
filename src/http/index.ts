/**
 * The one place waymark talks to the network: GET a URL under a time cap, a size cap (counted
 * after content decoding) and a redirect cap, with every redirect hop visible, whole or as a
 * stream; and read what a server asks for in `Retry-After`.
 *
 * @example
 * ```ts
 * import { fetchWithLimits } from 'waymark/http';
 * const response = await fetchWithLimits('https://example.com/robots.txt', {
 *   headers: { 'user-agent': 'MyBot/1.0' },
 * });
 * response.status; // 200, 404, 500...: any status is a result
 * ```
 *
 * @module
 */
export type {
  FetchedResponse,
  FetchedResponseHead,
  FetchFunction,
  FetchLimitsOptions,
  OpenedResponse,
} from './fetch-with-limits.ts';
export { DEFAULT_FETCH_LIMITS, fetchWithLimits, openWithLimits } from './fetch-with-limits.ts';
export { retryAfterMs } from './retry-after.ts';
