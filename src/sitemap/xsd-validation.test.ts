// What the writers produce, checked against the official schemas (sitemaps.org 0.9, Google
// image 1.1, video 1.1, news 0.9, XHTML for xhtml:link) with libxml2, fully offline.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { formatSitemapIndex, formatUrlset } from './format-sitemap.ts';
import { needsSchemas, type SitemapSchema, validateSitemap } from './test-support/xsd.ts';
import type { SitemapUrl } from './types.ts';
import { writeSitemaps } from './write-sitemaps.ts';

const NASTY = `Tom & Jerry <b>"quoted"</b> 'single' ]]> tab\there\r\nnew line, ünïcödé 😀`;

const PLAIN: SitemapUrl[] = [
  { loc: 'https://example.com/' },
  {
    loc: 'https://example.com/a b/ü?q=<1>&r="2"',
    lastmod: '2024-02-29T23:59:59.999+14:00',
    changefreq: 'weekly',
    priority: 0,
  },
  { loc: 'https://example.com/dated', lastmod: '2024-05-01', changefreq: 'never', priority: 1 },
  { loc: 'https://example.com/short', lastmod: '2024-05-01T10:00Z', priority: 0.25 },
  { loc: `https://example.com/${'x'.repeat(2048 - 'https://example.com/'.length)}` },
];

const EVERYTHING: SitemapUrl[] = [
  {
    loc: 'https://例え.jp/ページ',
    lastmod: '2024-03-01T10:00:00Z',
    changefreq: 'daily',
    priority: 0.8,
    alternates: [
      { hreflang: 'de', href: 'https://example.com/de/page?x=1&y=2' },
      { hreflang: 'en-GB', href: 'https://example.com/en-gb/page' },
      { hreflang: 'x-default', href: 'https://example.com/page' },
    ],
    images: [
      { loc: 'https://cdn.example.com/a.jpg' },
      {
        loc: 'https://cdn.example.com/b c.jpg',
        caption: NASTY,
        title: NASTY,
        geoLocation: NASTY,
        license: 'https://example.com/license?a=1&b=2',
      },
    ],
    videos: [
      {
        thumbnailLoc: 'https://example.com/thumb.jpg?a=1&b=2',
        title: 'Grilling & <steaks>',
        description: NASTY,
        contentLoc: 'https://example.com/video.mp4',
        playerLoc: 'https://example.com/player?id=1&autoplay=0',
        duration: 28_800,
        expirationDate: '2030-01-01T00:00:00-05:00',
        rating: 5,
        viewCount: 12_345,
        publicationDate: '2024-01-01',
        familyFriendly: true,
        restriction: { relationship: 'allow', countries: ['DE', 'FR', 'US'] },
        requiresSubscription: false,
        uploader: { name: NASTY, info: 'https://example.com/users/grill?x="1"' },
        platform: { relationship: 'deny', platforms: ['tv', 'mobile'] },
        live: false,
        tags: ['steak', 'summer & grill', NASTY],
      },
      {
        thumbnailLoc: 'https://example.com/thumb2.jpg',
        title: '',
        description: 'Only the required fields.',
        playerLoc: 'https://example.com/player2',
        rating: 0,
        duration: 1,
      },
    ],
    news: {
      publication: { name: NASTY, language: 'zh-cn' },
      publicationDate: '2024-03-01T10:00:00.5+01:00',
      title: NASTY,
    },
  },
  {
    loc: 'https://example.com/only-news',
    news: { publication: { name: 'N', language: 'en' }, publicationDate: '2008-12-23', title: 'T' },
  },
  { loc: 'https://example.com/only-image', images: [{ loc: 'https://example.com/i.png' }] },
];

const INCLUDE = { includeChangefreq: true, includePriority: true } as const;

const VALID: { name: string; schema: SitemapSchema; xml: () => string }[] = [
  { name: 'plain urlset', schema: 'urlset', xml: () => formatUrlset(PLAIN, INCLUDE) },
  {
    name: 'plain urlset, pretty',
    schema: 'urlset',
    xml: () => formatUrlset(PLAIN, { ...INCLUDE, pretty: true }),
  },
  { name: 'plain urlset, defaults', schema: 'urlset', xml: () => formatUrlset(PLAIN) },
  {
    name: 'urlset with all four extensions',
    schema: 'urlset-extensions',
    xml: () => formatUrlset(EVERYTHING, INCLUDE),
  },
  {
    name: 'urlset with all four extensions, pretty',
    schema: 'urlset-extensions',
    xml: () => formatUrlset(EVERYTHING, { ...INCLUDE, pretty: true }),
  },
  {
    name: 'urlset declaring extensions it does not use',
    schema: 'urlset-extensions',
    xml: () => formatUrlset(PLAIN, { extensions: ['image', 'video', 'news', 'xhtml'] }),
  },
  {
    name: 'sitemap index',
    schema: 'index',
    xml: () =>
      formatSitemapIndex([
        { loc: 'https://example.com/sitemaps/sitemap-0001.xml', lastmod: '2024-05-01' },
        {
          loc: 'https://example.com/sitemaps/sitemap-0002.xml.gz?v=1&w=2',
          lastmod: '2024-05-01T10:00:00Z',
        },
        { loc: 'https://example.com/sitemaps/sitemap-0003.xml' },
      ]),
  },
];

describe('generated documents validate against the official schemas', needsSchemas(), () => {
  for (const { name, schema, xml } of VALID) {
    test(name, async () => {
      const result = await validateSitemap(xml(), schema);
      assert.deepEqual(result.errors, []);
      assert.equal(result.valid, true);
    });
  }

  test('every file of a split run (parts and index) validates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'waymark-xsd-'));
    try {
      const entries = Array.from(
        { length: 7 },
        (_, i): SitemapUrl => ({
          ...(EVERYTHING[i % EVERYTHING.length] as SitemapUrl),
          loc: `https://example.com/page/${i}`,
        }),
      );
      const result = await writeSitemaps(entries, {
        dir,
        baseUrl: 'https://example.com/',
        maxUrls: 3,
        extensions: ['image', 'video', 'news', 'xhtml'],
        indexLastmod: '2024-05-01T00:00:00Z',
      });
      assert.equal(result.files.length, 3);
      for (const file of result.files) {
        const check = await validateSitemap(await readFile(file, 'utf8'), 'urlset-extensions');
        assert.deepEqual(check.errors, [], file);
      }
      assert.ok(result.index !== null);
      const index = await validateSitemap(await readFile(result.index, 'utf8'), 'index');
      assert.deepEqual(index.errors, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The check must be able to fail: documents that break the schemas in the ways a writer
// could (order of video children, a value out of range, an undeclared-schema extension).
const INVALID: { name: string; schema: SitemapSchema; xml: () => string }[] = [
  {
    name: 'video children out of schema order',
    schema: 'urlset-extensions',
    xml: () =>
      formatUrlset(EVERYTHING).replace(
        /(<video:title>.*?<\/video:title>)(<video:description>.*?<\/video:description>)/,
        '$2$1',
      ),
  },
  {
    name: 'priority out of range',
    schema: 'urlset',
    xml: () =>
      formatUrlset(PLAIN, INCLUDE).replace('<priority>1.0</priority>', '<priority>1.5</priority>'),
  },
  {
    name: 'lastmod as the W3C year-month form the schema rejects',
    schema: 'urlset',
    xml: () =>
      formatUrlset(PLAIN).replace('<lastmod>2024-05-01</lastmod>', '<lastmod>2024-05</lastmod>'),
  },
  {
    name: 'extension elements checked with sitemap.xsd alone',
    schema: 'urlset',
    xml: () => formatUrlset(EVERYTHING),
  },
  {
    name: 'urlset checked as an index',
    schema: 'index',
    xml: () => formatUrlset(PLAIN),
  },
  // Both schemas want at least one entry (minOccurs 1): a writer must never emit these.
  { name: 'empty urlset', schema: 'urlset', xml: () => formatUrlset([]) },
  { name: 'empty sitemap index', schema: 'index', xml: () => formatSitemapIndex([]) },
];

describe('the schema check rejects invalid documents', needsSchemas(), () => {
  for (const { name, schema, xml } of INVALID) {
    test(name, async () => {
      const result = await validateSitemap(xml(), schema);
      assert.equal(result.valid, false);
      assert.ok(result.errors.length > 0);
    });
  }
});
