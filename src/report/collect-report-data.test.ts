import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { crawl } from '../crawl/crawl.ts';
import { openSqliteCrawlState } from '../crawl/sqlite-crawl-state.ts';
import { type FixtureSite, startFixtureSite } from '../crawl/test-support/fixture-site.ts';
import { collectReportData } from './collect-report-data.ts';
import { PAGE_COLUMNS, type ReportData, type ReportPageRow } from './report-data.ts';

const column = (name: (typeof PAGE_COLUMNS)[number]) => PAGE_COLUMNS.indexOf(name);

describe('the report data of a crawl of the fixture site', () => {
  let site: FixtureSite;
  let data: ReportData;
  let fromState: ReportData;
  const row = (path: string): ReportPageRow => {
    const found = data.pages.find((page) => page[0] === site.url(path));
    assert.ok(found, `a row for ${path}`);
    return found;
  };
  const field = (path: string, name: (typeof PAGE_COLUMNS)[number]) => row(path)[column(name)];

  before(async () => {
    site = await startFixtureSite();
    const state = openSqliteCrawlState(null, { resume: false });
    const summary = await crawl({
      start: site.url('/'),
      state,
      maxDepth: 3,
      rate: 0,
      concurrency: 4,
      timeoutMs: 500,
      report: async (open, ended) => {
        data = await collectReportData(open, { summary: ended, now: () => 0, generator: 'test' });
        fromState = await collectReportData(open, { now: () => 0 });
      },
    });
    assert.equal(summary.listed, site.expectedSitemap.length);
  });
  after(() => site.close());

  test('counts agree with the crawl summary; a report from the state alone says the same', () => {
    assert.equal(data.crawl.listed, site.expectedSitemap.length);
    assert.equal(data.crawl.listed, fromState.crawl.listed);
    assert.equal(data.crawl.fetched, fromState.crawl.fetched);
    assert.deepEqual(data.crawl.skipped, fromState.crawl.skipped);
    assert.equal(data.crawl.skipped['robots-disallowed'], 2);
    assert.equal(data.generatedAt, '1970-01-01T00:00:00.000Z');
    assert.ok(data.crawl.durationMs !== null && data.crawl.durationMs > 0);
    assert.equal(fromState.crawl.durationMs, null, 'a saved state knows no run time');
    assert.equal(data.crawl.robotsAgent, 'waymark');
    assert.deepEqual(
      data.pages.filter((page) => page[2] === 'listed').map((page) => page[0]),
      site.expectedSitemap,
    );
  });

  test('each left-out URL has its reason and detail', () => {
    const cases: [string, string, string | null][] = [
      ['/hidden', 'noindex-meta', null],
      ['/hidden-header', 'noindex-header', null],
      ['/print', 'canonical-elsewhere', site.url('/about')],
      ['/report.pdf', 'robots-disallowed', null],
      ['/private/data', 'robots-disallowed', null],
      ['/missing', 'client-error', null],
      ['/broken', 'server-error', null],
      ['/old', 'redirect', site.url('/older')],
      ['/away', 'redirect-off-origin', 'https://elsewhere.example/landing'],
    ];
    for (const [path, reason, detail] of cases) {
      assert.equal(field(path, 'reason'), reason, path);
      assert.equal(field(path, 'detail'), detail, path);
    }
  });

  test('a disallowed URL carries the robots.txt rule that decided, with its line', () => {
    assert.deepEqual(field('/private/data', 'rule'), ['disallow', '/private/', 2]);
    assert.deepEqual(field('/report.pdf', 'rule'), ['disallow', '/*.pdf$', 3]);
    assert.equal(field('/about', 'rule'), null);
  });

  test('response facts: title, media type, Last-Modified, time', () => {
    assert.equal(field('/about', 'title'), 't');
    assert.equal(field('/about', 'contentType'), 'text/html');
    assert.equal(field('/about', 'lastModified'), '2024-01-02T03:04:05Z');
    assert.equal(typeof field('/about', 'ms'), 'number');
    assert.equal(field('/report.pdf', 'ms'), null, 'never requested');
    assert.equal(field('/missing', 'contentType'), null, 'a 404 without a Content-Type');
  });

  test('in-links count pages, not link spellings; sitemaps count entries; via is a row index', () => {
    // `/` links to /about twice (once with a tracking parameter and a fragment): one link.
    // /print's canonical points to it too, and is a link element of that page.
    assert.equal(field('/about', 'inlinks'), 2);
    assert.equal(field('/', 'inlinks'), 1, 'linked back from /about; the start is no in-link');
    assert.equal(field('/orphan', 'inlinks'), 0);
    assert.equal(field('/orphan', 'linked'), 0);
    assert.equal(field('/orphan', 'sitemaps'), 1);
    assert.equal(field('/blog/', 'sitemaps'), 0);
    assert.equal(field('/new', 'inlinks'), 0, 'reached by redirects only');
    assert.equal(field('/orphan', 'via'), 'sitemap');
    const via = field('/blog/post-1', 'via');
    assert.equal(typeof via, 'number');
    assert.equal(data.pages[via as number]?.[0], site.url('/blog/'));
  });

  test('robots.txt and the sitemap files as the crawl read them', () => {
    const [robots] = data.robots;
    assert.equal(data.robots.length, 1);
    assert.equal(robots?.origin, new URL(site.url('/')).origin);
    assert.equal(robots?.status, 200);
    assert.equal(robots?.source, 'file');
    assert.match(robots?.text ?? '', /^User-agent: \*\nDisallow: \/private\//);
    assert.deepEqual(
      data.sitemaps.map((file) => [new URL(file.url).pathname, file.kind, file.entries]),
      [
        ['/sitemap_index.xml', 'index', 1],
        ['/sitemap-1.xml.gz', 'urlset', 3],
      ],
    );
    assert.equal(data.sitemaps[1]?.parent, site.url('/sitemap_index.xml'));
  });
});
