import { openFileChunks } from './internal/file-chunks.ts';
import {
  entriesOf,
  type ReadSitemapOptions,
  readBatches,
  type SitemapReading,
  wholeDocument,
} from './read-sitemap.ts';
import type { SitemapDocument } from './types.ts';

/**
 * {@link parseSitemap} on a file: entries as they are read, with the same options, results
 * and caps as on a stream of the same bytes (gzip found from the magic bytes). Faster than a
 * `fs.createReadStream`: the file is read up to a MiB at a time into two buffers of its own,
 * each read made while the parser works through the one before. It is opened when
 * iteration starts and closed when it ends, however it ends. A file that cannot be read at
 * all (no such file, a directory, no permission, a first read that fails) makes the
 * iteration throw an `io-failed` WaymarkError; a read that fails later is a `read-error`
 * diagnostic, the entries before it kept.
 *
 * @example
 * ```ts
 * const reading = parseSitemapFile('sitemap.xml.gz');
 * for await (const entry of reading) console.log(entry.loc);
 * console.log(reading.kind, reading.diagnostics.length);
 * ```
 */
export function parseSitemapFile(path: string, options: ReadSitemapOptions = {}): SitemapReading {
  return entriesOf(readBatches(() => openFileChunks(path), options));
}

/**
 * {@link readSitemap} on a file: `{ kind, entries, diagnostics }` at once; rejects with an
 * `io-failed` WaymarkError when the file cannot be read at all.
 *
 * @example
 * ```ts
 * const { kind, entries, diagnostics } = await readSitemapFile('sitemap.xml');
 * ```
 */
export function readSitemapFile(
  path: string,
  options: ReadSitemapOptions = {},
): Promise<SitemapDocument> {
  return wholeDocument(parseSitemapFile(path, options));
}
