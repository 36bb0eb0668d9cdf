// Facts of a crawl that must live in its state, not in one worker's memory: the feeds its
// pages and sitemaps name (confirmed by whichever run writes the output) and the redirects
// followed to reach a URL (whichever worker takes each hop). One process shows it: a resumed
// SQLite crawl is a run that did not see the first run's pages, and an item queued in the
// state "by another worker" carries its own count of redirects.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import type { SitemapUrl } from '../sitemap/index.ts';
import { type CrawlRunOptions, crawl } from './crawl.ts';
import { resolveCrawlSettings, sharedOptionsJson } from './internal/crawl-settings.ts';
import { openSqliteCrawlState } from './sqlite-crawl-state.ts';
import type { CrawlSummary } from './types.ts';

const RSS =
  '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><link>http://x/1</link></item></channel></rss>';
const ATOM =
  '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><link href="http://x/1"/></entry></feed>';

const page = (body: string, head = '') => ({
  headers: { 'content-type': 'text/html' },
  body: `<html><head>${head}</head><body>${body}</body></html>`,
});
const rss = (href: string) => `<link rel="alternate" type="application/rss+xml" href="${href}">`;
const atom = (href: string) => `<link rel="alternate" type="application/atom+xml" href="${href}">`;

/**
 * Runs a crawl to its end, or aborts it once every URL of `stopAfter` has had its event: the
 * summary, and the pages it wrote (null when it wrote none).
 */
async function run(options: CrawlRunOptions, stopAfter: readonly string[] = []) {
  let written: SitemapUrl[] | null = null;
  const stop = new AbortController();
  const waiting = new Set(stopAfter);
  const crawlRun = crawl({
    rate: 0,
    signal: stop.signal,
    write: async (pages: AsyncIterable<SitemapUrl>) => {
      written = [];
      for await (const entry of pages) written.push(entry);
    },
    ...options,
  });
  for await (const event of crawlRun) {
    if ((event.type === 'fetched' || event.type === 'skipped') && waiting.delete(event.url)) {
      if (waiting.size === 0 && stopAfter.length > 0) stop.abort();
    }
  }
  const summary: CrawlSummary = await crawlRun;
  return { summary, written: written as SitemapUrl[] | null };
}

describe('feeds are named by the run that writes, whichever run found them', () => {
  let server: TestServer;
  let dir: string;
  const feedPaths = ['/a.atom', '/b.rss', '/blog/atom.xml', '/feed'];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-facts-'));
    let origin = '';
    server = await startTestServer({
      '/robots.txt': (_, res) => {
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
      },
      '/sitemap.xml': (_, res) => {
        res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/blog/atom.xml</loc></url></urlset>`,
          );
      },
      // A listed page, a noindex page, a page canonical elsewhere: each names a feed.
      '/': page(
        ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'odd'].map((p) => `<a href="/${p}">${p}</a>`).join(''),
        rss('/feed'),
      ),
      '/a': page('noindex', `<meta name="robots" content="noindex">${atom('/a.atom')}`),
      '/b': page('print view', `<link rel="canonical" href="/">${rss('/b.rss')}`),
      '/c': page('a feed robots.txt keeps out', rss('/private/feed.rss')),
      // Not a page: its Content-Type, kept as the detail of its result, is no list of feeds.
      '/odd': (_, res) => {
        res.writeHead(200, { 'content-type': `{"feeds":["${origin}/evil.rss"]}` }).end('{}');
      },
      '/d': page('d'),
      '/e': page('e'),
      '/f': page('f'),
      '/g': page('g'),
      '/feed': { headers: { 'content-type': 'application/rss+xml' }, body: RSS },
      '/a.atom': { headers: { 'content-type': 'application/atom+xml' }, body: ATOM },
      '/b.rss': { headers: { 'content-type': 'application/rss+xml' }, body: RSS },
      '/blog/atom.xml': { headers: { 'content-type': 'application/atom+xml' }, body: ATOM },
      '/private/feed.rss': { headers: { 'content-type': 'application/rss+xml' }, body: RSS },
      '/evil.rss': { headers: { 'content-type': 'application/rss+xml' }, body: RSS },
    });
    origin = server.origin;
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a resumed crawl names the feeds of pages and sitemaps the interrupted run crawled', async () => {
    const feeds = feedPaths.map((path) => server.url(path));
    const options = { start: server.url('/'), feeds: true, concurrency: 1 } as const;
    const whole = await run({ ...options, statePath: join(dir, 'whole.db') });
    assert.deepEqual(whole.summary.feeds, feeds);

    const statePath = join(dir, 'resumed.db');
    const stopAfter = ['/', '/a', '/b', '/c', '/blog/atom.xml'].map((path) => server.url(path));
    const first = await run({ ...options, statePath }, stopAfter);
    assert.equal(first.summary.stoppedBy, 'aborted');
    assert.deepEqual(first.summary.feeds, [], 'an aborted run confirms no feeds');
    const from = server.requests.length;
    const resumed = await run({ ...options, statePath, resume: true });
    assert.equal(resumed.summary.stoppedBy, null);
    assert.deepEqual(resumed.summary.feeds, feeds);
    const again = server.requests.slice(from).map((request) => request.path);
    for (const path of ['/', '/a', '/b', '/c']) assert.ok(!again.includes(path), path);

    // A run of the finished crawl writes from the state at once, and names them again.
    const finished = await run({ ...options, statePath, resume: true });
    assert.deepEqual(finished.summary.feeds, feeds);
    assert.deepEqual(
      finished.written?.map((entry) => entry.loc),
      whole.written?.map((entry) => entry.loc),
    );

    const paths = server.requests.map((request) => request.path);
    assert.ok(!paths.includes('/private/feed.rss'), 'a feed robots.txt disallows is not fetched');
    assert.ok(paths.includes('/odd') && !paths.includes('/evil.rss'));
    // The feeds a page names are kept with its result, but are no part of its sitemap entry.
    for (const entry of [...(whole.written ?? []), ...(finished.written ?? [])]) {
      assert.deepEqual(Object.keys(entry), ['loc'], JSON.stringify(entry));
    }
  });
});

test('maxRedirects counts the redirects an item was queued with, whichever worker followed them', async () => {
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '/': page('nothing to follow'),
    '*': (req, res) => {
      // /hop/N redirects to /hop/N+1, /jump/N to /jump/N+1, up to 20.
      const match = /^\/(hop|jump)\/(\d+)$/.exec(req.url ?? '');
      if (match === null || Number(match[2]) >= 20) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(301, { location: `/${match[1]}/${Number(match[2]) + 1}` }).end();
    },
  });
  const state = openSqliteCrawlState(null, { resume: false });
  try {
    const start = server.url('/');
    const { shared } = resolveCrawlSettings({ start, rate: 0, maxRedirects: 2 });
    await state.create({ start, options: sharedOptionsJson(shared), gapMs: 0 });
    // As another worker queues them: the targets of a second and of a first redirect.
    const queued = (path: string, redirects: number) => ({
      url: server.url(path),
      origin: server.origin,
      priority: 100,
      depth: 1,
      via: server.url('/elsewhere'),
      kind: 'page' as const,
      redirects,
    });
    await state.add([queued('/hop/3', 2), queued('/jump/2', 1)]);
    const skipped = new Map<string, string>();
    const crawlRun = crawl({ join: true, state });
    for await (const event of crawlRun) {
      if (event.type === 'skipped') skipped.set(new URL(event.url).pathname, event.reason);
    }
    await crawlRun;
    assert.deepEqual(Object.fromEntries(skipped), {
      '/hop/3': 'too-many-redirects',
      '/jump/2': 'redirect',
      '/jump/3': 'too-many-redirects',
    });
    const paths = server.requests.map((request) => request.path).filter((p) => p !== '/robots.txt');
    assert.deepEqual(paths.sort(), ['/', '/hop/3', '/jump/2', '/jump/3']);
  } finally {
    await state.close();
    await server.close();
  }
});
