// What the crawl report reads of the crawl as a whole: the sitemap files the reading went
// through (kept by settleSitemaps) and every host's robots.txt outcome.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostRobots, SitemapFileRecord } from '../../crawl-state.ts';
import type { ConformanceTarget } from '../crawl-state-conformance.ts';
import { crawlIn, page } from './helpers.ts';

const INDEX = 'https://a.test/sitemap_index.xml';
const READ_AT = 1_700_000_000_000;

const FILES: readonly SitemapFileRecord[] = [
  {
    url: INDEX,
    parent: null,
    status: 200,
    kind: 'index',
    entries: 2,
    skipped: null,
    diagnostics: [],
    diagnosticsDropped: 0,
    readAt: READ_AT,
  },
  {
    url: 'https://a.test/sitemap-1.xml',
    parent: INDEX,
    status: 200,
    kind: 'urlset',
    entries: 3,
    skipped: null,
    // What a hostile file makes a diagnostic quote: a NUL, a lone surrogate, quotes.
    diagnostics: [
      {
        code: 'invalid-lastmod',
        severity: 'warning',
        message: 'lastmod "x\u0000y\ud800" is not a W3C datetime',
        line: 4,
        column: 12,
      },
    ],
    diagnosticsDropped: 250,
    readAt: READ_AT + 1,
  },
  {
    url: 'https://a.test/sitemap-2.xml',
    parent: INDEX,
    status: 404,
    kind: null,
    entries: 0,
    skipped: 'http-status',
    diagnostics: [],
    diagnosticsDropped: 0,
    readAt: READ_AT + 2,
  },
];

/** Many files, more than one page of any store's reads. */
const MANY: readonly SitemapFileRecord[] = Array.from({ length: 2345 }, (_, i) => ({
  ...(FILES[2] as SitemapFileRecord),
  url: `https://a.test/sitemap-${2345 - i}.xml`,
}));

/** Settled in this order; listed in byte order of the origin. */
const ROBOTS: readonly (HostRobots & { origin: string })[] = [
  {
    origin: 'https://c.test',
    status: 200,
    detail: null,
    url: 'https://www.c.test/robots.txt',
    body: new Uint8Array([0x55, 0x73, 0x65, 0xff, 0x00, 0x0a]),
    gapMs: 0,
  },
  {
    origin: 'https://a.test',
    status: 404,
    detail: null,
    url: 'https://a.test/robots.txt',
    body: null,
    gapMs: 0,
  },
  {
    origin: 'https://b.test',
    status: 'network-error',
    detail: 'ECONNREFUSED',
    url: 'https://b.test/robots.txt',
    body: null,
    gapMs: 0,
  },
  {
    origin: 'https://a.test:8443',
    status: 503,
    detail: null,
    url: 'https://a.test:8443/robots.txt',
    body: null,
    gapMs: 0,
  },
  {
    origin: 'http://z.test',
    status: 200,
    detail: null,
    url: 'http://z.test/robots.txt',
    body: new Uint8Array(0),
    gapMs: 0,
  },
];

export function reportRecords(target: ConformanceTarget): void {
  const withCrawl = crawlIn(target);

  describe('for the crawl report, the crawl as a whole', () => {
    it('sitemapFiles: empty until the sitemaps are read, then what the reading kept', async () => {
      await withCrawl(0, async (state) => {
        assert.deepEqual(await state.sitemapFiles(), []);
        assert.equal(await state.claimSitemaps(), true);
        await state.settleSitemaps(3, FILES);
        assert.deepEqual(await state.sitemapFiles(), FILES);
        await state.settleSitemaps(9, FILES.slice(2));
        assert.deepEqual(await state.sitemapFiles(), FILES, 'the reading that finished first');
        assert.equal((await state.crawl())?.sitemapUrls, 3);
      });
    });

    it('sitemapFiles: many, in the order they were given', async () => {
      await withCrawl(0, async (state) => {
        await state.claimSitemaps();
        await state.settleSitemaps(0, MANY);
        assert.deepEqual(await state.sitemapFiles(), MANY);
      });
    });

    it('sitemapFiles: none stored when given up, or when there were none', async () => {
      await withCrawl(0, async (state) => {
        await state.claimSitemaps();
        await state.settleSitemaps(null, FILES);
        assert.deepEqual(await state.sitemapFiles(), []);
        assert.equal((await state.crawl())?.sitemapsRead, false);
      });
      await withCrawl(0, async (state) => {
        await state.claimSitemaps();
        await state.settleSitemaps(0);
        assert.deepEqual(await state.sitemapFiles(), []);
      });
    });

    it('robotsOutcomes: every settled host, in origin order, without its gap', async () => {
      await withCrawl(0, async (state) => {
        assert.deepEqual(await state.robotsOutcomes(), []);
        // Neither one being fetched nor one only wanted is listed.
        await state.add([page('https://d.test/'), page('https://e.test/')]);
        assert.equal(await state.claimRobots('https://d.test'), 'fetch');
        for (const { origin, ...robots } of ROBOTS) {
          assert.equal(await state.claimRobots(origin), 'fetch', origin);
          await state.settleRobots(origin, robots);
        }
        const expected = ROBOTS.map(({ gapMs: _, ...outcome }) => outcome).sort((a, b) =>
          a.origin < b.origin ? -1 : 1,
        );
        assert.deepEqual(
          expected.map((outcome) => outcome.origin),
          [
            'http://z.test',
            'https://a.test',
            'https://a.test:8443',
            'https://b.test',
            'https://c.test',
          ],
        );
        assert.deepEqual(await state.robotsOutcomes(), expected);
      });
    });

    // Declared only where there is a second worker (SQLite has one process), as two-workers.ts.
    if (target.second !== undefined)
      it('two workers: one reads what the other stored', async () => {
        await withCrawl(0, async (one) => {
          const two = await (target.second as NonNullable<ConformanceTarget['second']>)(one);
          try {
            assert.equal(await one.claimSitemaps(), true);
            await one.settleSitemaps(null, FILES);
            assert.equal(await two.claimSitemaps(), true, 'given up: claimed again');
            await two.settleSitemaps(2, FILES.slice(1));
            assert.deepEqual(await one.sitemapFiles(), FILES.slice(1));
            const [robots] = ROBOTS;
            assert.ok(robots);
            const { origin, gapMs: _, ...outcome } = robots;
            await two.settleRobots(origin, robots);
            assert.deepEqual(await one.robotsOutcomes(), [{ origin, ...outcome }]);
          } finally {
            await two.close();
          }
        });
      });
  });
}
