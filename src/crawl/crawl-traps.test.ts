// More traps, each on its own small server: a body that never ends, Retry-After, a missing
// robots.txt, Crawl-delay, a page in Windows-1252.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from '../http/test-support/test-server.ts';
import type { SitemapUrl } from '../sitemap/index.ts';
import { crawl } from './crawl.ts';
import type { CrawlEvent } from './types.ts';

const html = (body: string) => ({
  headers: { 'content-type': 'text/html' },
  body: `<html><body>${body}</body></html>`,
});

async function crawlAll(start: string, options: Record<string, unknown> = {}) {
  const pages: SitemapUrl[] = [];
  const events: CrawlEvent[] = [];
  const run = crawl({
    start,
    rate: 0,
    sitemaps: false,
    timeoutMs: 2000,
    write: async (entries) => {
      for await (const entry of entries) pages.push(entry);
    },
    ...options,
  });
  for await (const event of run) events.push(event);
  return { pages: pages.map((p) => p.loc), events, summary: await run };
}

test('a body past --max-body (a "1 GB" stream) is cut off as an error, the crawl goes on', async () => {
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '/': html('<a href="/huge">huge</a><a href="/fine">fine</a>'),
    '/fine': html('ok'),
    '/huge': (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = `<p>${'x'.repeat(65_536)}</p>`;
      let sent = 0;
      const pump = () => {
        while (sent < 16_384 && res.write(chunk)) sent++;
        if (sent < 16_384) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => {
        sent = Number.POSITIVE_INFINITY;
      });
      pump();
    },
  });
  try {
    const { pages, events } = await crawlAll(server.url('/'), { maxBytes: 1024 * 1024 });
    assert.deepEqual(pages, [server.url('/'), server.url('/fine')]);
    const error = events.find((e) => e.type === 'error');
    assert.match(error?.type === 'error' ? error.message : '', /larger than 1 MiB/);
  } finally {
    await server.close();
  }
});

test('429 and 503 with Retry-After are retried after the wait; a missing robots.txt allows all', async () => {
  let tries = 0;
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '/': html('<a href="/busy">busy</a><a href="/gone-busy">busy forever</a>'),
    '/busy': (_, res) => {
      tries++;
      if (tries < 3) res.writeHead(tries === 1 ? 429 : 503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>finally</html>');
    },
    '/gone-busy': { status: 503, headers: { 'retry-after': '0' } },
  });
  try {
    const { pages, summary } = await crawlAll(server.url('/'));
    assert.deepEqual(pages, [server.url('/'), server.url('/busy')]);
    assert.equal(tries, 3);
    assert.equal(summary.skipped['server-error'], 1);
    // Two retries, then given up: three requests in all.
    assert.equal(server.requests.filter((r) => r.path === '/gone-busy').length, 3);
  } finally {
    await server.close();
  }
});

test('Crawl-delay spaces requests even when the rate would allow more', async () => {
  const server = await startTestServer({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 0.2\nDisallow:\n',
    },
    '/': html('<a href="/a">a</a><a href="/b">b</a>'),
    '/a': html('a'),
    '/b': html('b'),
  });
  try {
    await crawlAll(server.url('/'), { rate: 100 });
    const times = server.requests.slice(1).map((r) => r.time);
    assert.equal(times.length, 3);
    for (let i = 1; i < times.length; i++)
      assert.ok((times[i] as number) - (times[i - 1] as number) >= 180);
  } finally {
    await server.close();
  }
});

test('links of a Windows-1252 page are read through its charset', async () => {
  const body = Buffer.from('<html><body><a href="/caf\xe9">caf\xe9</a></body></html>', 'latin1');
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '/': { headers: { 'content-type': 'text/html; charset=windows-1252' }, body },
    '/caf%C3%A9': html('menu'),
  });
  try {
    const { pages } = await crawlAll(server.url('/'));
    assert.deepEqual(pages, [server.url('/'), server.url('/caf%C3%A9')]);
  } finally {
    await server.close();
  }
});

test('feeds: from <link rel=alternate> and feed-like sitemap URLs, confirmed by reading them', async () => {
  const rss =
    '<?xml version="1.0"?><rss version="2.0"><channel><item><link>http://x/1</link></item></channel></rss>';
  const atom =
    '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://x/1"/></entry></feed>';
  let origin = '';
  const server = await startTestServer({
    '/robots.txt': (_, res) => {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nDisallow:\nSitemap: ${origin}/sitemap.xml\n`);
    },
    '/': {
      headers: { 'content-type': 'text/html' },
      body: '<html><head><link rel="alternate" type="application/rss+xml" href="/feed"><link rel="alternate" type="application/atom+xml" href="https://elsewhere.example/atom"></head><body></body></html>',
    },
    '/feed': { headers: { 'content-type': 'application/rss+xml' }, body: rss },
    '/blog/atom.xml': { headers: { 'content-type': 'application/atom+xml' }, body: atom },
    '/rss': html('an HTML page, not a feed'),
    '/sitemap.xml': (_, res) => {
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/blog/atom.xml</loc></url><url><loc>${origin}/rss</loc></url></urlset>`,
        );
    },
  });
  origin = server.origin;
  try {
    const { summary } = await crawlAll(server.url('/'), { feeds: true, sitemaps: true });
    assert.deepEqual(summary.feeds, [server.url('/blog/atom.xml'), server.url('/feed')]);
  } finally {
    await server.close();
  }
});

test('a caller-supplied crawl state (the CrawlState interface) is used and closed', async () => {
  const { openSqliteCrawlState } = await import('./sqlite-crawl-state.ts');
  const inner = openSqliteCrawlState(null, { resume: false });
  let steps = 0;
  let closed = false;
  // A wrapper standing in for another store: it delegates, and counts what the crawler asks.
  const state = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'step') {
        return (...args: Parameters<typeof inner.step>) => {
          steps++;
          return target.step(...args);
        };
      }
      if (key === 'close') {
        return () => {
          closed = true;
          return target.close();
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '/': html('<a href="/a">a</a>'),
    '/a': html('a'),
  });
  try {
    const { pages } = await crawlAll(server.url('/'), { state });
    assert.deepEqual(pages, [server.url('/'), server.url('/a')]);
    assert.ok(steps > 0);
    assert.ok(closed);
  } finally {
    await server.close();
  }
});

test('a chain of canonicals is a step deeper each, so --max-depth cuts it as it cuts links', async () => {
  // Every /c?n=k says its canonical is /c?n=k+1: a trap that stayed at the start's depth.
  const server = await startTestServer({
    '/robots.txt': { status: 404 },
    '*': (req, res) => {
      const n = Number(/^\/c\?n=(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
      if (Number.isNaN(n)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><head><link rel="canonical" href="/c?n=${n + 1}"></head><body>${n}</body></html>`,
      );
    },
  });
  try {
    const { summary } = await crawlAll(server.url('/c?n=0'), { maxDepth: 2, maxPages: 50 });
    // The start (depth 0), its canonical (1) and that one's (2); the next would be depth 3.
    assert.deepEqual(
      server.requests.filter((r) => r.path.startsWith('/c')).map((r) => r.path),
      ['/c?n=0', '/c?n=1', '/c?n=2'],
    );
    assert.deepEqual(summary.truncated?.maxDepth, { limit: 2, links: 1 });
  } finally {
    await server.close();
  }
});
