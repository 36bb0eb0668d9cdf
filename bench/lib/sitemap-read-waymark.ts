// waymark's ways in: its reader on files (as its docs give it, and on a Node file stream),
// and its HTTP walker.

import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSitemap, type SitemapReading, walkSitemaps } from '../../src/sitemap/index.ts';
import { parseSitemapFile } from '../../src/sitemap/node.ts';
import {
  FILE_CHUNK,
  localUrl,
  type SitemapReader,
  WAYMARK_STREAM_READER_NAME,
} from './sitemap-readers.ts';
import { SHOP_ORIGIN } from './sitemap-shop.ts';

/**
 * waymark's caps, raised for the 1,000,000-URL documents (about 130 MB of XML): its defaults
 * stop at 100 MiB and 1,000,000 entries, and its HTTP reader at 50 MiB downloaded.
 */
export const WAYMARK_READ_OPTIONS = {
  maxBytes: 1024 * 1024 * 1024,
  maxEntries: 2_000_000,
} as const;
const WAYMARK_WALK_OPTIONS = {
  ...WAYMARK_READ_OPTIONS,
  maxDownloadBytes: 1024 * 1024 * 1024,
  timeoutMs: 300_000,
} as const;

/**
 * waymark reading files, each opened by `open`; gzip found from the magic bytes. For an
 * index, the index file and then each part it names, as files: the parts' URLs on the shop
 * map to the files beside the index.
 */
function fileReader(
  name: string,
  via: string,
  open: (path: string) => SitemapReading,
): SitemapReader {
  return {
    name,
    via,
    viaIndex: `files, ${via} on the index, then on each part`,
    overHttp: false,
    reads: ['urlset', 'index'],
    async read(target, collect) {
      const locs: string[] = [];
      let count = 0;
      let problems = 0;
      const readFile = async (path: string, onEntry: (loc: string) => void) => {
        const reading = open(path);
        for await (const entry of reading) onEntry(entry.loc);
        problems += reading.diagnostics.length;
      };
      if (target.kind === 'urlset') {
        await readFile(target.path, (loc) => {
          count++;
          if (collect) locs.push(loc);
        });
        return { count, locs, problems };
      }
      const parts: string[] = [];
      await readFile(target.path, (loc) => parts.push(loc));
      for (const part of parts) {
        if (!part.startsWith(`${SHOP_ORIGIN}/`)) throw new Error(`part off the shop: ${part}`);
        const path = join(dirname(target.path), ...new URL(part).pathname.slice(1).split('/'));
        await readFile(path, (loc) => {
          count++;
          if (collect) locs.push(loc);
        });
      }
      return { count, locs, problems };
    },
  };
}

/** waymark's reader for files, as its docs give it: `parseSitemapFile`. */
export const waymarkFile = fileReader('waymark', 'parseSitemapFile', (path) =>
  parseSitemapFile(path, WAYMARK_READ_OPTIONS),
);

/** The same reader on a Node file stream (`fs.createReadStream`, 64 KiB reads). */
export const waymarkFileStream = fileReader(
  WAYMARK_STREAM_READER_NAME,
  'file stream, parseSitemap',
  (path) =>
    parseSitemap(createReadStream(path, { highWaterMark: FILE_CHUNK }), WAYMARK_READ_OPTIONS),
);

/** waymark's HTTP walker: fetches the document, and for an index every part, in order. */
export const waymarkHttp: SitemapReader = {
  name: 'waymark (HTTP)',
  via: 'HTTP, walkSitemaps',
  overHttp: true,
  reads: ['urlset', 'index'],
  async read(target, collect) {
    let count = 0;
    let problems = 0;
    const locs: string[] = [];
    const walk = walkSitemaps(target.url, {
      ...WAYMARK_WALK_OPTIONS,
      fetch: (url, init) => fetch(localUrl(url, SHOP_ORIGIN, target.server), init),
      onSitemap: (report) => {
        problems += report.diagnostics.length + (report.skipped === null ? 0 : 1);
      },
    });
    for await (const { entry } of walk) {
      count++;
      if (collect) locs.push(entry.loc);
    }
    return { count, locs, problems };
  },
};
