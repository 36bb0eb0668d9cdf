/**
 * The Node-only part of `waymark/sitemap`: reading sitemap files and writing them to disk.
 * Kept out of the main entry point so that `waymark/sitemap` (reader, string writer, walker)
 * loads in any runtime with `fetch`, including the Web-standard site handler's.
 *
 * @example
 * ```ts
 * import { parseSitemapFile, writeSitemaps } from 'waymark/sitemap/node';
 * for await (const entry of parseSitemapFile('old/sitemap.xml.gz')) console.log(entry.loc);
 * const { url } = await writeSitemaps(entries, { dir: 'public', baseUrl: 'https://example.com/' });
 * ```
 *
 * @module
 */
export { parseSitemapFile, readSitemapFile } from './read-sitemap-file.ts';
export type { WriteSitemapsOptions, WriteSitemapsResult } from './write-sitemaps.ts';
export { writeSitemaps } from './write-sitemaps.ts';
