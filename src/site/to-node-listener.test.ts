import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSiteHandler, type SiteHandler, toNodeListener } from './index.ts';
import { type ContentRoot, makeContentRoot } from './test-support/content-root.ts';

/**
 * Sends raw bytes and returns everything the server answers until it closes. A reset
 * (Node drops a connection whose headers are too large) ends the answer too.
 */
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

describe('toNodeListener with the site handler on 127.0.0.1', () => {
  let root: ContentRoot;
  let handler: SiteHandler;
  let server: Server;
  let port: number;
  before(async () => {
    const files: Record<string, string> = {};
    // Large enough that the body goes out in many writes.
    for (let i = 0; i < 3000; i++) files[`docs/page-${i}.md`] = `# ${i}\n`;
    root = makeContentRoot(files);
    handler = createSiteHandler({ root: root.dir });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handler.close();
    root.remove();
  });

  test('GET streams the whole body with the handler headers', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/sitemap.xml`);
    assert.equal(response.status, 200);
    const body = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.headers.get('content-length'), String(body.byteLength));
    const xml = new TextDecoder().decode(body);
    assert.equal(xml.match(/<url>/g)?.length, 3000);
    assert.ok(xml.includes(`<loc>http://127.0.0.1:${port}/id/`));
    assert.ok(xml.endsWith('</urlset>\n'));
  });

  test('an absolute-form target cannot pick the scheme of published URLs', async () => {
    const answer = await raw(
      port,
      `GET https://127.0.0.1:${port}/robots.txt HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, new RegExp(`\nSitemap: http://127\\.0\\.0\\.1:${port}/sitemap\\.xml\n`));
    assert.doesNotMatch(answer, /https:/);
  });

  test('a request without a Host header (HTTP/1.0) gets 400, not an invented localhost', async () => {
    const answer = await raw(port, 'GET /robots.txt HTTP/1.0\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.[01] 400 /);
    assert.doesNotMatch(answer, /localhost|no-host\.invalid/);
    assert.match(answer, /no Host header/);
  });

  test('HEAD sends the headers of GET and no body', async () => {
    const get = await fetch(`http://127.0.0.1:${port}/sitemap.xml`);
    const length = (await get.arrayBuffer()).byteLength;
    const answer = await raw(
      port,
      `HEAD /sitemap.xml HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    const [head = '', rest = ''] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 200/);
    assert.match(head, new RegExp(`content-length: ${length}`, 'i'));
    assert.equal(rest, '');
  });

  const HOSTILE = [
    'a"><x',
    `${'x'.repeat(70_000)}`,
    'a\r\n<x>injected</x>',
    'a\rb',
    'a\nb',
    "ex'ample.com",
  ];
  for (const host of HOSTILE) {
    test(`hostile Host ${JSON.stringify(host.slice(0, 16))}: 400 or refused, no markup`, async () => {
      const answer = await raw(
        port,
        `GET /sitemap.xml HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      // Node refuses some of these itself (400, 431 or a reset) before the handler sees them.
      if (answer !== '' || host.length < 1000) assert.match(answer, /^HTTP\/1\.1 4\d\d /);
      assert.ok(!answer.includes('<url>') && !answer.includes('<x'), answer.slice(0, 300));
    });
  }

  test('a handler that fails gives 500', async () => {
    const failing = createServer(toNodeListener(async () => Promise.reject(new Error('boom'))));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/`);
      assert.equal(response.status, 500);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  test("another framework's handler sees the Host header in request.url, the connection's scheme", async () => {
    const server = createServer(toNodeListener(async (request) => new Response(request.url)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const serverPort = (server.address() as AddressInfo).port;
    try {
      const CASES: [string, string][] = [
        [
          'GET /a?b=1 HTTP/1.1\r\nHost: www.example.com:8080\r\nConnection: close\r\n\r\n',
          'http://www.example.com:8080/a?b=1',
        ],
        [
          'GET https://other.example/p HTTP/1.1\r\nHost: www.example.com\r\nConnection: close\r\n\r\n',
          'http://www.example.com/p',
        ],
        ['GET /a HTTP/1.0\r\n\r\n', 'http://no-host.invalid/a'],
      ];
      for (const [request, expected] of CASES) {
        // The body, chunked or not: the URL as its one line of text.
        const body = (await raw(serverPort, request)).split('\r\n\r\n')[1] ?? '';
        assert.ok(body === expected || body.includes(`\r\n${expected}\r\n`), body);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the request signal aborts when the client leaves mid-body, not after a response', async () => {
    const signals: AbortSignal[] = [];
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listener = toNodeListener(async (request) => {
      signals.push(request.signal);
      if (new URL(request.url).pathname === '/done') return new Response('done\n');
      // One chunk, then nothing until the test lets go: the client leaves in between.
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new TextEncoder().encode('first chunk\n'));
            return;
          }
          await released;
          controller.close();
        },
      });
      return new Response(body);
    });
    const closed: Promise<void>[] = [];
    const server = createServer((req, res) => {
      // Registered after the adapter's own 'close' listener, so it runs after it.
      listener(req, res);
      closed.push(new Promise((resolve) => res.on('close', () => resolve())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const serverPort = (server.address() as AddressInfo).port;
    try {
      const done = await fetch(`http://127.0.0.1:${serverPort}/done`);
      assert.equal(await done.text(), 'done\n');
      await closed[0];
      assert.equal(signals[0]?.aborted, false, 'a completed response leaves the signal alone');

      await new Promise<void>((resolve, reject) => {
        const socket = connect(serverPort, '127.0.0.1', () =>
          socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${serverPort}\r\n\r\n`),
        );
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          if (chunk.includes('first chunk')) {
            socket.destroy();
            resolve();
          }
        });
        socket.on('error', reject);
      });
      await closed[1];
      assert.equal(signals[1]?.aborted, true, 'a client gone mid-body aborts the signal');
    } finally {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('request bodies and methods reach the handler', async () => {
    const echo = createServer(
      toNodeListener(
        async (request) =>
          new Response(
            `${request.method} ${new URL(request.url).pathname} ${await request.text()}`,
          ),
      ),
    );
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(
        `http://127.0.0.1:${(echo.address() as AddressInfo).port}/a/b?c`,
        {
          method: 'POST',
          body: 'payload',
        },
      );
      assert.equal(await response.text(), 'POST /a/b payload');
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });
});
