// The crawler fetches pages over its own node:http(s) transport unless the caller gives a
// `fetch`; then through `openWithLimits` and that fetch. Both must give the same outcome for
// every response: the same sample of a site is fetched both ways (the second way with
// Node's own fetch) and compared, outcome by outcome, and a whole crawl of the fixture site
// is run both ways and compared, event by event.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../../http/test-support/test-server.ts';
import { crawl } from '../crawl.ts';
import { startFixtureSite } from '../test-support/fixture-site.ts';
import type { CrawlEvent } from '../types.ts';
import { fetchPage, type PageOutcome } from './page-fetch.ts';
import type { RequestContext } from './request-context.ts';

const MAX_BYTES = 64 * 1024;
const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>T &amp; é</title></head><body>${body}</body></html>`;
const LINKS = page(
  '<a href="/a">a</a> <a href="b?x=1#f">b</a> <a href="https://other.test/">o</a> <img src="/i.png" alt="i">',
  '<meta name="robots" content="nofollow"><link rel="canonical" href="/canon"><link rel="alternate" hreflang="de" href="/de/">',
);
const latin1 = Buffer.from(page('caf\u00e9 <a href="/caf\u00e9">x</a>'), 'latin1');
const zstd = (zlib as { zstdCompressSync?: (data: Buffer) => Buffer }).zstdCompressSync;

type Send = (request: IncomingMessage, response: ServerResponse) => void;
const send =
  (status: number, headers: Record<string, string | string[]>, body: Buffer | string = '') =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, headers);
    response.end(body);
  };
const html = (body: Buffer | string, headers: Record<string, string | string[]> = {}) =>
  send(200, { 'content-type': 'text/html; charset=utf-8', ...headers }, body);

/** Path -> what the server does; each is fetched both ways. */
const ROUTES: Record<string, Send> = {
  '/plain': html(LINKS, { 'last-modified': 'Tue, 02 Jan 2024 03:04:05 GMT' }),
  '/header-latin1': send(200, { 'content-type': 'text/html; charset=ISO-8859-1' }, latin1),
  '/meta-charset': send(
    200,
    { 'content-type': 'text/html' },
    Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]),
  ),
  '/bom': send(200, { 'content-type': 'text/html; charset=latin1' }, `\ufeff${LINKS}`),
  '/xhtml': send(200, { 'content-type': 'application/xhtml+xml' }, LINKS),
  '/no-type': (_, response) => {
    response.removeHeader('content-type');
    response.writeHead(200);
    response.end(LINKS);
  },
  '/png': send(200, { 'content-type': 'image/png' }, Buffer.alloc(300)),
  '/gzip': html(zlib.gzipSync(LINKS), { 'content-encoding': 'gzip' }),
  '/x-gzip': html(zlib.gzipSync(LINKS), { 'content-encoding': 'x-gzip' }),
  '/deflate': html(zlib.deflateSync(LINKS), { 'content-encoding': 'deflate' }),
  '/deflate-raw': html(zlib.deflateRawSync(LINKS), { 'content-encoding': 'deflate' }),
  '/br': html(zlib.brotliCompressSync(LINKS), { 'content-encoding': 'br' }),
  '/gzip-then-br': html(zlib.brotliCompressSync(zlib.gzipSync(LINKS)), {
    'content-encoding': 'gzip, br',
  }),
  ...(zstd ? { '/zstd': html(zstd(Buffer.from(LINKS)), { 'content-encoding': 'zstd' }) } : {}),
  '/unknown-coding': html(LINKS, { 'content-encoding': 'snappy' }),
  '/bad-gzip': html('not gzip at all', { 'content-encoding': 'gzip' }),
  '/gzip-bomb': html(zlib.gzipSync(Buffer.alloc(4 * MAX_BYTES)), { 'content-encoding': 'gzip' }),
  '/moved': send(301, { location: '/plain' }, 'moved'),
  '/found-absolute': send(302, { location: 'http://elsewhere.test/x' }),
  '/redirect-no-location': send(307, {}),
  '/missing': send(404, { 'content-type': 'text/html' }, page('gone')),
  '/broken': send(500, { 'content-type': 'text/plain' }, 'oops'),
  '/busy': send(503, { 'retry-after': '120' }, 'busy'),
  '/slow-down': send(429, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
  '/no-content': send(204, { 'content-length': '0' }),
  '/robots-header': html(LINKS, { 'x-robots-tag': ['otherbot: noindex', 'googlebot: nofollow'] }),
  '/two-types': html(LINKS, { 'content-type': ['text/html', 'text/plain'] }),
  '/spaces': html(LINKS, { 'x-robots-tag': ' noindex ', 'last-modified': 'not a date' }),
  '/too-large-declared': html(Buffer.alloc(MAX_BYTES + 1, 'a')),
  '/too-large-streamed': (_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    for (let i = 0; i < 5; i++) response.write(Buffer.alloc(MAX_BYTES / 2, 'b'));
    response.end();
  },
  '/cut-body': (_, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000' });
    response.write('<html><body><a href="/a">a</a>', () => response.socket?.destroy());
  },
  '/hang-up': (request) => request.socket.destroy(),
  '/stall-head': () => {},
  '/stall-body': (_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<html><body>');
  },
};

function context(fetch: RequestContext['fetch']): RequestContext {
  return {
    userAgent: 'waymark-test/1.0',
    timeoutMs: 400,
    maxBytes: MAX_BYTES,
    fetch,
    signal: undefined,
    now: () => Date.parse('2015-10-21T07:00:00Z'),
  };
}

describe("pages fetched over the crawler's transport and over fetch give the same outcomes", () => {
  let server: TestServer;
  let closedPort = 0;
  before(async () => {
    server = await startTestServer(ROUTES);
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  after(() => server.close());

  for (const path of Object.keys(ROUTES)) {
    test(path, async () => {
      const url = server.url(path);
      const own = await fetchPage(url, context(undefined));
      const viaFetch = await fetchPage(url, context(globalThis.fetch));
      assert.deepEqual(own, viaFetch);
      assert.notEqual(own.kind === 'failed' ? own.cause : own.kind, '');
    });
  }

  test('a refused connection', async () => {
    const url = `http://127.0.0.1:${closedPort}/`;
    const own = await fetchPage(url, context(undefined));
    assert.deepEqual(own, await fetchPage(url, context(globalThis.fetch)));
    assert.equal((own as Extract<PageOutcome, { kind: 'failed' }>).cause, 'ECONNREFUSED');
  });

  test("a caller's fetch that rejects with something not an Error: a failed page that names it", async () => {
    for (const thrown of [null, undefined, 'offline', 42]) {
      const rejecting = (() => Promise.reject(thrown)) as unknown as RequestContext['fetch'];
      const outcome = await fetchPage(server.url('/plain'), context(rejecting));
      assert.equal(outcome.kind, 'failed');
      const { message } = outcome as Extract<PageOutcome, { kind: 'failed' }>;
      assert.ok(message.includes(`(${String(thrown)})`), message);
    }
  });

  test('the outcomes are the ones each route is there for', async () => {
    const kinds = new Map<string, string>();
    for (const path of Object.keys(ROUTES)) {
      const outcome = await fetchPage(server.url(path), context(undefined));
      kinds.set(path, outcome.kind === 'failed' ? `failed ${outcome.cause}` : outcome.kind);
    }
    assert.equal(kinds.get('/gzip-then-br'), 'html');
    assert.equal(kinds.get('/png'), 'non-html');
    assert.equal(kinds.get('/moved'), 'redirect');
    assert.equal(kinds.get('/busy'), 'retry');
    assert.equal(kinds.get('/missing'), 'status');
    assert.equal(kinds.get('/gzip-bomb'), 'failed too-large');
    assert.equal(kinds.get('/too-large-declared'), 'failed too-large');
    assert.equal(kinds.get('/too-large-streamed'), 'failed too-large');
    assert.equal(kinds.get('/cut-body'), 'failed connection closed by the server');
    assert.equal(kinds.get('/hang-up'), 'failed connection closed by the server');
    assert.equal(kinds.get('/stall-head'), 'failed timeout');
    assert.equal(kinds.get('/stall-body'), 'failed timeout');
    const plain = await fetchPage(server.url('/plain'), context(undefined));
    assert.ok(plain.kind === 'html' && plain.facts.links.length > 0);
  });
});

test('a whole crawl of the fixture site gives the same events, summary and sitemap both ways', async () => {
  const site = await startFixtureSite();
  try {
    const run = async (fetch: typeof globalThis.fetch | undefined) => {
      const locs: string[] = [];
      const events: CrawlEvent[] = [];
      const crawling = crawl({
        start: site.url('/'),
        maxDepth: 3,
        rate: 0,
        concurrency: 1,
        timeoutMs: 500,
        userAgent: 'waymark-test/1.0',
        ...(fetch ? { fetch } : {}),
        write: async (entries) => {
          for await (const entry of entries) locs.push(entry.loc);
        },
      });
      for await (const event of crawling) events.push(event);
      const { durationMs: _duration, rate: _rate, ...summary } = await crawling;
      // Only times differ between two runs: a page's, the run's and its rate.
      const untimed = new Set(['ms', 'durationMs', 'rate']);
      const timeless = events.map((event) =>
        JSON.stringify(event, (key, value) => (untimed.has(key) ? 0 : value)),
      );
      // Sorted: when the sitemaps' URLs join the queue depends on timing, in either run.
      return { locs, events: timeless.sort(), summary };
    };
    const own = await run(undefined);
    const viaFetch = await run(globalThis.fetch);
    assert.deepEqual(own.locs, site.expectedSitemap);
    assert.deepEqual(own, viaFetch);
  } finally {
    await site.close();
  }
});
