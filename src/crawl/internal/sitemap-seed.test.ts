// Which sitemaps the crawl reads: its own site's, those given, and those another host vouches
// for in its own robots.txt (sitemaps.org cross-submission). Three servers on 127.0.0.1 are
// three origins: A is the crawled site, B cross-submits for it, C does not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../http/test-support/test-server.ts';
import { normalizeUrl, originOf, sameSite } from '../../url/index.ts';
import { crawl } from '../crawl.ts';
import type { FrontierItem } from '../crawl-state.ts';
import { seedFromSitemaps } from './sitemap-seed.ts';

const xml = { 'content-type': 'application/xml' };
const urlset = (locs: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const sitemapIndex = (locs: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;

describe('seedFromSitemaps: same-site sitemaps by default', () => {
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  const tooLong = `/${'p'.repeat(9000)}`;
  before(async () => {
    a = await startTestServer({
      '/sitemap.xml': (_, res) =>
        res.writeHead(200, xml).end(urlset([a.url('/one'), a.url(tooLong), a.url('/two')])),
      '/index.xml': (_, res) =>
        res.writeHead(200, xml).end(sitemapIndex([c.url('/child.xml'), a.url('/sitemap.xml')])),
      // A hostile index: the same refused sitemap, many times over.
      '/flood.xml': (_, res) =>
        res.writeHead(200, xml).end(sitemapIndex(Array(5000).fill(c.url('/child.xml')))),
      // As many refused sitemaps, each named once.
      '/many.xml': (_, res) =>
        res
          .writeHead(200, xml)
          .end(sitemapIndex(Array.from({ length: 5000 }, (_, i) => c.url(`/child-${i}.xml`)))),
      // A sitemap on the site that sends the crawler to another host (one inside its network).
      '/away.xml': (_, res) => res.writeHead(302, { location: c.url('/internal.xml') }).end(),
      '/stall.xml': () => {},
    });
    b = await startTestServer({
      '/robots.txt': (_, res) =>
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`Sitemap: ${b.url('/for-a.xml')}\nSitemap: ${b.url('/index-for-a.xml')}\n`),
      '/for-a.xml': (_, res) => res.writeHead(200, xml).end(urlset([a.url('/from-b')])),
      '/index-for-a.xml': (_, res) =>
        res.writeHead(200, xml).end(sitemapIndex([b.url('/part-for-a.xml')])),
      '/part-for-a.xml': (_, res) => res.writeHead(200, xml).end(urlset([a.url('/from-b-part')])),
    });
    c = await startTestServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' },
      '/evil.xml': (_, res) => res.writeHead(200, xml).end(urlset([a.url('/from-c')])),
      '/child.xml': (_, res) => res.writeHead(200, xml).end(urlset([a.url('/from-c-child')])),
      '/internal.xml': (_, res) => res.writeHead(200, xml).end(urlset([a.url('/from-inside')])),
      '/back-to-a.xml': (_, res) => res.writeHead(301, { location: a.url('/sitemap.xml') }).end(),
    });
  });
  after(async () => {
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  async function seed(fromRobots: string[], given: string[] = [], timeoutMs = 5_000) {
    const added: string[] = [];
    const warnings: string[] = [];
    await seedFromSitemaps({
      fromRobots,
      given,
      waitForTurn: async () => {},
      context: {
        userAgent: 'waymark-test',
        timeoutMs,
        maxBytes: 1024 * 1024,
        fetch: undefined,
        signal: undefined,
        now: Date.now,
      },
      normalize: (url) => normalizeUrl(url),
      onSite: (url) => sameSite(url, a.origin),
      originOf: (url) => originOf(url) ?? '',
      add: (items: FrontierItem[]) => {
        added.push(...items.map((i) => i.url));
      },
      warn: async (message) => {
        warnings.push(message);
      },
    });
    return { added, warnings };
  }

  test('another host is read only when its own robots.txt names the sitemap', async () => {
    const cBefore = c.requests.length;
    const { added, warnings } = await seed([
      a.url('/sitemap.xml'),
      b.url('/for-a.xml'),
      c.url('/evil.xml'),
    ]);
    assert.deepEqual(added, [a.url('/one'), a.url('/two'), a.url('/from-b')]);
    // C was asked for its robots.txt, once, and nothing else.
    assert.deepEqual(
      c.requests.slice(cBefore).map((r) => r.path),
      ['/robots.txt'],
    );
    const refusal = warnings.find((w) => w.includes(c.url('/evil.xml')));
    assert.match(
      refusal ?? '',
      /not read: named by robots\.txt but not on the crawled site, and http:\/\/127\.0\.0\.1:\d+\/robots\.txt does not name it \(sitemaps\.org cross-submission\)/,
    );
    assert.ok(b.requests.some((r) => r.path === '/robots.txt'));
  });

  test('a URL longer than 8 KiB in a sitemap is skipped with a warning', async () => {
    const { added, warnings } = await seed([a.url('/sitemap.xml')]);
    assert.deepEqual(added, [a.url('/one'), a.url('/two')]);
    assert.ok(
      warnings.some((w) => /^1 URL in the sitemaps is longer than 8192 characters/.test(w)),
      warnings.join('\n'),
    );
  });

  test("an index's child on another host needs that host's robots.txt too", async () => {
    const before = c.requests.length;
    const { added, warnings } = await seed([a.url('/index.xml')]);
    assert.deepEqual(added, [a.url('/one'), a.url('/two')]);
    assert.ok(!c.requests.slice(before).some((r) => r.path === '/child.xml'));
    assert.ok(
      warnings.some((w) => w.includes(c.url('/child.xml')) && w.includes('named by an index')),
    );
  });

  test('thousands of refused sitemaps get a few warnings, then a count', async () => {
    const { added, warnings } = await seed([a.url('/many.xml')]);
    assert.deepEqual(added, []);
    assert.equal(warnings.length, 11, warnings.join('\n'));
    assert.ok(warnings.slice(0, 10).every((w) => w.includes(`${c.origin}/child-`)));
    // The walk holds the children it may still read (maxSitemaps, 1,000): 999 refusals.
    assert.equal(warnings[10], '989 more sitemaps not read, for the reasons above');
  });

  test('an index naming a refused sitemap thousands of times gets one warning', async () => {
    // A walk holds each sitemap an index names once, however often it is named.
    const { added, warnings } = await seed([a.url('/flood.xml')]);
    assert.deepEqual(added, []);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.ok(warnings[0]?.includes(c.url('/child.xml')));
  });

  test("a cross-submitted index's children on its own origin are read", async () => {
    // B's robots.txt names the index, not the sitemap in it: the index speaks for its origin.
    const { added, warnings } = await seed([b.url('/index-for-a.xml')]);
    assert.deepEqual(added, [a.url('/from-b-part')]);
    assert.deepEqual(warnings, []);
  });

  test('a redirect that takes a sitemap off its origin and the site is refused before it is sent', async () => {
    const before = c.requests.length;
    const { added, warnings } = await seed([a.url('/away.xml')]);
    assert.deepEqual(added, []);
    assert.deepEqual(c.requests.slice(before), [], 'nothing was asked of the other host');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0] ?? '',
      /^sitemap http:\/\/127\.0\.0\.1:\d+\/away\.xml not read: it redirects to http:\/\/127\.0\.0\.1:\d+\/internal\.xml, off its own origin and the crawled site$/,
    );
  });

  test('a redirect onto the crawled site is followed', async () => {
    const { added, warnings } = await seed([], [c.url('/back-to-a.xml')]);
    assert.deepEqual(added, [a.url('/one'), a.url('/two')]);
    assert.ok(
      warnings.every((w) => !w.includes('back-to-a')),
      warnings.join('\n'),
    );
  });

  test('a sitemap gets the crawl time cap, and one that runs out is told', async () => {
    const { added, warnings } = await seed([a.url('/stall.xml'), a.url('/sitemap.xml')], [], 300);
    assert.deepEqual(added, [a.url('/one'), a.url('/two')]);
    assert.ok(
      warnings.some((w) =>
        /^sitemap .*\/stall\.xml not read: fetch timed out after 300 ms/.test(w),
      ),
      warnings.join('\n'),
    );
  });

  test('a sitemap the caller gave is read wherever it is', async () => {
    const { added, warnings } = await seed([], [c.url('/evil.xml')]);
    assert.deepEqual(added, [a.url('/from-c')]);
    assert.deepEqual(warnings, []);
  });
});

describe('the crawl reads only same-site sitemaps', () => {
  test('a sitemap on another host that does not vouch for it is never requested', async (t) => {
    const other = await startTestServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' },
      '/sitemap.xml': (_, res) => res.writeHead(200, xml).end(urlset([other.url('/x')])),
    });
    const site = await startTestServer({
      '/robots.txt': (_, res) =>
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`Sitemap: ${site.url('/sitemap.xml')}\nSitemap: ${other.url('/sitemap.xml')}\n`),
      '/sitemap.xml': (_, res) => res.writeHead(200, xml).end(urlset([site.url('/orphan')])),
      '/': { headers: { 'content-type': 'text/html' }, body: '<p>home</p>' },
      '/orphan': { headers: { 'content-type': 'text/html' }, body: '<p>orphan</p>' },
    });
    t.after(async () => {
      await Promise.all([site.close(), other.close()]);
    });
    const warnings: string[] = [];
    const run = crawl({ start: site.url('/'), rate: 0 });
    for await (const event of run) if (event.type === 'warning') warnings.push(event.message);
    const summary = await run;
    assert.equal(summary.sitemapUrls, 1);
    assert.deepEqual(
      other.requests.map((r) => r.path),
      ['/robots.txt'],
    );
    assert.ok(
      warnings.some((w) => w.startsWith(`sitemap ${other.url('/sitemap.xml')} not read: `)),
      warnings.join('\n'),
    );
  });
});
