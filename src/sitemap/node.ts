/**
 * The Node-only part of `waymark/sitemap`: writing sitemap files to disk. Kept out of the main
 * entry point so that `waymark/sitemap` (reader, string writer, walker) loads in any runtime
 * with `fetch`, including the Web-standard site handler's.
 *
 * @example
 * ```ts
 * import { writeSitemaps } from 'waymark/sitemap/node';
 * const { url } = await writeSitemaps(entries, { dir: 'public', baseUrl: 'https://example.com/' });
 * ```
 *
 * @module
 */
export type { WriteSitemapsOptions, WriteSitemapsResult } from './write-sitemaps.ts';
export { writeSitemaps } from './write-sitemaps.ts';
