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
import type { SitemapUrlInput } from './types.ts';
import type { WriteSitemapsOptions, WriteSitemapsResult } from './write-sitemaps.ts';

export { parseSitemapFile, readSitemapFile } from './read-sitemap-file.ts';
export type { WriteSitemapsOptions, WriteSitemapsResult };

/**
 * Writes sitemaps for any number of entries to disk, streaming: memory does not grow with
 * the number of entries. Everything that fits in one file becomes `sitemap.xml`; more
 * becomes `sitemaps/sitemap-0001.xml`, ... plus `sitemap_index.xml` naming each part by
 * its URL under `baseUrl`. A part is closed before the next entry would take it past
 * `maxUrls` or `maxBytes` (closing tag counted). Entries are checked as by
 * `UrlsetWriter` (`waymark/sitemap`); the `extensions` option must name every extension they use.
 *
 * Every file is written under a temporary name in its final directory, flushed to disk and
 * renamed only once all files are complete, parts before the index. If the entries throw,
 * an entry is invalid, there are no entries at all, or writing fails, the temporary files
 * are removed, the entries' iterator is closed, and no file under a final name has changed.
 * A final name that is a symbolic link is written through; an existing file keeps its
 * mode; a directory, device, FIFO or socket under a final name is refused. I/O failures
 * throw a `WaymarkError` with code `io-failed`; errors thrown by the entries' iterator are
 * passed on as they are.
 *
 * The writer's modules are loaded on the first call: a program that imports this entry point
 * only to read files does not load them (about 10 ms of a process's start).
 *
 * @example
 * ```ts
 * const result = await writeSitemaps(pages(), { dir: 'public', baseUrl: 'https://example.com/' });
 * // result.url: 'https://example.com/sitemap.xml', or '.../sitemap_index.xml' past 50,000 URLs
 * ```
 */
export async function writeSitemaps(
  entries: Iterable<SitemapUrlInput> | AsyncIterable<SitemapUrlInput>,
  options: WriteSitemapsOptions,
): Promise<WriteSitemapsResult> {
  const writer = await import('./write-sitemaps.ts');
  return writer.writeSitemaps(entries, options);
}
