// blockPrivateAddresses: a fetch for a service that must not reach internal addresses. The
// fixture servers listen on 127.0.0.1, which the guard refuses: with it on, nothing reaches
// them (by address, by name, by any spelling of the address); with it off, they answer.
// The transport is also driven with a test policy that allows exactly 127.0.0.1, to show
// that it works as a fetch and that each redirect hop and each name is checked.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, type TestContext, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isWaymarkError, type WaymarkErrorCode } from '../shared/waymark-error.ts';
import { fetchWithLimits, openWithLimits } from './index.ts';
import { addressCheckedFetch, checkedLookup } from './internal/address-checked-fetch.ts';
import { type Route, startTestServer, type TestServer } from './test-support/test-server.ts';

async function serve(t: TestContext, routes: Record<string, Route>): Promise<TestServer> {
  const server = await startTestServer(routes);
  t.after(() => server.close());
  return server;
}

function rejectsWith(code: WaymarkErrorCode, pattern?: RegExp) {
  return (error: unknown): true => {
    assert.ok(isWaymarkError(error), `expected a WaymarkError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (pattern !== undefined) assert.match(error.message, pattern);
    return true;
  };
}

describe('blockPrivateAddresses', () => {
  test('off (the default), a server on 127.0.0.1 answers', async (t) => {
    const server = await serve(t, { '/': { body: 'hello' } });
    const response = await fetchWithLimits(server.url('/'));
    assert.equal(new TextDecoder().decode(response.body), 'hello');
    const explicit = await fetchWithLimits(server.url('/'), { blockPrivateAddresses: false });
    assert.equal(explicit.status, 200);
  });

  test('on, every spelling of a loopback target is refused before any request', async (t) => {
    const server = await serve(t, { '*': { body: 'secret' } });
    const port = new URL(server.origin).port;
    const targets = [
      [`http://127.0.0.1:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://127.0.0.2:${port}/`, /127\.0\.0\.2 is a loopback address/],
      [`http://2130706433:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${port}/`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/`, /loopback, as IPv4-mapped IPv6/],
      [`http://[::1]:${port}/`, /loopback/],
      [`http://[::]:${port}/`, /unspecified/],
      [`http://0.0.0.0:${port}/`, /unspecified/],
      [`http://localhost:${port}/`, /localhost resolves only to addresses that are not public/],
    ] as const;
    for (const [url, message] of targets) {
      await assert.rejects(
        fetchWithLimits(url, { blockPrivateAddresses: true }),
        rejectsWith('blocked-address', message),
      );
      await assert.rejects(
        openWithLimits(url, { blockPrivateAddresses: true }),
        rejectsWith('blocked-address', /^refused by blockPrivateAddresses: /),
      );
    }
    assert.equal(server.requests.length, 0);
  });

  test('the message names the URL', async (t) => {
    const server = await serve(t, {});
    await assert.rejects(
      fetchWithLimits(server.url('/admin'), { blockPrivateAddresses: true }),
      (error) => {
        rejectsWith('blocked-address', /^refused by blockPrivateAddresses: /)(error);
        assert.ok((error as Error).message.endsWith(`: ${server.url('/admin')}`));
        return true;
      },
    );
  });

  test('cannot be combined with a custom fetch', async () => {
    await assert.rejects(
      fetchWithLimits('https://example.com/', { blockPrivateAddresses: true, fetch }),
      rejectsWith('invalid-argument', /custom fetch/),
    );
  });
});

/** The transport under a policy that allows 127.0.0.1 and nothing else. */
const onlyLocal127 = (address: string) => (address === '127.0.0.1' ? null : 'not 127.0.0.1');
const checkedFetch = addressCheckedFetch(onlyLocal127);

describe('the address-checked transport', () => {
  test('works as a fetch: status, headers, decoded gzip body, request headers sent', async (t) => {
    const body = 'x'.repeat(10_000);
    const server = await serve(t, {
      '/gz': { headers: { 'content-encoding': 'gzip', 'x-a': 'b' }, body: gzipSync(body) },
      '/empty': { status: 204 },
    });
    const response = await fetchWithLimits(server.url('/gz'), {
      fetch: checkedFetch,
      headers: { 'user-agent': 'TestBot/1.0' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-a'), 'b');
    assert.equal(new TextDecoder().decode(response.body), body);
    assert.equal(server.requests[0]?.headers['user-agent'], 'TestBot/1.0');
    assert.match(server.requests[0]?.headers['accept-encoding'] ?? '', /gzip/);
    const empty = await fetchWithLimits(server.url('/empty'), { fetch: checkedFetch });
    assert.equal(empty.status, 204);
    assert.equal(empty.body.byteLength, 0);
  });

  test('each redirect hop is checked: a hop to a refused address stops the chain', async (t) => {
    const server = await serve(t, {
      '/start': (_request, response) => {
        const port = new URL(server.origin).port;
        response.writeHead(302, { location: `http://127.0.0.2:${port}/inside` }).end();
      },
      '/inside': { body: 'secret' },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/start'), { fetch: checkedFetch }),
      rejectsWith('blocked-address', /127\.0\.0\.2 is a not 127\.0\.0\.1 address/),
    );
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/start'],
    );
  });

  test('a name is checked at connect time, by the addresses it resolves to', async (t) => {
    const server = await serve(t, {
      '/start': (_request, response) => {
        const port = new URL(server.origin).port;
        response.writeHead(302, { location: `http://localhost:${port}/end` }).end();
      },
      '/end': { body: 'reached' },
    });
    // localhost resolves to 127.0.0.1 (and maybe ::1): the allowed address is the one used.
    const response = await fetchWithLimits(server.url('/start'), { fetch: checkedFetch });
    assert.equal(new TextDecoder().decode(response.body), 'reached');
    // Under a policy that allows nothing, the same name fails in the lookup itself.
    const none = addressCheckedFetch(() => 'refused');
    await assert.rejects(
      fetchWithLimits(`http://localhost:${new URL(server.origin).port}/end`, { fetch: none }),
      rejectsWith('blocked-address', /localhost resolves only to addresses that are not public/),
    );
    assert.equal(server.requests.filter((r) => r.path === '/end').length, 1);
  });

  test('caps and failures keep their codes: stall, endless body, refused port', async (t) => {
    let closedByServer: Promise<boolean> = Promise.resolve(true);
    const server = await serve(t, {
      '/stall': () => {},
      '/huge': (_request, response: ServerResponse) => {
        closedByServer = new Promise((resolve) =>
          response.on('close', () => resolve(response.writableFinished)),
        );
        response.writeHead(200);
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          while (!response.destroyed && response.write(chunk));
        };
        response.on('drain', pump);
        pump();
      },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/stall'), { fetch: checkedFetch, timeoutMs: 200 }),
      rejectsWith('timeout'),
    );
    await assert.rejects(
      fetchWithLimits(server.url('/huge'), { fetch: checkedFetch, maxBytes: 100 * 1024 }),
      rejectsWith('too-large'),
    );
    // Stopping at the cap closes the connection: the endless response never finishes.
    assert.equal(await closedByServer, false);
    const closed = await startTestServer({});
    await closed.close();
    await assert.rejects(
      fetchWithLimits(closed.url('/'), { fetch: checkedFetch }),
      rejectsWith('network', /ECONNREFUSED/),
    );
  });

  test('the lookup keeps only allowed addresses, in both callback forms', async () => {
    const lookup = checkedLookup(onlyLocal127);
    const all = await new Promise<unknown>((resolve, reject) =>
      lookup('localhost', { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
    assert.deepEqual(all, [{ address: '127.0.0.1', family: 4 }]);
    const one = await new Promise<unknown>((resolve, reject) =>
      lookup('localhost', {}, (error, address, family) =>
        error ? reject(error) : resolve([address, family]),
      ),
    );
    assert.deepEqual(one, ['127.0.0.1', 4]);
  });
});
