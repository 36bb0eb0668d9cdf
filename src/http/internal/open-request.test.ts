// The crawler's requests go over waymark's own node:http(s) transport unless the caller gives
// a `fetch`. Whatever the transport, a chain of redirects, a cap or a failure must come out
// the same: every case below is opened both ways (the second with Node's own fetch) and the
// outcomes compared field by field, message included; then checked against what it must be.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import type { FetchFunction } from '../fetch-with-limits.ts';
import { startTestServer, type TestServer } from '../test-support/test-server.ts';
import { type OpenRequestOptions, openRequest } from './open-request.ts';

/** What a request came to, in terms both transports must agree on. */
type Outcome =
  | {
      readonly url: string;
      readonly redirects: readonly string[];
      readonly status: number;
      readonly body: string;
      readonly contentType: string | null;
    }
  | { readonly error: string; readonly message: string };

interface Case {
  readonly name: string;
  readonly path: string;
  readonly options?: Partial<OpenRequestOptions>;
  /** The outcome, with ORIGIN and OTHER for the two servers' origins. */
  readonly expected: (origin: string, other: string) => Partial<Record<string, unknown>>;
}

const CASES: readonly Case[] = [
  {
    name: 'a chain of three redirects, relative and absolute, each hop recorded',
    path: '/r1',
    expected: (o) => ({ url: `${o}/end`, redirects: [`${o}/r1`, `${o}/r2`, `${o}/r3`] }),
  },
  {
    name: 'a fragment is never sent, and the final URL has none',
    path: '/end#part',
    expected: (o) => ({ url: `${o}/end`, status: 200, body: 'the end' }),
  },
  {
    name: 'credentials are dropped when a redirect leaves the origin',
    path: '/to-other',
    options: { headers: { authorization: 'Bearer secret', 'user-agent': 'test' } },
    expected: (_, other) => ({ url: `${other}/echo-auth`, body: 'authorization: none' }),
  },
  {
    name: 'credentials are kept on the same origin',
    path: '/echo-auth',
    options: { headers: { authorization: 'Bearer secret', 'user-agent': 'test' } },
    expected: () => ({ body: 'authorization: Bearer secret' }),
  },
  {
    name: 'a loop is an error',
    path: '/loop-a',
    expected: () => ({ error: 'redirect-limit' }),
  },
  {
    name: 'more redirects than allowed is an error',
    path: '/r1',
    options: { maxRedirects: 2 },
    expected: () => ({ error: 'redirect-limit' }),
  },
  {
    name: 'a redirect to another scheme is an error',
    path: '/to-ftp',
    expected: () => ({ error: 'network' }),
  },
  {
    name: 'a redirect to a URL with user info is refused, as fetch refuses it',
    path: '/to-credentials',
    expected: () => ({ error: 'network' }),
  },
  {
    name: 'not following, a redirect is the result',
    path: '/r1',
    options: { followRedirects: false },
    expected: (o) => ({ url: `${o}/r1`, redirects: [], status: 302 }),
  },
  {
    name: 'a 3xx without Location is a result',
    path: '/no-location',
    expected: () => ({ status: 301, body: '' }),
  },
  {
    name: 'a gzip body is decoded, and its size counted decoded',
    path: '/gzip',
    options: { maxBytes: 100_000 },
    expected: () => ({ error: 'too-large' }),
  },
  {
    name: 'a gzip body under the cap comes back decoded',
    path: '/gzip',
    options: { maxBytes: 300_000 },
    expected: () => ({ status: 200, contentType: 'text/plain' }),
  },
  {
    name: 'a Content-Length over the cap fails',
    path: '/big',
    options: { maxBytes: 1000 },
    expected: () => ({ error: 'too-large' }),
  },
  {
    name: 'a server that stalls after a redirect times out, naming where the chain started',
    path: '/to-stall',
    options: { timeoutMs: 300 },
    expected: () => ({ error: 'timeout' }),
  },
  {
    name: 'a server that stalls in the middle of the body times out',
    path: '/stall-body',
    options: { timeoutMs: 300 },
    expected: () => ({ error: 'timeout' }),
  },
];

describe('openRequest: the same outcomes over node:http and over fetch', () => {
  let server: TestServer;
  let other: TestServer;
  before(async () => {
    other = await startTestServer({
      '/echo-auth': (request, response) =>
        response.end(`authorization: ${request.headers.authorization ?? 'none'}`),
    });
    server = await startTestServer({
      '/r1': { status: 302, headers: { location: 'r2' } },
      '/r2': { status: 301, headers: { location: '/r3' } },
      '/r3': (_, response) =>
        response.writeHead(307, { location: `${server.origin}/end` }).end('moved'),
      '/end': { headers: { 'content-type': 'text/plain' }, body: 'the end' },
      '/to-other': (_, response) =>
        response.writeHead(308, { location: other.url('/echo-auth') }).end(),
      '/echo-auth': (request, response) =>
        response.end(`authorization: ${request.headers.authorization ?? 'none'}`),
      '/loop-a': { status: 301, headers: { location: '/loop-b' } },
      '/loop-b': { status: 301, headers: { location: '/loop-a' } },
      '/to-ftp': { status: 302, headers: { location: 'ftp://example.test/file' } },
      '/to-credentials': (_, response) =>
        response.writeHead(302, { location: server.url('/end').replace('//', '//user:pw@') }).end(),
      '/no-location': { status: 301 },
      '/gzip': {
        headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
        body: gzipSync('a'.repeat(200_000)),
      },
      '/big': { body: 'b'.repeat(5000) },
      '/to-stall': { status: 302, headers: { location: '/stall' } },
      '/stall': () => {},
      '/stall-body': (_, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('the beginning, and then nothing');
      },
    });
  });
  after(() => Promise.all([server.close(), other.close()]));

  for (const item of CASES) {
    test(item.name, async () => {
      const viaNode = await outcome(server.url(item.path), undefined, item.options);
      const viaFetch = await outcome(server.url(item.path), globalThis.fetch, item.options);
      assert.deepEqual(viaNode, viaFetch);
      const expected = item.expected(server.origin, other.origin);
      for (const [field, value] of Object.entries(expected)) {
        assert.deepEqual(
          viaNode[field as keyof Outcome],
          value,
          `${field}: ${JSON.stringify(viaNode)}`,
        );
      }
      if ('message' in viaNode)
        assert.ok(viaNode.message.includes(server.url(item.path.split('#')[0])));
    });
  }
});

describe('openRequest: connections', () => {
  test('a redirect and a cancelled small body leave their connection to the next request', async () => {
    let connections = 0;
    const server = createServer((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: '/here' }).end('moved');
      else if (request.url === '/gone') response.writeHead(404).end('not here');
      else response.end('here');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 5; i++) {
        const followed = await openRequest(`${origin}/moved`, OPTIONS);
        for await (const _ of followed.body);
        const gone = await openRequest(`${origin}/gone`, OPTIONS);
        // Give the small body time to arrive, as a caller reading the status first would.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await gone.cancel();
      }
      // One request at a time: one connection would do; a second may open while the first
      // is being handed back.
      assert.ok(connections <= 2, `${connections} connections for 15 requests`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('openRequest: beforeSend', () => {
  test('is awaited before every hop of the chain, on both transports', async () => {
    const server = await startTestServer({
      '/a': { status: 301, headers: { location: '/b' } },
      '/b': { body: 'b' },
    });
    try {
      for (const fetch of [undefined, globalThis.fetch]) {
        const seen: string[] = [];
        const response = await openRequest(server.url('/a'), {
          ...OPTIONS,
          fetch,
          beforeSend: async (url) => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            seen.push(`${url} after ${server.requests.length} requests`);
          },
        });
        await response.cancel();
        assert.deepEqual(seen.slice(-2), [
          `${server.url('/a')} after ${server.requests.length - 2} requests`,
          `${server.url('/b')} after ${server.requests.length - 1} requests`,
        ]);
      }
    } finally {
      await server.close();
    }
  });

  test('a wait past the time cap is a timeout, its signal fires, and nothing is sent after it', async () => {
    const server = await startTestServer({ '/a': { body: 'a' } });
    // A caller's fetch may not listen to its signal either.
    const deafFetch: FetchFunction = (url, init) =>
      globalThis.fetch(url, { ...init, signal: null });
    try {
      for (const fetch of [undefined, deafFetch]) {
        let given: AbortSignal | null = null;
        const started = performance.now();
        await assert.rejects(
          openRequest(server.url('/a'), {
            ...OPTIONS,
            fetch,
            timeoutMs: 100,
            // A wait that does not listen to its signal: the request must still not go out.
            beforeSend: async (_url, signal) => {
              given = signal;
              await new Promise((resolve) => setTimeout(resolve, 300));
            },
          }),
          (error) => isWaymarkError(error) && error.code === 'timeout',
        );
        assert.ok(performance.now() - started < 290, 'the timeout did not wait for the wait');
        assert.equal((given as AbortSignal | null)?.aborted, true);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(server.requests.length, 0);
      }
    } finally {
      await server.close();
    }
  });
});

const OPTIONS: OpenRequestOptions = {
  fetch: undefined,
  timeoutMs: 5000,
  maxBytes: 1_000_000,
  maxRedirects: 10,
  followRedirects: true,
  headers: { 'user-agent': 'test' },
};

async function outcome(
  url: string,
  fetch: OpenRequestOptions['fetch'],
  options: Partial<OpenRequestOptions> = {},
): Promise<Outcome> {
  try {
    const response = await openRequest(url, { ...OPTIONS, fetch, ...options });
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    return {
      url: response.url,
      redirects: response.redirects,
      status: response.status,
      body: Buffer.concat(chunks).toString().slice(0, 100),
      contentType: response.header('content-type'),
    };
  } catch (error) {
    assert.ok(isWaymarkError(error), String(error));
    return { error: error.code, message: error.message };
  }
}
