// sitemap (sitemap.js): its SAX-based parser streams.

import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { parseSitemapIndex, type SitemapItem, XMLToSitemapItemStream } from 'sitemap';
import { FILE_CHUNK, localUrl, type SitemapReader } from './sitemap-readers.ts';
import { SHOP_ORIGIN } from './sitemap-shop.ts';

/**
 * sitemap (sitemap.js): its SAX-based `XMLToSitemapItemStream` on a file stream, through
 * zlib for `.gz` (it does not detect gzip). For an index, over HTTP: `parseSitemapIndex`,
 * then each part fetched and parsed in order.
 */
export const sitemapJs: SitemapReader = {
  name: 'sitemap',
  via: 'file stream, XMLToSitemapItemStream',
  overHttp: false,
  viaIndex: 'HTTP, fetch + parseSitemapIndex + XMLToSitemapItemStream',
  reads: ['urlset', 'index'],
  async read(target, collect) {
    const locs: string[] = [];
    if (target.kind === 'urlset') {
      const source = createReadStream(target.path, { highWaterMark: FILE_CHUNK });
      const { count, problems } = await sitemapJsUrlset(
        target.path.endsWith('.gz') ? source.pipe(createGunzip()) : source,
        collect ? locs : null,
      );
      return { count, locs, problems };
    }
    const get = (url: string) => fetchReadable(localUrl(url, SHOP_ORIGIN, target.server));
    const index = await parseSitemapIndex(await get(target.url));
    let count = 0;
    let problems = 0;
    for (const part of index) {
      const outcome = await sitemapJsUrlset(await get(part.url), collect ? locs : null);
      count += outcome.count;
      problems += outcome.problems;
    }
    return { count, locs, problems };
  },
};

/** The URLs of one `<urlset>` stream, through sitemap.js's parser. */
export async function sitemapJsUrlset(
  source: Readable,
  locs: string[] | null,
): Promise<{ count: number; problems: number }> {
  // logger: false, or it logs to the console for every URL past its 50,000 cap.
  const parser = new XMLToSitemapItemStream({ logger: false });
  let count = 0;
  parser.on('data', (item: SitemapItem) => {
    count++;
    locs?.push(item.url);
  });
  await pipeline(source, parser);
  return { count, problems: parser.errorCount };
}

async function fetchReadable(url: string): Promise<Readable> {
  const response = await fetch(url);
  if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}: ${url}`);
  return Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
}
