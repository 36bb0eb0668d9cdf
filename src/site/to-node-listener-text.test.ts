import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSiteHandler, type FetchHandler, type SiteHandler, toNodeListener } from './index.ts';
import { takeText, textResponse } from './internal/chunked-body.ts';
import { type ContentRoot, makeContentRoot } from './test-support/content-root.ts';

/** Everything the server answers to one raw request, until it closes. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('close', () => resolve(data));
    socket.on('error', () => {});
  });
}

async function listen(handler: FetchHandler): Promise<Server> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The answer without its Date header (the two servers answer at different seconds). */
function withoutDate(answer: string): string {
  return answer.replace(/\r\ndate: [^\r]*/i, '');
}

describe('toNodeListener with the site handler: no Request per request, text written directly; the same bytes as the Request and stream path', () => {
  let root: ContentRoot;
  let handler: SiteHandler;
  let fast: Server;
  let slow: Server;
  before(async () => {
    const files: Record<string, string> = {
      'waymark.site.yaml':
        'maxUrls: 2\nrobots:\n  groups:\n    - userAgent: ["*"]\n      disallow: ["/drafts/é"]\n',
    };
    for (let i = 0; i < 5; i++) files[`docs/page-${i}.md`] = `# ${i}\n`;
    root = makeContentRoot(files);
    // A fixed clock: Last-Modified is the same for both servers.
    handler = createSiteHandler({ root: root.dir, now: () => Date.UTC(2026, 0, 2) });
    fast = await listen(handler);
    // The reference: the same response re-wrapped, so the listener reads its Web stream.
    slow = await listen(async (request) => {
      const response = await handler(request);
      return new Response(response.body, response);
    });
  });
  after(async () => {
    for (const server of [fast, slow]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await handler.close();
    root.remove();
  });

  // Headers the handler reads, as Node hands them over: duplicates, odd case, spacing.
  const HEADERS = [
    'Host: example.com',
    'Host: a.example\r\nHost: b.example',
    'hOsT:   spaced.example  ',
    'Host: example.com\r\nIf-None-Match: *',
    'Host: example.com\r\nIf-None-Match: "nope", W/"other"',
    'Host: example.com\r\nIf-Modified-Since: Fri, 02 Jan 2026 00:00:00 GMT',
    'Host: example.com\r\nIf-Modified-Since: Thu, 01 Jan 2026 00:00:00 GMT',
    'Host: example.com\r\nIf-Modified-Since: nonsense',
    'Host: example.com:8080\r\nX-Forwarded-Host: evil.example\r\nForwarded: host=evil.example',
    'Host: [::1]:8080',
    'Host: 127.0.0.1:1',
  ];
  for (const headers of HEADERS) {
    for (const line of [
      'GET /sitemap_index.xml',
      'HEAD /robots.txt',
      'GET /sitemaps/sitemap-0001.xml',
    ]) {
      test(`${line} with ${JSON.stringify(headers)}`, async () => {
        const request = `${line} HTTP/1.1\r\n${headers}\r\nConnection: close\r\n\r\n`;
        const a = await raw((fast.address() as AddressInfo).port, request);
        const b = await raw((slow.address() as AddressInfo).port, request);
        assert.match(a, /^HTTP\/1\.1 \d{3} /);
        assert.equal(withoutDate(a), withoutDate(b));
      });
    }
  }

  test('If-None-Match with the ETag just given: 304 on both paths', async () => {
    const first = await raw(
      (fast.address() as AddressInfo).port,
      'GET /robots.txt HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n',
    );
    const etag = /\r\netag: ([^\r]*)/i.exec(first)?.[1] ?? '';
    assert.ok(etag.length > 2);
    for (const tag of [etag, `W/${etag}`, `"x", ${etag}`]) {
      const request = `GET /robots.txt HTTP/1.1\r\nHost: example.com\r\nIf-None-Match: ${tag}\r\nConnection: close\r\n\r\n`;
      const a = await raw((fast.address() as AddressInfo).port, request);
      const b = await raw((slow.address() as AddressInfo).port, request);
      assert.match(a, /^HTTP\/1\.1 304 /);
      assert.equal(withoutDate(a), withoutDate(b));
    }
  });

  const REQUESTS = [
    'GET /robots.txt',
    'GET /sitemap_index.xml',
    'GET /sitemap.xml',
    'HEAD /sitemap_index.xml',
    'HEAD /robots.txt',
    'GET /nothing-here',
    'GET /nothing-here.txt',
    'POST /robots.txt',
    'GET /sitemaps/sitemap-0009.xml',
  ];
  for (const line of REQUESTS) {
    for (const host of ['example.com', 'xn--bcher-kva.example', 'a"b']) {
      test(`${line} (Host ${host})`, async () => {
        const request = `${line} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
        const a = await raw((fast.address() as AddressInfo).port, request);
        const b = await raw((slow.address() as AddressInfo).port, request);
        assert.match(a, /^HTTP\/1\.1 \d{3} /);
        assert.equal(withoutDate(a), withoutDate(b));
      });
    }
  }
});

test('a broken site configuration: the same 503 on both paths', async () => {
  const root = makeContentRoot({ 'waymark.site.yaml': 'maxUrls: [\n', 'a.md': '# a\n' });
  const handler = createSiteHandler({ root: root.dir, now: () => Date.UTC(2026, 0, 2) });
  const fast = await listen(handler);
  const slow = await listen(async (request) => handler(request));
  try {
    for (const line of ['GET /robots.txt', 'HEAD /sitemap.xml']) {
      const request = `${line} HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n`;
      const a = await raw((fast.address() as AddressInfo).port, request);
      const b = await raw((slow.address() as AddressInfo).port, request);
      assert.match(a, /^HTTP\/1\.1 503 [\s\S]*retry-after: 60/);
      assert.equal(withoutDate(a), withoutDate(b));
    }
  } finally {
    for (const server of [fast, slow]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await handler.close();
    root.remove();
  }
});

describe('takeText', () => {
  test('gives the text of an unread body once, and nothing once the body is read or locked', async () => {
    const fresh = textResponse('hé\n', { status: 200 });
    assert.equal(takeText(fresh), 'hé\n');
    assert.equal(takeText(fresh), null);

    const read = textResponse('read\n', { status: 200 });
    assert.equal(await read.text(), 'read\n');
    assert.equal(takeText(read), null);

    const locked = textResponse('locked\n', { status: 200 });
    locked.body?.getReader();
    assert.equal(takeText(locked), null);

    assert.equal(takeText(textResponse(null, { status: 204 })), null);
    assert.equal(takeText(new Response('not ours\n')), null);
  });

  test('a Response made by textResponse reads as usual', async () => {
    assert.equal(await textResponse('x < y\n', { status: 200 }).text(), 'x < y\n');
  });
});
