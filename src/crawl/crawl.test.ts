import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../http/test-support/test-server.ts';
import type { SitemapUrl } from '../sitemap/index.ts';
import { crawl } from './crawl.ts';
import { type FixtureSite, startFixtureSite } from './test-support/fixture-site.ts';
import type { CrawlEvent } from './types.ts';

describe('crawl against the fixture site on 127.0.0.1', () => {
  let site: FixtureSite;
  before(async () => {
    site = await startFixtureSite();
  });
  after(() => site.close());

  test('writes the exact sitemap and counts every left-out URL with its reason', async () => {
    const pages: SitemapUrl[] = [];
    const events: CrawlEvent[] = [];
    const run = crawl({
      start: site.url('/'),
      maxDepth: 3,
      rate: 0,
      concurrency: 4,
      timeoutMs: 500,
      userAgent: 'waymark-test/1.0 (+https://example.invalid/bot)',
      write: async (entries) => {
        for await (const entry of entries) pages.push(entry);
      },
    });
    for await (const event of run) events.push(event);
    const summary = await run;

    assert.deepEqual(
      pages.map((p) => p.loc),
      site.expectedSitemap,
    );
    assert.equal(pages[0]?.lastmod, '2024-01-02T03:04:05Z');
    const skipped = new Map<string, string>();
    for (const e of events)
      if (e.type === 'skipped') skipped.set(e.url.slice(site.url('').length), e.reason);
    assert.equal(skipped.get('/hidden'), 'noindex-meta');
    assert.equal(skipped.get('/hidden-header'), 'noindex-header');
    assert.equal(skipped.get('/print'), 'canonical-elsewhere');
    assert.equal(skipped.get('/missing'), 'client-error');
    assert.equal(skipped.get('/broken'), 'server-error');
    assert.equal(skipped.get('/report.pdf'), 'robots-disallowed');
    assert.equal(skipped.get('/private/data'), 'robots-disallowed');
    assert.equal(skipped.get('/old'), 'redirect');
    assert.equal(skipped.get('/older'), 'redirect');
    assert.equal(skipped.get('/away'), 'redirect-off-origin');
    assert.equal(skipped.get('/loop-a'), 'redirect');
    assert.equal(skipped.get('/loop-b'), 'redirect');
    assert.ok(events.some((e) => e.type === 'error' && e.url === site.url('/slow')));
    assert.equal(summary.listed, site.expectedSitemap.length);
    assert.equal(summary.errors, 1);
    assert.equal(summary.sitemapUrls, 3);
    assert.equal(summary.skipped['robots-disallowed'], 2);
    // The site's sitemap names /, /about and /orphan; no link reaches /orphan, and every other
    // listed page is missing from it.
    assert.deepEqual(summary.sitemapComparison?.orphanUrls, [site.url('/orphan')]);
    assert.equal(summary.sitemapComparison?.missing, site.expectedSitemap.length - 3);
    assert.ok(!summary.sitemapComparison?.missingUrls.includes(site.url('/about')));

    const log = site.server.requests;
    assert.equal(log[0]?.path, '/robots.txt', 'robots.txt is the first request');
    assert.ok(
      log.every(
        (r) => r.headers['user-agent'] === 'waymark-test/1.0 (+https://example.invalid/bot)',
      ),
    );
    const paths = log.map((r) => r.path);
    for (const never of ['/private/data', '/report.pdf', '/from-script', '/about?utm_source=x']) {
      assert.ok(!paths.includes(never), `${never} is never requested`);
    }
    // Every page is fetched once: the seen set covers redirects, loops and the tracking link.
    const pageRequests = paths.filter((p) => p !== '/robots.txt' && !p.startsWith('/sitemap'));
    assert.equal(new Set(pageRequests).size, pageRequests.length);
  });

  test('the per-origin rate limit spaces requests', async () => {
    const local = await startFixtureSite({ robots: 'User-agent: *\nDisallow:\n' });
    try {
      await crawl({
        start: local.url('/'),
        rate: 20,
        maxPages: 6,
        sitemaps: false,
        timeoutMs: 500,
      });
      // From the first page on: robots.txt's own arrival includes opening the connection.
      const times = local.server.requests.slice(1).map((r) => r.time);
      assert.ok(times.length >= 5);
      for (let i = 1; i < times.length; i++) {
        assert.ok(
          (times[i] as number) - (times[i - 1] as number) >= 45,
          `gap ${i}: ${(times[i] as number) - (times[i - 1] as number)} ms`,
        );
      }
    } finally {
      await local.close();
    }
  });

  test("a robots.txt redirect waits for the host's turn like any other request", async () => {
    const server = await startTestServer({
      '/robots.txt': { status: 301, headers: { location: '/robots-moved.txt' } },
      '/robots-moved.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nAllow: /\n',
      },
      '/': { headers: { 'content-type': 'text/html' }, body: '<title>home</title>' },
    });
    try {
      // A gap of 200 ms: long beside the time a connection takes to open, even on a busy machine.
      await crawl({ start: server.url('/'), rate: 5, sitemaps: false, timeoutMs: 2000 });
      const [robots, moved, home] = server.requests;
      assert.deepEqual(
        [robots?.path, moved?.path, home?.path],
        ['/robots.txt', '/robots-moved.txt', '/'],
      );
      // robots.txt's turn was booked when it was claimed, before its connection opened, so
      // its redirect may follow a little under a gap after robots.txt arrived; the page waits
      // a whole gap after the redirect.
      const afterRobots = (moved?.time ?? 0) - (robots?.time ?? 0);
      assert.ok(afterRobots >= 100, `the redirect followed ${afterRobots} ms after robots.txt`);
      const afterMoved = (home?.time ?? 0) - (moved?.time ?? 0);
      assert.ok(afterMoved >= 190, `the page followed ${afterMoved} ms after the redirect`);
    } finally {
      await server.close();
    }
  });

  // RFC 9309 2.3.1.3-4: a robots.txt that answers 5xx or 429 means crawl nothing; the
  // summary says why, and the old sitemap is not replaced (write is never called).
  for (const status of [500, 503, 429]) {
    test(`robots.txt answering ${status} means nothing is crawled or written, and says so`, async () => {
      const local = await startFixtureSite({ robotsStatus: status });
      try {
        let writes = 0;
        const summary = await crawl({
          start: local.url('/'),
          rate: 0,
          // Not even a sitemap given by hand is read from an origin closed this way.
          extraSitemaps: [local.url('/sitemap_index.xml')],
          write: () => void writes++,
        });
        assert.equal(writes, 0);
        assert.equal(summary.listed, 0);
        assert.deepEqual(summary.skipped, { 'robots-unreachable': 1 });
        assert.deepEqual(summary.unreachable, {
          origin: local.server.origin,
          cause: 'robots-txt',
          status,
          detail: null,
          message: `robots.txt answered ${status}: RFC 9309 says crawl nothing (${local.server.origin}/robots.txt)`,
        });
        assert.deepEqual(
          local.server.requests.map((r) => r.path),
          ['/robots.txt'],
        );
      } finally {
        await local.close();
      }
    });
  }
});

test('small bodies the crawl does not need are read, so the connection is kept', async () => {
  const sockets = new Set<unknown>();
  /** A response whose second half comes a moment after the headers, as on a real network. */
  const inTwoHalves =
    (status: number, headers: Record<string, string>, body: string) =>
    (request: IncomingMessage, response: ServerResponse) => {
      sockets.add(request.socket);
      response.writeHead(status, { 'content-length': String(body.length), ...headers });
      response.write(body.slice(0, body.length / 2));
      setTimeout(() => response.end(body.slice(body.length / 2)), 10);
    };
  const links = ['/gone-1', '/gone-2', '/gone-3', '/moved'].map((p) => `<a href="${p}">x</a>`);
  const server = await startTestServer({
    '/robots.txt': inTwoHalves(200, { 'content-type': 'text/plain' }, 'User-agent: *\nAllow: /\n'),
    '/': inTwoHalves(200, { 'content-type': 'text/html' }, `<p>${links.join('')}</p>`),
    '/moved': inTwoHalves(301, { location: '/', 'content-type': 'text/html' }, 'm'.repeat(5000)),
    '*': inTwoHalves(404, { 'content-type': 'text/html' }, 'x'.repeat(20_000)),
  });
  try {
    const summary = await crawl({
      start: server.url('/'),
      rate: 0,
      concurrency: 1,
      sitemaps: false,
      timeoutMs: 5000,
    });
    assert.equal(summary.skipped['client-error'], 3);
    assert.equal(summary.skipped.redirect, 1);
    assert.equal(server.requests.length, 6);
    // robots.txt and the first page may overlap; after that, no connection is opened again.
    assert.ok(sockets.size <= 2, `${sockets.size} connections for 6 requests one at a time`);
  } finally {
    await server.close();
  }
});

test('a URL longer than 8 KiB is left out with its reason, never requested', async () => {
  const long = `/${'a'.repeat(9000)}`;
  const server = await startTestServer({
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
    '/': {
      headers: { 'content-type': 'text/html' },
      body: `<a href="${long}">long</a><a href="/short">short</a>`,
    },
    '/short': { headers: { 'content-type': 'text/html' }, body: 'short' },
  });
  try {
    const events: CrawlEvent[] = [];
    const run = crawl({ start: server.url('/'), rate: 0 });
    for await (const event of run) events.push(event);
    const summary = await run;
    assert.equal(summary.listed, 2);
    assert.deepEqual(summary.skipped, { 'url-too-long': 1 });
    const skip = events.find((e) => e.type === 'skipped');
    assert.equal(
      skip?.type === 'skipped' && skip.detail,
      `${server.url(long).length} characters, more than 8192`,
    );
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/robots.txt', '/', '/short'],
    );
  } finally {
    await server.close();
  }
});
