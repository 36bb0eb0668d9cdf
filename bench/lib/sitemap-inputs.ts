// Generated sitemaps: a shop's URLs (products, blog posts, filtered listings, a French
// section with percent-encoded paths), each with a lastmod, written as the common one
// `<url>` per line. Deterministic, so every run and every implementation sees the same bytes.
// The files are the shop's own: the bench server plays www.example-shop.com on 127.0.0.1.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SHOP_ORIGIN } from './sitemap-shop.ts';

export { SHOP_ORIGIN };
/** Entries per part of the index, and per file of both writers. */
export const PART_URLS = 50_000;
export const INDEX_PARTS = 20;

export interface SitemapEntrySpec {
  /** As `new URL(x).href` spells it: what every reader should hand back. */
  readonly loc: string;
  readonly lastmod: string;
}

/** One document, as a file under the input directory and as a URL on the shop. */
export interface SitemapFile {
  readonly label: string;
  /** Path relative to the input directory, `/`-separated. */
  readonly name: string;
  readonly path: string;
  /** Its public URL, `SHOP_ORIGIN/name`. */
  readonly url: string;
  readonly gzip: boolean;
  readonly urls: number;
  /** Size on disk (compressed for `.gz`). */
  readonly bytes: number;
  /** Size of the XML (after decompression). */
  readonly xmlBytes: number;
}

export interface SitemapIndexFile extends SitemapFile {
  readonly parts: number;
  /** Bytes of every part together. */
  readonly partBytes: number;
}

const CATEGORIES = [
  'garden-tools',
  'kitchen',
  'outdoor-furniture',
  'lighting',
  'bathroom',
  'home-office',
  'bedding',
  'storage',
];
const ADJECTIVES = ['stainless', 'oak', 'compact', 'folding', 'vintage', 'matte-black', 'large'];
const NOUNS = ['trowel', 'chair', 'lamp', 'shelf', 'kettle', 'planter', 'mirror', 'desk'];
const WORDS = ['how', 'to', 'choose', 'the', 'best', 'guide', 'spring', 'ideas', 'small', 'care'];
const COLOURS = ['red', 'green', 'navy', 'sand', 'grey', 'white'];
const SIZES = ['s', 'm', 'l', 'xl'];
const FRENCH = ['caf%C3%A9', 'th%C3%A9i%C3%A8re', 'chaise', 'lumi%C3%A8re', '%C3%A9tag%C3%A8re'];

/** The i-th URL of the shop: a pure function of `i`, 60 to 80 characters or so. */
export function entryAt(i: number): SitemapEntrySpec {
  const r = hash(i);
  const pick = <T>(list: readonly T[], shift: number): T => list[(r >>> shift) % list.length] as T;
  const id = 100_000 + i;
  let path: string;
  switch (r % 10) {
    case 0:
    case 1: {
      const month = String(1 + ((r >>> 4) % 12)).padStart(2, '0');
      path = `/blog/${2019 + ((r >>> 8) % 6)}/${month}/${pick(WORDS, 3)}-${pick(WORDS, 7)}-${pick(NOUNS, 11)}-${id}`;
      break;
    }
    case 2:
      // `&` is written `&amp;` in the XML: every reader must decode it.
      path = `/c/${pick(CATEGORIES, 5)}?colour=${pick(COLOURS, 9)}&size=${pick(SIZES, 13)}&p=${id}`;
      break;
    case 3:
      path = `/fr/produits/${pick(FRENCH, 6)}-${pick(ADJECTIVES, 10)}-${id}`;
      break;
    default:
      path = `/products/${pick(CATEGORIES, 4)}/${pick(ADJECTIVES, 8)}-${pick(NOUNS, 12)}-${id}`;
  }
  const day = String(1 + ((r >>> 16) % 28)).padStart(2, '0');
  const month = String(1 + ((r >>> 20) % 12)).padStart(2, '0');
  const date = `${2022 + ((r >>> 24) % 3)}-${month}-${day}`;
  const lastmod =
    r % 3 === 0
      ? date
      : `${date}T${String((r >>> 7) % 24).padStart(2, '0')}:${String((r >>> 13) % 60).padStart(2, '0')}:00+00:00`;
  return { loc: SHOP_ORIGIN + path, lastmod };
}

/** The locs of entries `[from, to)`, as readers should return them. */
export function expectedLocs(from: number, to: number): string[] {
  const locs: string[] = [];
  for (let i = from; i < to; i++) locs.push(entryAt(i).loc);
  return locs;
}

export interface GeneratedInputs {
  readonly urlset50k: SitemapFile;
  readonly urlset50kGzip: SitemapFile;
  /** Null with `--quick`. */
  readonly urlset1m: SitemapFile | null;
  readonly urlset1mGzip: SitemapFile | null;
  readonly index: SitemapIndexFile | null;
}

/**
 * Writes every input under `dir`, laid out as on the shop: `dir/urlset-50k.xml` is
 * `SHOP_ORIGIN/urlset-50k.xml`. The index's parts split the 1M URLs into twenty files.
 */
export function generateInputs(dir: string, large: boolean): GeneratedInputs {
  const write = (
    label: string,
    name: string,
    xml: Buffer,
    gzip: boolean,
    urls: number,
  ): SitemapFile => {
    const path = join(dir, ...name.split('/'));
    const data = gzip ? gzipSync(xml) : xml;
    writeFileSync(path, data);
    const url = `${SHOP_ORIGIN}/${name}`;
    return { label, name, path, url, gzip, urls, bytes: data.length, xmlBytes: xml.length };
  };
  const small = urlsetXml(0, PART_URLS);
  const urlset50k = write('50k', 'urlset-50k.xml', small, false, PART_URLS);
  const urlset50kGzip = write('50k gzip', 'urlset-50k.xml.gz', small, true, PART_URLS);
  if (!large) {
    return { urlset50k, urlset50kGzip, urlset1m: null, urlset1mGzip: null, index: null };
  }
  const total = PART_URLS * INDEX_PARTS;
  const big = urlsetXml(0, total);
  const urlset1m = write('1M', 'urlset-1m.xml', big, false, total);
  const urlset1mGzip = write('1M gzip', 'urlset-1m.xml.gz', big, true, total);

  mkdirSync(join(dir, 'sitemaps'), { recursive: true });
  const partLocs: string[] = [];
  let partBytes = 0;
  for (let p = 0; p < INDEX_PARTS; p++) {
    const name = `sitemaps/part-${String(p + 1).padStart(2, '0')}.xml`;
    const part = write('', name, urlsetXml(p * PART_URLS, (p + 1) * PART_URLS), false, PART_URLS);
    partBytes += part.bytes;
    partLocs.push(part.url);
  }
  const indexXml = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      partLocs
        .map((loc) => `<sitemap><loc>${loc}</loc><lastmod>2024-05-01</lastmod></sitemap>\n`)
        .join('') +
      '</sitemapindex>\n',
  );
  const index = {
    ...write('index', 'sitemap_index.xml', indexXml, false, total),
    label: `index of ${INDEX_PARTS} x 50k`,
    parts: INDEX_PARTS,
    partBytes,
  };
  return { urlset50k, urlset50kGzip, urlset1m, urlset1mGzip, index };
}

/** A `<urlset>` of entries `[from, to)`, one `<url>` per line. */
function urlsetXml(from: number, to: number): Buffer {
  const chunks: Buffer[] = [
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    ),
  ];
  const BATCH = 10_000;
  for (let start = from; start < to; start += BATCH) {
    let text = '';
    for (let i = start; i < Math.min(to, start + BATCH); i++) {
      const { loc, lastmod } = entryAt(i);
      text += `<url><loc>${loc.replaceAll('&', '&amp;')}</loc><lastmod>${lastmod}</lastmod></url>\n`;
    }
    chunks.push(Buffer.from(text));
  }
  chunks.push(Buffer.from('</urlset>\n'));
  return Buffer.concat(chunks);
}

/** A 32-bit integer hash (lowbias32), spread well enough that nearby `i` look unrelated. */
function hash(i: number): number {
  let x = (i + 0x9e3779b9) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}
