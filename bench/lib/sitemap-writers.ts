// The two index-splitting writers behind one face, and the check that what each wrote reads
// back (by the other library's reader too) as exactly the URLs it was given.

import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import {
  parseSitemapIndex,
  SitemapAndIndexStream,
  type SitemapItemLoose,
  SitemapStream,
} from 'sitemap';
import { readSitemap } from '../../src/sitemap/index.ts';
// Not re-exported from waymark/sitemap yet; the module is the writer's home either way.
import { writeSitemaps } from '../../src/sitemap/node.ts';
import { entryAt, PART_URLS } from './sitemap-inputs.ts';
import { sitemapJsUrlset } from './sitemap-read-sitemapjs.ts';
import { WAYMARK_READ_OPTIONS } from './sitemap-read-waymark.ts';

export interface WrittenSitemaps {
  /** The file a crawler is pointed at: the index, or the one sitemap. */
  readonly entryPath: string;
  /** URL-set files, in order. */
  readonly parts: number;
  /** Bytes of every file written. */
  readonly bytes: number;
}

export interface SitemapWriterContender {
  readonly name: string;
  readonly api: string;
  /** Builds the entries in the writer's own shape, outside any timing. */
  prepare(count: number): void;
  write(dir: string, baseUrl: string, gzip: boolean): Promise<WrittenSitemaps>;
}

export function waymarkWriter(): SitemapWriterContender {
  let entries: { loc: string; lastmod: string }[] = [];
  return {
    name: 'waymark',
    api: 'writeSitemaps',
    prepare(count) {
      entries = Array.from({ length: count }, (_, i) => entryAt(i));
    },
    async write(dir, baseUrl, gzip) {
      const result = await writeSitemaps(entries, {
        dir,
        baseUrl,
        gzip,
        maxUrls: PART_URLS,
      });
      const paths = [...result.files, ...(result.index === null ? [] : [result.index])];
      return {
        entryPath: result.index ?? (result.files[0] as string),
        parts: result.files.length,
        bytes: paths.reduce((sum, path) => sum + statSync(path).size, 0),
      };
    },
  };
}

/**
 * sitemap.js's `SitemapAndIndexStream`, set up as its `simpleSitemapAndIndex` does (which
 * takes only a directory relative to the working directory, so cannot write to a temp dir):
 * one `SitemapStream` per part, piped through gzip when asked, into `sitemap-<i>.xml[.gz]`,
 * and the index into `sitemap-index.xml` (kept plain, as waymark keeps its index).
 */
export function sitemapJsWriter(): SitemapWriterContender {
  let items: SitemapItemLoose[] = [];
  return {
    name: 'sitemap',
    api: 'SitemapAndIndexStream',
    prepare(count) {
      items = Array.from({ length: count }, (_, i) => {
        const { loc, lastmod } = entryAt(i);
        return { url: loc, lastmod };
      });
    },
    async write(dir, baseUrl, gzip) {
      // It would leave parts of an earlier, larger run behind.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      let parts = 0;
      const hostname = new URL(baseUrl).origin;
      const stream = new SitemapAndIndexStream({
        limit: PART_URLS,
        getSitemapStream: (i) => {
          parts++;
          const name = `sitemap-${i}.xml${gzip ? '.gz' : ''}`;
          const sitemapStream = new SitemapStream({ hostname });
          const file = createWriteStream(join(dir, name));
          const written = gzip
            ? sitemapStream.pipe(createGzip()).pipe(file)
            : sitemapStream.pipe(file);
          return [new URL(name, baseUrl).href, sitemapStream, written];
        },
      });
      const entryPath = join(dir, 'sitemap-index.xml');
      await pipeline(Readable.from(items), stream, createWriteStream(entryPath));
      const bytes = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
      return { entryPath, parts, bytes };
    },
  };
}

/** How a written set of files read back, against the entries it was given. */
export interface ReadBack {
  readonly reader: string;
  readonly urls: number;
  /** Positions where the loc read differs from the one given (and missing or extra ones). */
  readonly mismatches: number;
  readonly firstMismatch: string | null;
}

/**
 * Reads what a writer wrote for entries `[0, count)` with waymark's `readSitemap` and with
 * sitemap.js's parsers, following the index to the part files on disk.
 */
export async function readBack(
  written: WrittenSitemaps,
  dir: string,
  baseUrl: string,
  count: number,
): Promise<ReadBack[]> {
  const pathOf = (loc: string): string => {
    if (!loc.startsWith(baseUrl)) throw new Error(`part ${loc} is not under ${baseUrl}`);
    return join(dir, ...loc.slice(baseUrl.length).split('/'));
  };
  const expected = (i: number): string => entryAt(i).loc;

  const waymarkLocs: string[] = [];
  const top = await readSitemap(createReadStream(written.entryPath), WAYMARK_READ_OPTIONS);
  const files = top.kind === 'index' ? top.entries.map((e) => pathOf(e.loc)) : [written.entryPath];
  if (top.kind === 'index') {
    for (const file of files) {
      const part = await readSitemap(createReadStream(file), WAYMARK_READ_OPTIONS);
      for (const entry of part.entries) waymarkLocs.push(entry.loc);
    }
  } else {
    for (const entry of top.entries) waymarkLocs.push(entry.loc);
  }

  const sitemapLocs: string[] = [];
  const partFiles =
    top.kind === 'index'
      ? (await parseSitemapIndex(createReadStream(written.entryPath))).map((e) => pathOf(e.url))
      : [written.entryPath];
  for (const file of partFiles) {
    const source = createReadStream(file);
    await sitemapJsUrlset(file.endsWith('.gz') ? source.pipe(createGunzip()) : source, sitemapLocs);
  }

  return [
    compareLocs('waymark readSitemap', waymarkLocs, count, expected),
    compareLocs('sitemap XMLToSitemapItemStream', sitemapLocs, count, expected),
  ];
}

/** Compares `actual` with the `count` locs `expected(i)`, position by position. */
export function compareLocs(
  reader: string,
  actual: readonly string[],
  count: number,
  expected: (i: number) => string,
): ReadBack {
  let mismatches = Math.abs(actual.length - count);
  let firstMismatch: string | null = null;
  for (let i = 0; i < Math.min(count, actual.length); i++) {
    const want = expected(i);
    if (actual[i] === want) continue;
    mismatches++;
    firstMismatch ??= `#${i + 1}: expected ${want}, got ${actual[i]}`;
  }
  if (firstMismatch === null && actual.length !== count) {
    firstMismatch = `${actual.length} URLs instead of ${count}`;
  }
  return { reader, urls: actual.length, mismatches, firstMismatch };
}
