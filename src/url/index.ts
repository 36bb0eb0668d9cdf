/**
 * URLs as the crawler keeps them: one normal form for every link ({@link normalizeUrl}),
 * origin comparison with an optional `www.`-blind mode ({@link sameSite}), and path globs
 * ({@link pathFilter}). Pure functions over strings; the WHATWG URL parser does the parsing.
 *
 * @example
 * ```ts
 * import { normalizeUrl, pathFilter, sameSite } from 'waymark/url';
 * const url = normalizeUrl('../docs/?utm_source=x#intro', { base: 'https://example.com/a/b' });
 * // 'https://example.com/docs/'
 * sameSite(url!, 'https://www.example.com', { canonicalHost: true }); // true
 * pathFilter({ exclude: ['/docs/**'] })(url!); // false
 * ```
 *
 * @module
 */
export type { NormalizeOptions } from './normalize-url.ts';
export { normalizeUrl } from './normalize-url.ts';
export type { SameSiteOptions } from './origin.ts';
export { canonicalHostOf, originOf, sameSite } from './origin.ts';
export type { PathFilterOptions } from './path-filter.ts';
export { pathFilter } from './path-filter.ts';
export { isTrackingParam } from './tracking-params.ts';
export { isUrlTooLong, MAX_REQUEST_URL_LENGTH } from './url-length.ts';
