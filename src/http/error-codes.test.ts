// Item: every way a fetch can fail has its own stable code. Each failure is provoked against
// a real server on 127.0.0.1 (or a port nothing listens on) and the code is asserted, for the
// whole-body fetch and for the streamed one (where some failures surface while reading).
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { isWaymarkError, type WaymarkErrorCode } from '../shared/waymark-error.ts';
import { type FetchLimitsOptions, fetchWithLimits, openWithLimits } from './index.ts';
import { startTestServer, type TestServer } from './test-support/test-server.ts';

/** Sends `a`s while the client reads; never ends on its own. */
function endless(_request: unknown, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', pump);
  pump();
}

interface Case {
  readonly name: string;
  /** Path on the server, or a whole URL (a closed port). */
  readonly target: (server: TestServer, closedPort: string) => string;
  readonly options?: FetchLimitsOptions;
  readonly code: WaymarkErrorCode;
  readonly message: RegExp;
}

const CASES: readonly Case[] = [
  {
    name: 'a server that never answers',
    target: (s) => s.url('/stall'),
    options: { timeoutMs: 200 },
    code: 'timeout',
    message: /^fetch timed out after 200 ms: /,
  },
  {
    name: 'a body that stops halfway',
    target: (s) => s.url('/half'),
    options: { timeoutMs: 200 },
    code: 'timeout',
    message: /^fetch timed out after 200 ms: /,
  },
  {
    name: 'a body that never ends',
    target: (s) => s.url('/huge'),
    options: { maxBytes: 64 * 1024 },
    code: 'too-large',
    message: /^response larger than 64 KiB: /,
  },
  {
    name: 'a Content-Length over the cap',
    target: (s) => s.url('/declared'),
    options: { maxBytes: 1000 },
    code: 'too-large',
    message: /^response larger than 1000 bytes: /,
  },
  {
    name: 'a redirect loop',
    target: (s) => s.url('/ping'),
    code: 'redirect-limit',
    message: /^redirect loop: /,
  },
  {
    name: 'too many redirects',
    target: (s) => s.url('/hop?n=0'),
    options: { maxRedirects: 2 },
    code: 'redirect-limit',
    message: /^too many redirects \(more than 2\): /,
  },
  {
    name: 'a refused port',
    target: (_s, closed) => `${closed}/robots.txt`,
    code: 'network',
    message: /^network error: .*ECONNREFUSED/,
  },
  {
    name: 'a connection reset halfway through the body',
    target: (s) => s.url('/reset'),
    code: 'network',
    message: /^network error while reading the body: /,
  },
  {
    name: 'a redirect to another scheme',
    target: (s) => s.url('/ftp'),
    code: 'network',
    message: /^redirect to a non-http\(s\) URL \(ftp:/,
  },
  {
    name: 'a redirect to an invalid Location',
    target: (s) => s.url('/bad-location'),
    code: 'network',
    message: /^redirect to an invalid Location /,
  },
];

describe('each fetch failure has its own code', () => {
  let server: TestServer;
  let closedPort = '';
  before(async () => {
    server = await startTestServer({
      '/stall': () => {},
      '/half': (_request, response) => {
        response.writeHead(200);
        response.write('the first half');
      },
      '/huge': endless,
      '/declared': (_request, response) => {
        response.writeHead(200, { 'content-length': '5000000' });
        response.write('x');
      },
      '/ping': { status: 302, headers: { location: '/pong' } },
      '/pong': { status: 302, headers: { location: '/ping' } },
      '/hop': (request, response) => {
        const n = Number(new URL(request.url ?? '', 'http://x').searchParams.get('n'));
        response.writeHead(302, { location: `/hop?n=${n + 1}` }).end();
      },
      '/reset': (_request, response) => {
        response.writeHead(200, { 'content-length': '100000' });
        response.write('partial', () => response.socket?.destroy());
      },
      '/ftp': { status: 301, headers: { location: 'ftp://127.0.0.1/file' } },
      '/bad-location': { status: 301, headers: { location: 'http://[::1' } },
    });
    const closed = await startTestServer({});
    closedPort = closed.origin;
    await closed.close();
  });
  after(() => server.close());

  for (const c of CASES) {
    for (const how of ['fetchWithLimits', 'openWithLimits'] as const) {
      test(`${c.name}: ${c.code} (${how})`, async () => {
        const url = c.target(server, closedPort);
        const run =
          how === 'fetchWithLimits'
            ? () => fetchWithLimits(url, c.options)
            : async () => {
                const response = await openWithLimits(url, c.options);
                for await (const _ of response.body);
              };
        await assert.rejects(run, (error) => {
          assert.ok(isWaymarkError(error), String(error));
          assert.equal(error.code, c.code, error.message);
          assert.match(error.message, c.message);
          return true;
        });
      });
    }
  }
});
