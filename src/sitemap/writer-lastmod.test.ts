// What the writers do with lastmod, changefreq and priority: a Date becomes a full timestamp
// with its zone, text is kept as given, and changefreq/priority appear only when asked for
// (Google and Bing ignore both), in every writer: the string writers, the streaming one and
// the file writer.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import {
  formatSitemapIndex,
  formatUrlset,
  SitemapIndexWriter,
  UrlsetWriter,
} from './format-sitemap.ts';
import type { LastmodInput, SitemapUrlInput } from './types.ts';
import { writeSitemaps } from './write-sitemaps.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-writer-lastmod-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LOC = 'https://example.com/';

/** [given, written]: a Date to the second in UTC; text as given (normalised only). */
const WRITTEN: [LastmodInput, string][] = [
  [new Date(Date.UTC(2026, 10, 24, 10, 15)), '2026-11-24T10:15:00Z'],
  [new Date(Date.UTC(2026, 10, 24, 10, 15, 7, 999)), '2026-11-24T10:15:07Z'],
  [new Date('2026-11-24T11:15:00+01:00'), '2026-11-24T10:15:00Z'],
  [new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 500)), '1969-12-31T23:59:59Z'],
  ['2026-11-24', '2026-11-24'],
  ['2026-11-24T10:15:00+01:00', '2026-11-24T10:15:00+01:00'],
];

const REFUSED: [unknown, RegExp][] = [
  [new Date(Number.NaN), /lastmod is an invalid Date/],
  [new Date(Date.UTC(10000, 0, 1)), /outside years 1-9999/],
  [1_700_000_000_000, /lastmod is not a string or a Date/],
];

function urlOf(lastmod: LastmodInput): string {
  return formatUrlset([{ loc: LOC, lastmod }]).split('\n')[2] as string;
}

describe('lastmod as the writers take it', () => {
  for (const [given, written] of WRITTEN) {
    test(`${given instanceof Date ? `Date ${given.toISOString()}` : given} -> ${written}`, () => {
      assert.equal(urlOf(given), `<url><loc>${LOC}</loc><lastmod>${written}</lastmod></url>`);
      // The streaming writer and the index writers agree.
      const writer = new UrlsetWriter();
      writer.open();
      const result = writer.write({ loc: LOC, lastmod: given });
      assert.ok(result.written);
      assert.match(result.xml, new RegExp(`<lastmod>${written.replace('+', '\\+')}</lastmod>`));
      const index = formatSitemapIndex([{ loc: `${LOC}sitemap-1.xml`, lastmod: given }]);
      assert.ok(index.includes(`<lastmod>${written}</lastmod>`), index);
      const indexWriter = new SitemapIndexWriter();
      indexWriter.open();
      const entry = indexWriter.write({ loc: `${LOC}sitemap-1.xml`, lastmod: given });
      assert.ok(entry.written && entry.xml.includes(`<lastmod>${written}</lastmod>`));
    });
  }
  for (const [given, message] of REFUSED) {
    test(`refused: ${String(given)}`, () => {
      assert.throws(
        () => formatUrlset([{ loc: LOC, lastmod: given as LastmodInput }]),
        (error: unknown) => isWaymarkError(error) && message.test(error.message),
      );
    });
  }
});

describe('changefreq and priority only when asked for', () => {
  const entries: SitemapUrlInput[] = Array.from({ length: 3 }, (_, i) => ({
    loc: `${LOC}${i}`,
    lastmod: new Date(Date.UTC(2026, 0, 1 + i, 8)),
    changefreq: 'daily',
    priority: 0.8,
  }));

  test('the streaming writer', () => {
    const plain = new UrlsetWriter();
    const asked = new UrlsetWriter({ includeChangefreq: true, includePriority: true });
    for (const [writer, present] of [
      [plain, false],
      [asked, true],
    ] as const) {
      let xml = writer.open();
      for (const entry of entries) {
        const result = writer.write(entry);
        if (result.written) xml += result.xml;
      }
      xml += writer.close();
      assert.equal(/<changefreq>/.test(xml), present);
      assert.equal(/<priority>/.test(xml), present);
      assert.equal(xml.match(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/lastmod>/g)?.length, 3);
    }
  });

  test('writeSitemaps, in one file and in parts with an index', async () => {
    for (const [name, maxUrls] of [
      ['one', undefined],
      ['parts', 2],
    ] as const) {
      const out = join(dir, name);
      await writeSitemaps(entries, {
        dir: out,
        baseUrl: 'https://example.com/',
        indexLastmod: new Date(Date.UTC(2026, 10, 24, 10, 15, 30, 250)),
        ...(maxUrls === undefined ? {} : { maxUrls }),
      });
      const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.xml'),
      );
      const all = files.map((f) => readFileSync(join(out, f), 'utf8')).join('');
      assert.doesNotMatch(all, /changefreq|priority/, name);
      assert.equal(all.match(/<url>/g)?.length, 3);
      if (maxUrls !== undefined) {
        assert.match(all, /<sitemap><loc>[^<]+<\/loc><lastmod>2026-11-24T10:15:30Z<\/lastmod>/);
      }
      const asked = join(dir, `${name}-asked`);
      await writeSitemaps(entries, {
        dir: asked,
        baseUrl: 'https://example.com/',
        includeChangefreq: true,
        includePriority: true,
        ...(maxUrls === undefined ? {} : { maxUrls }),
      });
      const askedXml = readdirSync(asked, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.xml'))
        .map((f) => readFileSync(join(asked, f), 'utf8'))
        .join('');
      assert.equal(askedXml.match(/<changefreq>daily<\/changefreq>/g)?.length, 3);
      assert.equal(askedXml.match(/<priority>0\.8<\/priority>/g)?.length, 3);
    }
  });
});
