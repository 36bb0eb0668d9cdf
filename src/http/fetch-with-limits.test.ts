import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, type TestContext, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isWaymarkError, type WaymarkErrorCode } from '../shared/waymark-error.ts';
import { type FetchFunction, fetchWithLimits, openWithLimits } from './index.ts';
import { type Route, startTestServer, type TestServer } from './test-support/test-server.ts';

/** Starts a fixture server that the test closes when it ends. */
async function serve(t: TestContext, routes: Record<string, Route>): Promise<TestServer> {
  const server = await startTestServer(routes);
  t.after(() => server.close());
  return server;
}

/** Asserts a WaymarkError with `code` whose message matches every pattern. */
function waymarkError(code: WaymarkErrorCode, ...patterns: (string | RegExp)[]) {
  return (error: unknown): true => {
    assert.ok(isWaymarkError(error), `expected a WaymarkError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    for (const pattern of patterns) {
      if (typeof pattern === 'string') assert.ok(error.message.includes(pattern), error.message);
      else assert.match(error.message, pattern);
    }
    assert.doesNotMatch(error.message, /\n/);
    return true;
  };
}

/**
 * A route that sends `a`s for as long as the client reads. `closed` resolves when the
 * connection goes away, with whether the response had finished (it never does on its own).
 */
function endlessBody(): { route: Route; closed: Promise<boolean> } {
  let onClose: (finished: boolean) => void = () => {};
  const closed = new Promise<boolean>((resolve) => {
    onClose = resolve;
  });
  const route = (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const pump = () => {
      let more = true;
      while (more && !response.destroyed) more = response.write(chunk);
    };
    response.on('drain', pump);
    response.on('close', () => onClose(response.writableFinished));
    pump();
  };
  return { route, closed };
}

const redirect =
  (status: number, location: string): Route =>
  (_request, response) =>
    response.writeHead(status, { location }).end();

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('fetchWithLimits: results', () => {
  test('a 200 comes back with its body, headers and final URL', async (t) => {
    const server = await serve(t, {
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' },
    });
    const response = await fetchWithLimits(server.url('/robots.txt#frag'), {
      headers: { 'user-agent': 'TestBot/1.0', accept: 'text/plain' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.url, server.url('/robots.txt'));
    assert.deepEqual(response.redirects, []);
    assert.equal(response.headers.get('content-type'), 'text/plain');
    assert.ok(response.body instanceof Uint8Array);
    assert.equal(text(response.body), 'User-agent: *\n');
    const [request] = server.requests;
    assert.equal(request?.method, 'GET');
    assert.equal(request?.path, '/robots.txt');
    assert.equal(request?.headers['user-agent'], 'TestBot/1.0');
    assert.equal(request?.headers.accept, 'text/plain');
  });

  test('404 and 500 are results, not errors', async (t) => {
    const server = await serve(t, { '/boom': { status: 500, body: 'oops' } });
    const missing = await fetchWithLimits(server.url('/nothing-here'));
    assert.equal(missing.status, 404);
    assert.equal(text(missing.body), 'not found');
    const broken = await fetchWithLimits(server.url('/boom'));
    assert.equal(broken.status, 500);
    assert.equal(text(broken.body), 'oops');
  });

  test('an empty body is an empty array', async (t) => {
    const server = await serve(t, { '/empty': { status: 204 } });
    const response = await fetchWithLimits(server.url('/empty'));
    assert.equal(response.status, 204);
    assert.deepEqual(response.body, new Uint8Array());
  });

  test('a gzip Content-Encoding body comes back decoded', async (t) => {
    const xml = '<urlset>'.concat('<url><loc>https://example.com/</loc></url>'.repeat(500));
    const server = await serve(t, {
      '/sitemap.xml': { headers: { 'content-encoding': 'gzip' }, body: gzipSync(xml) },
    });
    const response = await fetchWithLimits(server.url('/sitemap.xml'));
    assert.equal(text(response.body), xml);
  });
});

describe('fetchWithLimits: time cap', () => {
  test('a server that stalls before the headers times out', async (t) => {
    const server = await serve(t, { '/stall': () => {} });
    await assert.rejects(
      fetchWithLimits(server.url('/stall'), { timeoutMs: 200 }),
      waymarkError('timeout', 'fetch timed out after 200 ms: ', server.url('/stall')),
    );
  });

  test('a server that stalls in the middle of the body times out', async (t) => {
    const server = await serve(t, {
      '/half': (_request, response) => {
        response.writeHead(200);
        response.write('the first half');
      },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/half'), { timeoutMs: 200 }),
      waymarkError('timeout', 'fetch timed out after 200 ms: ', server.url('/half')),
    );
  });

  test('the message names the URL that stalled and where the chain started', async (t) => {
    const server = await serve(t, { '/go': redirect(302, '/stall'), '/stall': () => {} });
    await assert.rejects(
      fetchWithLimits(server.url('/go'), { timeoutMs: 200 }),
      waymarkError('timeout', `${server.url('/stall')} (redirected from ${server.url('/go')})`),
    );
  });
});

describe('fetchWithLimits: size cap', () => {
  test('a huge body stops at the cap and the server sees the connection closed', async (t) => {
    const endless = endlessBody();
    const server = await serve(t, { '/huge': endless.route });
    await assert.rejects(
      fetchWithLimits(server.url('/huge'), { maxBytes: 100 * 1024 }),
      waymarkError('too-large', 'response larger than 100 KiB: ', server.url('/huge')),
    );
    assert.equal(await endless.closed, false);
  });

  test('the default cap is 10 MiB', async (t) => {
    const endless = endlessBody();
    const server = await serve(t, { '/huge': endless.route });
    await assert.rejects(
      fetchWithLimits(server.url('/huge')),
      waymarkError('too-large', 'response larger than 10 MiB: '),
    );
  });

  test('a body of exactly the cap is accepted', async (t) => {
    const server = await serve(t, { '/ten': { body: '0123456789' } });
    const response = await fetchWithLimits(server.url('/ten'), { maxBytes: 10 });
    assert.equal(text(response.body), '0123456789');
    await assert.rejects(
      fetchWithLimits(server.url('/ten'), { maxBytes: 9 }),
      waymarkError('too-large', 'response larger than 9 bytes: '),
    );
  });

  test('a gzip bomb is counted decoded: small on the wire, too large inflated', async (t) => {
    const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024));
    assert.ok(bomb.byteLength < 64 * 1024);
    const server = await serve(t, {
      '/bomb': { headers: { 'content-encoding': 'gzip' }, body: bomb },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/bomb'), { maxBytes: 1024 * 1024 }),
      waymarkError('too-large', 'response larger than 1 MiB: ', server.url('/bomb')),
    );
  });

  test('a Content-Length over the cap fails before the body is read', async (t) => {
    const server = await serve(t, {
      '/declared': (_request, response) => {
        response.writeHead(200, { 'content-length': '5000000' });
        response.write('x');
      },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/declared'), { maxBytes: 1000 }),
      waymarkError('too-large', 'response larger than 1000 bytes: '),
    );
  });
});

describe('fetchWithLimits: redirects', () => {
  test('a chain of 3 is followed, every hop recorded', async (t) => {
    const server = await serve(t, {
      '/a': redirect(301, '/b'),
      '/b': (_request, response) => response.writeHead(302, { location: server.url('/c') }).end(),
      '/c': redirect(307, '/final'),
      '/final': { body: 'here' },
    });
    const response = await fetchWithLimits(server.url('/a'), { maxRedirects: 3 });
    assert.equal(response.status, 200);
    assert.equal(response.url, server.url('/final'));
    assert.deepEqual(response.redirects, [server.url('/a'), server.url('/b'), server.url('/c')]);
    assert.equal(text(response.body), 'here');
    assert.deepEqual(
      server.requests.map((request) => request.path),
      ['/a', '/b', '/c', '/final'],
    );
  });

  test('relative Locations resolve against the URL that sent them', async (t) => {
    const server = await serve(t, {
      '/dir/sub/start': redirect(302, '../next?x=1'),
      '/dir/next': (_request, response) => {
        const port = new URL(server.origin).port;
        response.writeHead(303, { location: `//127.0.0.1:${port}/other` }).end();
      },
      '/other': (request, response) => {
        if (request.url === '/other') response.writeHead(308, { location: '?page=2' }).end();
        else response.end('ok');
      },
    });
    const response = await fetchWithLimits(server.url('/dir/sub/start'));
    assert.equal(response.url, server.url('/other?page=2'));
    assert.deepEqual(response.redirects, [
      server.url('/dir/sub/start'),
      server.url('/dir/next?x=1'),
      server.url('/other'),
    ]);
  });

  test('a redirect loop is an error', async (t) => {
    const server = await serve(t, {
      '/ping': redirect(302, '/pong'),
      '/pong': redirect(302, '/ping'),
    });
    await assert.rejects(
      fetchWithLimits(server.url('/ping')),
      waymarkError('redirect-limit', /^redirect loop: /, server.url('/ping')),
    );
    assert.equal(server.requests.length, 2);
  });

  test('more redirects than allowed is an error', async (t) => {
    const server = await serve(t, {
      '/hop': (request, response) => {
        const n = Number(new URL(request.url ?? '', server.origin).searchParams.get('n'));
        response.writeHead(302, { location: `/hop?n=${n + 1}` }).end();
      },
    });
    await assert.rejects(
      fetchWithLimits(server.url('/hop?n=0'), { maxRedirects: 3 }),
      waymarkError('redirect-limit', 'too many redirects (more than 3): ', server.url('/hop?n=0')),
    );
    assert.equal(server.requests.length, 4);
    await assert.rejects(
      fetchWithLimits(server.url('/hop?n=0')),
      waymarkError('redirect-limit', 'too many redirects (more than 10): '),
    );
    await assert.rejects(
      fetchWithLimits(server.url('/hop?n=0'), { maxRedirects: 0 }),
      waymarkError('redirect-limit', 'too many redirects (more than 0): '),
    );
  });

  test('other 3xx, and a redirect without Location, are results', async (t) => {
    const server = await serve(t, {
      '/not-modified': { status: 304 },
      '/choices': { status: 300, headers: { location: '/a' }, body: 'pick one' },
      '/nowhere': { status: 302, body: 'no location' },
    });
    assert.equal((await fetchWithLimits(server.url('/not-modified'))).status, 304);
    const choices = await fetchWithLimits(server.url('/choices'));
    assert.equal(choices.status, 300);
    assert.equal(text(choices.body), 'pick one');
    const nowhere = await fetchWithLimits(server.url('/nowhere'));
    assert.equal(nowhere.status, 302);
    assert.deepEqual(nowhere.redirects, []);
  });

  test('a redirect to another scheme is an error', async (t) => {
    const server = await serve(t, { '/ftp': redirect(301, 'ftp://127.0.0.1/file') });
    await assert.rejects(
      fetchWithLimits(server.url('/ftp')),
      waymarkError('network', 'redirect to a non-http(s) URL (ftp://127.0.0.1/file)'),
    );
  });
});

describe('fetchWithLimits: failures and cancellation', () => {
  test('a refused connection is a network error', async () => {
    const closed = await startTestServer({});
    const url = closed.url('/robots.txt');
    await closed.close();
    await assert.rejects(
      fetchWithLimits(url),
      waymarkError('network', /^network error: /, url, 'ECONNREFUSED'),
    );
  });

  test("the caller's AbortSignal rejects with the caller's reason", async (t) => {
    const server = await serve(t, { '/stall': () => {} });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(
      fetchWithLimits(server.url('/stall'), { signal: controller.signal }),
      (error) => error === reason,
    );
  });

  test('an AbortSignal already aborted rejects at once, without a request', async (t) => {
    const server = await serve(t, {});
    const reason = new Error('never mind');
    await assert.rejects(
      fetchWithLimits(server.url('/'), { signal: AbortSignal.abort(reason) }),
      (error) => error === reason,
    );
    assert.equal(server.requests.length, 0);
  });

  test('bad arguments are invalid-argument errors', async () => {
    const bad: [string, Parameters<typeof fetchWithLimits>[1]][] = [
      ['not a url', {}],
      ['ftp://example.com/robots.txt', {}],
      ['http://127.0.0.1/', { timeoutMs: 0 }],
      ['http://127.0.0.1/', { timeoutMs: Number.POSITIVE_INFINITY }],
      ['http://127.0.0.1/', { maxBytes: -1 }],
      ['http://127.0.0.1/', { maxRedirects: 1.5 }],
      ['http://127.0.0.1/', { headers: { 'bad header': 'x' } }],
    ];
    for (const [url, options] of bad) {
      await assert.rejects(fetchWithLimits(url, options), waymarkError('invalid-argument'));
    }
  });
});

/** A `fetch` double: answers from a table keyed by URL, and records each call. */
function fakeFetch(table: Record<string, () => Response | Promise<Response>>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: FetchFunction = async (url, init) => {
    calls.push({ url, init });
    const answer = table[url];
    if (answer === undefined) throw new TypeError('fetch failed', { cause: new Error('no route') });
    return answer();
  };
  return { fetch, calls };
}

/** A body that yields `chunk` on every pull and remembers whether it was cancelled. */
function endlessStream(chunk: Uint8Array) {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(chunk),
    cancel: () => {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('fetchWithLimits: injected fetch', () => {
  test('drives redirects without a server, dropping credentials across origins', async () => {
    const { fetch, calls } = fakeFetch({
      'http://a.test/start': () => Response.redirect('http://a.test/same', 301),
      'http://a.test/same': () =>
        new Response(null, { status: 302, headers: { location: 'http://b.test/x' } }),
      'http://b.test/x': () => new Response('final'),
    });
    const response = await fetchWithLimits('http://a.test/start', {
      fetch,
      headers: { authorization: 'Bearer secret', 'user-agent': 'TestBot' },
    });
    assert.equal(text(response.body), 'final');
    assert.equal(response.url, 'http://b.test/x');
    assert.deepEqual(response.redirects, ['http://a.test/start', 'http://a.test/same']);
    const sent = calls.map(({ url, init }) => {
      const headers = new Headers(init.headers);
      return [
        url,
        init.method,
        init.redirect,
        headers.get('authorization'),
        headers.get('user-agent'),
      ];
    });
    assert.deepEqual(sent, [
      ['http://a.test/start', 'GET', 'manual', 'Bearer secret', 'TestBot'],
      ['http://a.test/same', 'GET', 'manual', 'Bearer secret', 'TestBot'],
      ['http://b.test/x', 'GET', 'manual', null, 'TestBot'],
    ]);
    assert.ok(calls.every(({ init }) => init.signal instanceof AbortSignal));
  });

  test('caps the size of a streamed body and cancels it', async () => {
    const body = endlessStream(new Uint8Array(1000));
    const { fetch } = fakeFetch({ 'http://a.test/': () => new Response(body.stream) });
    await assert.rejects(
      fetchWithLimits('http://a.test/', { fetch, maxBytes: 2500 }),
      waymarkError('too-large', 'response larger than 2500 bytes: http://a.test/'),
    );
    assert.equal(body.state.cancelled, true);
  });

  test('enforces the time cap on a fetch that ignores its signal', async () => {
    const { fetch } = fakeFetch({ 'http://a.test/': () => new Promise<Response>(() => {}) });
    await assert.rejects(
      fetchWithLimits('http://a.test/', { fetch, timeoutMs: 50 }),
      waymarkError('timeout', 'fetch timed out after 50 ms: http://a.test/'),
    );
  });

  test('enforces the time cap on a body that never ends', async () => {
    const stalled = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const { fetch } = fakeFetch({ 'http://a.test/': () => new Response(stalled) });
    await assert.rejects(
      fetchWithLimits('http://a.test/', { fetch, timeoutMs: 50 }),
      waymarkError('timeout', 'fetch timed out after 50 ms: '),
    );
  });

  test('a fetch that throws is a network error with the cause kept', async () => {
    const cause = new Error('socket hang up');
    const fetch: FetchFunction = () => {
      throw cause;
    };
    await assert.rejects(fetchWithLimits('http://a.test/', { fetch }), (error) => {
      waymarkError('network', 'network error: http://a.test/ (socket hang up)')(error);
      assert.equal((error as Error).cause, cause);
      return true;
    });
  });

  test('a self-redirect is a loop; an invalid Location is an error', async () => {
    const { fetch } = fakeFetch({
      'http://a.test/self': () => Response.redirect('http://a.test/self#again', 302),
      'http://a.test/bad': () =>
        new Response(null, { status: 301, headers: { location: 'http://[::1' } }),
    });
    await assert.rejects(
      fetchWithLimits('http://a.test/self', { fetch }),
      waymarkError(
        'redirect-limit',
        'redirect loop: http://a.test/self leads back to http://a.test/self',
      ),
    );
    await assert.rejects(
      fetchWithLimits('http://a.test/bad', { fetch }),
      waymarkError('network', 'redirect to an invalid Location (http://[::1): http://a.test/bad'),
    );
  });
});

describe('openWithLimits', () => {
  test('streams the body as it arrives', async (t) => {
    const server = await serve(t, {
      '/parts': async (_request, response) => {
        response.writeHead(200);
        for (const part of ['one ', 'two ', 'three']) {
          response.write(part);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        response.end();
      },
    });
    const response = await openWithLimits(server.url('/parts'));
    assert.equal(response.status, 200);
    let all = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body) all += decoder.decode(chunk, { stream: true });
    assert.equal(all, 'one two three');
  });

  test('the status is known before the body; a 404 body can still be read', async (t) => {
    const server = await serve(t, {});
    const response = await openWithLimits(server.url('/missing'));
    assert.equal(response.status, 404);
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    assert.equal(text(Buffer.concat(chunks)), 'not found');
  });

  test('leaving the loop early closes the connection', async (t) => {
    const endless = endlessBody();
    const server = await serve(t, { '/huge': endless.route });
    const response = await openWithLimits(server.url('/huge'));
    for await (const chunk of response.body) {
      assert.ok(chunk.byteLength > 0);
      break;
    }
    assert.equal(await endless.closed, false);
  });

  test('cancel() without reading closes the connection', async (t) => {
    const endless = endlessBody();
    const server = await serve(t, { '/huge': endless.route });
    const response = await openWithLimits(server.url('/huge'));
    await response.cancel();
    assert.equal(await endless.closed, false);
    for await (const _ of response.body) assert.fail('a cancelled body yields nothing');
  });

  test('iteration enforces the size cap, counted decoded', async (t) => {
    const endless = endlessBody();
    const server = await serve(t, {
      '/huge': endless.route,
      '/bomb': {
        headers: { 'content-encoding': 'gzip' },
        body: gzipSync(new Uint8Array(4 * 1024 * 1024)),
      },
    });
    for (const path of ['/huge', '/bomb']) {
      const response = await openWithLimits(server.url(path), { maxBytes: 64 * 1024 });
      await assert.rejects(
        async () => {
          for await (const _ of response.body);
        },
        waymarkError('too-large', 'response larger than 64 KiB: ', server.url(path)),
      );
    }
    assert.equal(await endless.closed, false);
  });

  test('iteration enforces the time cap', async (t) => {
    const server = await serve(t, {
      '/half': (_request, response) => {
        response.writeHead(200);
        response.write('the first half');
      },
    });
    const response = await openWithLimits(server.url('/half'), { timeoutMs: 200 });
    const chunks: string[] = [];
    await assert.rejects(
      async () => {
        for await (const chunk of response.body) chunks.push(text(chunk));
      },
      waymarkError('timeout', 'fetch timed out after 200 ms: '),
    );
    assert.deepEqual(chunks, ['the first half']);
  });

  test("the caller's signal also stops the body", async (t) => {
    const server = await serve(t, {
      '/half': (_request, response) => {
        response.writeHead(200);
        response.write('the first half');
      },
    });
    const controller = new AbortController();
    const reason = new Error('enough');
    const response = await openWithLimits(server.url('/half'), { signal: controller.signal });
    await assert.rejects(
      async () => {
        for await (const _ of response.body) controller.abort(reason);
      },
      (error) => error === reason,
    );
  });
});

describe('followRedirects: false', () => {
  test('returns the redirect itself, with its Location, and follows nothing', async () => {
    const server = await startTestServer({
      '/from': { status: 301, headers: { location: '/to' } },
      '/to': { body: 'arrived' },
    });
    try {
      const response = await fetchWithLimits(server.url('/from'), { followRedirects: false });
      assert.equal(response.status, 301);
      assert.equal(response.headers.get('location'), '/to');
      assert.deepEqual(response.redirects, []);
      assert.deepEqual(
        server.requests.map((r) => r.path),
        ['/from'],
      );
    } finally {
      await server.close();
    }
  });
});
