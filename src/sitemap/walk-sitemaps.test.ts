import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  type RouteHandler,
  startTestServer,
  type TestServer,
} from '../http/test-support/test-server.ts';
import { MAX_REQUEST_URL_LENGTH } from '../url/index.ts';
import { type SitemapReport, walkSitemaps } from './index.ts';

const urlset = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => `  <url><loc>${origin}${p}</loc></url>`)
    .join('\n')}\n</urlset>\n`;

const index = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => `  <sitemap><loc>${origin}${p}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;

const xml = { 'content-type': 'application/xml' };

describe('walkSitemaps against a real server on 127.0.0.1', () => {
  let server: TestServer;
  let origin = '';
  before(async () => {
    // Routes need the origin, which exists only once the server listens: they read it late.
    const o = () => origin;
    server = await startTestServer({
      '/sitemap_index.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(
          index(o(), [
            '/pages.xml',
            '/nested_index.xml',
            '/gone.xml',
            '/broken.xml',
            '/moved.xml',
            '/stall.xml',
            '/posts.xml.gz',
          ]),
        );
      },
      '/pages.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(urlset(o(), ['/', '/about']));
      },
      '/nested_index.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(index(o(), ['/deep.xml', '/sitemap_index.xml', '/nested_index.xml#again']));
      },
      '/deep.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(urlset(o(), ['/deep/1']));
      },
      '/gone.xml': { status: 404, body: 'not here' },
      '/broken.xml': { status: 500, body: 'oops' },
      '/moved.xml': (_, res) => {
        res.writeHead(301, { location: '/new-home.xml' });
        res.end();
      },
      '/new-home.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(urlset(o(), ['/moved/1']));
      },
      '/stall.xml': () => {},
      '/posts.xml.gz': (_, res) => {
        res.writeHead(200, { 'content-type': 'application/gzip' });
        res.end(gzipSync(urlset(o(), ['/posts/1', '/posts/2'])));
      },
    });
    origin = server.origin;
  });
  after(() => server.close());

  test('follows nested indexes, gzip and redirects; 404, 500, a stall and loops cost only themselves', async () => {
    const reports: SitemapReport[] = [];
    const locs: string[] = [];
    const sources = new Map<string, string>();
    for await (const { sitemap, entry } of walkSitemaps(server.url('/sitemap_index.xml'), {
      // The stall costs this much; the other sitemaps must be read within it even on a busy
      // machine (300 ms was not always enough there).
      timeoutMs: 1500,
      userAgent: 'waymark-test/1.0',
      onSitemap: (report) => reports.push(report),
    })) {
      locs.push(entry.loc.slice(origin.length));
      sources.set(entry.loc.slice(origin.length), sitemap.slice(origin.length));
    }
    assert.deepEqual(locs, ['/', '/about', '/deep/1', '/moved/1', '/posts/1', '/posts/2']);
    assert.equal(sources.get('/deep/1'), '/deep.xml');
    const byPath = new Map(reports.map((r) => [r.url.slice(origin.length), r]));
    assert.equal(byPath.get('/gone.xml')?.skipped, 'HTTP 404');
    assert.equal(byPath.get('/broken.xml')?.skipped, 'HTTP 500');
    assert.match(byPath.get('/stall.xml')?.skipped ?? '', /timed out/);
    assert.equal(byPath.get('/moved.xml')?.finalUrl, server.url('/new-home.xml'));
    assert.equal(byPath.get('/posts.xml.gz')?.kind, 'urlset');
    assert.equal(byPath.get('/nested_index.xml')?.depth, 1);
    assert.equal(byPath.get('/deep.xml')?.parent, server.url('/nested_index.xml'));
    // The index names itself again (through the nested index), and the nested index names
    // itself with a fragment: each is skipped, never fetched twice.
    const loops = reports.filter((r) => r.skipped?.startsWith('already read'));
    assert.equal(loops.length, 2);
    const fetchedIndex = server.requests.filter((r) => r.path === '/sitemap_index.xml');
    assert.equal(fetchedIndex.length, 1);
    assert.ok(server.requests.every((r) => r.headers['user-agent'] === 'waymark-test/1.0'));
  });

  test('maxDepth and maxSitemaps stop the walk', async () => {
    const reports: SitemapReport[] = [];
    const locs: string[] = [];
    for await (const { entry } of walkSitemaps([server.url('/sitemap_index.xml')], {
      maxDepth: 0,
      onSitemap: (report) => reports.push(report),
    })) {
      locs.push(entry.loc);
    }
    assert.deepEqual(locs, []);
    assert.equal(reports.length, 1);
    assert.ok(reports[0]?.diagnostics.some((d) => d.code === 'max-depth'));

    const capped: SitemapReport[] = [];
    for await (const _ of walkSitemaps(server.url('/sitemap_index.xml'), {
      maxSitemaps: 2,
      timeoutMs: 1500,
      onSitemap: (report) => capped.push(report),
    })) {
      // entries are not needed here
    }
    assert.equal(capped.filter((r) => r.skipped === null).length, 2);
    // The index's children past the room left are counted on the index, not held one by one.
    const index = capped.find((r) => r.kind === 'index');
    const notRead = index?.diagnostics.find((d) => d.code === 'max-sitemaps');
    assert.match(
      notRead?.message ?? '',
      /^\d+ more sitemaps? named here (is|are) not read: a walk reads at most 2 \(maxSitemaps\)$/,
    );
  });

  test('an index naming far more sitemaps than the walk may read holds only those it may', async () => {
    const wide = await startTestServer({
      '/wide.xml': (_, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.write('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
        for (let i = 0; i < 200_000; i++)
          res.write(`<sitemap><loc>${wide.url(`/s/${i}.xml`)}</loc></sitemap>`);
        res.end('</sitemapindex>');
      },
    });
    try {
      const reports: SitemapReport[] = [];
      for await (const _ of walkSitemaps(wide.url('/wide.xml'), {
        maxSitemaps: 3,
        onSitemap: (report) => reports.push(report),
      })) {
        // no entries: every child answers 404
      }
      // The index and the two children there was room for: one report each, not 200,000.
      assert.deepEqual(
        reports.map((r) => r.url),
        [wide.url('/wide.xml'), wide.url('/s/0.xml'), wide.url('/s/1.xml')],
      );
      assert.equal(
        reports[0]?.diagnostics.find((d) => d.code === 'max-sitemaps')?.message,
        '199998 more sitemaps named here are not read: a walk reads at most 3 (maxSitemaps)',
      );
      assert.equal(wide.requests.length, 3);
    } finally {
      await wide.close();
    }
  });

  test('a refused connection is reported, not thrown', async () => {
    const closed = await startTestServer({});
    const url = closed.url('/sitemap.xml');
    await closed.close();
    const reports: SitemapReport[] = [];
    for await (const _ of walkSitemaps(url, { onSitemap: (r) => reports.push(r) })) {
      assert.fail('no entries expected');
    }
    assert.match(reports[0]?.skipped ?? '', /network error/);
  });
});

describe('walkSitemaps requests the next sitemap while it reads a URL set', () => {
  const FIRST_PATHS = Array.from({ length: 41 }, (_, i) => `/first/${i}`);
  let server: TestServer;
  let secondRequested: () => void = () => {};
  const secondArrived = new Promise<void>((resolve) => {
    secondRequested = resolve;
  });
  /** When each watched route's request arrived, and when its connection closed. */
  const watches = new Map<string, { requested: Promise<void>; closed: Promise<void> }>();
  /** A route that records its request and close; `answer`, if given, starts the response. */
  const watched = (path: string, answer?: (res: ServerResponse) => void): RouteHandler => {
    let requested: () => void = () => {};
    let closed: () => void = () => {};
    watches.set(path, {
      requested: new Promise((resolve) => (requested = resolve)),
      closed: new Promise((resolve) => (closed = resolve)),
    });
    return (_, res) => {
      res.on('close', closed);
      answer?.(res);
      requested();
    };
  };
  const watch = (path: string) =>
    watches.get(path) as { requested: Promise<void>; closed: Promise<void> };
  before(async () => {
    const o = () => server.origin;
    server = await startTestServer({
      // Sends 40 entries (past the 1 KiB the reader needs to settle the encoding), then the
      // last one only once the next sitemap has been requested: a walker that waits for this
      // body to end before asking for the next one stalls here.
      '/first.xml': async (_, res) => {
        const document = urlset(o(), FIRST_PATHS);
        const cut = document.lastIndexOf('  <url>');
        res.writeHead(200, xml);
        res.write(document.slice(0, cut));
        await secondArrived;
        res.end(document.slice(cut));
      },
      '/second.xml': (_, res) => {
        secondRequested();
        res.writeHead(200, xml);
        res.end(urlset(o(), ['/three']));
      },
      // Half a document, then nothing: only a client that lets go of it closes it.
      '/third.xml': watched('/third.xml', (res) => {
        res.writeHead(200, xml);
        res.write(urlset(o(), ['/four']).slice(0, 60));
      }),
      // Never answered.
      '/silent-after-break.xml': watched('/silent-after-break.xml'),
      '/silent-after-abort.xml': watched('/silent-after-abort.xml'),
    });
  });
  after(() => server.close());

  test('the second sitemap is requested before the first has ended', async () => {
    const locs: string[] = [];
    const reports: SitemapReport[] = [];
    const walk = walkSitemaps([server.url('/first.xml'), server.url('/second.xml')], {
      timeoutMs: 20_000,
      onSitemap: (report) => reports.push(report),
    });
    for await (const { entry } of walk) locs.push(entry.loc);
    assert.deepEqual(
      locs,
      [...FIRST_PATHS, '/three'].map((p) => server.url(p)),
    );
    assert.deepEqual(
      reports.map((r) => [r.url, r.entries, r.skipped]),
      [
        [server.url('/first.xml'), 41, null],
        [server.url('/second.xml'), 1, null],
      ],
    );
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/first.xml', '/second.xml'],
    );
  });

  test('stopping early releases the sitemap requested ahead', { timeout: 10_000 }, async () => {
    const before = server.requests.length;
    const walk = walkSitemaps([server.url('/second.xml'), server.url('/third.xml')]);
    for await (const { entry } of walk) {
      assert.equal(entry.loc, server.url('/three'));
      // /third.xml is requested ahead (the walk is inside /second.xml's only batch).
      await watch('/third.xml').requested;
      break;
    }
    // Never read, and let go: its server sees the connection close (else this test times out).
    await watch('/third.xml').closed;
    assert.deepEqual(
      server.requests.slice(before).map((r) => r.path),
      ['/second.xml', '/third.xml'],
    );
  });

  test('stopping early stops a sitemap requested ahead that has not answered yet', {
    timeout: 10_000,
  }, async () => {
    // Its time cap is a minute: only a walk that stops the request lets the server see the
    // connection close within the test's 10 s.
    const walk = walkSitemaps([server.url('/second.xml'), server.url('/silent-after-break.xml')], {
      timeoutMs: 60_000,
    });
    for await (const _ of walk) {
      await watch('/silent-after-break.xml').requested;
      break;
    }
    await watch('/silent-after-break.xml').closed;
  });

  test('an abort with any reason while a sitemap is requested ahead: the walk rejects with it, nothing is left unhandled', {
    timeout: 10_000,
  }, async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      const walk = walkSitemaps(
        [server.url('/second.xml'), server.url('/silent-after-abort.xml')],
        { signal: controller.signal, timeoutMs: 60_000 },
      );
      await assert.rejects(
        async () => {
          for await (const _ of walk) {
            await watch('/silent-after-abort.xml').requested;
            controller.abort(null);
          }
        },
        (error) => error === null,
      );
      await watch('/silent-after-abort.xml').closed;
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('walkSitemaps: which sitemaps it reads', () => {
  // Two servers are two origins (same address, other port): A is the site, B elsewhere.
  let a: TestServer;
  let b: TestServer;
  const long = `/${'x'.repeat(MAX_REQUEST_URL_LENGTH)}.xml`;
  before(async () => {
    b = await startTestServer({
      '/other.xml': (_, res) => res.writeHead(200, xml).end(urlset(b.origin, ['/b-page'])),
      '/moved-index.xml': (_, res) =>
        res.writeHead(200, xml).end(index(b.origin, ['/child.xml', '/other.xml'])),
      '/child.xml': (_, res) => res.writeHead(200, xml).end(urlset(b.origin, ['/b-child'])),
    });
    a = await startTestServer({
      '/index.xml': (_, res) =>
        res
          .writeHead(200, xml)
          .end(
            `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${a.url('/pages.xml')}</loc></sitemap><sitemap><loc>${b.url('/other.xml')}</loc></sitemap><sitemap><loc>${a.origin}${long}</loc></sitemap></sitemapindex>`,
          ),
      '/pages.xml': (_, res) => res.writeHead(200, xml).end(urlset(a.origin, ['/a-page'])),
      '/moving.xml': (_, res) => res.writeHead(301, { location: b.url('/moved-index.xml') }).end(),
      '/hop-index.xml': (_, res) =>
        res
          .writeHead(200, xml)
          .end(
            `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${a.url('/hop.xml')}</loc></sitemap><sitemap><loc>${a.url('/pages.xml')}</loc></sitemap></sitemapindex>`,
          ),
      '/hop.xml': (_, res) => res.writeHead(302, { location: b.url('/child.xml') }).end(),
    });
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  async function walk(urls: string[], options: Parameters<typeof walkSitemaps>[1] = {}) {
    const reports: SitemapReport[] = [];
    const locs: string[] = [];
    for await (const { entry } of walkSitemaps(urls, {
      ...options,
      onSitemap: (r) => reports.push(r),
    })) {
      locs.push(entry.loc);
    }
    return { reports, locs };
  }

  test('a child on another origin than its index is skipped by default, and reported', async () => {
    const beforeB = b.requests.length;
    const { reports, locs } = await walk([a.url('/index.xml')]);
    assert.deepEqual(locs, [a.url('/a-page')]);
    const other = reports.find((r) => r.url === b.url('/other.xml'));
    assert.equal(other?.skipCode, 'cross-origin');
    assert.match(other?.skipped ?? '', /on another origin .* than the index that names it/);
    assert.equal(b.requests.length, beforeB);
  });

  test('a child on the index origin that redirects to another origin is not read either', async () => {
    const { reports, locs } = await walk([a.url('/hop-index.xml')]);
    assert.deepEqual(locs, [a.url('/a-page')]);
    const hop = reports.find((r) => r.url === a.url('/hop.xml'));
    assert.equal(hop?.skipCode, 'cross-origin');
    assert.equal(hop?.finalUrl, b.url('/child.xml'));
    assert.match(hop?.skipped ?? '', /^redirected: on another origin/);
    const followed = await walk([a.url('/hop-index.xml')], { allowCrossOrigin: true });
    assert.deepEqual(followed.locs, [b.url('/b-child'), a.url('/a-page')]);
  });

  test('allowCrossOrigin reads it', async () => {
    const { locs } = await walk([a.url('/index.xml')], { allowCrossOrigin: true });
    assert.deepEqual(locs, [a.url('/a-page'), b.url('/b-page')]);
  });

  test('a sitemap given to the walk is read wherever it is', async () => {
    const { locs } = await walk([a.url('/pages.xml'), b.url('/other.xml')]);
    assert.deepEqual(locs, [a.url('/a-page'), b.url('/b-page')]);
  });

  test('an index that redirected: its children on the origin it answered from are read', async () => {
    const { locs, reports } = await walk([a.url('/moving.xml')]);
    assert.deepEqual(locs, [b.url('/b-child'), b.url('/b-page')]);
    assert.ok(reports.every((r) => r.skipCode === null));
  });

  test('a sitemap URL longer than MAX_REQUEST_URL_LENGTH is skipped, not requested', async () => {
    const { reports } = await walk([a.url('/index.xml')]);
    const skipped = reports.find((r) => r.url.length > MAX_REQUEST_URL_LENGTH);
    assert.equal(skipped?.skipCode, 'url-too-long');
    assert.match(skipped?.skipped ?? '', /longer than 8192 characters/);
    assert.ok(a.requests.every((r) => r.path.length < 1000));
  });

  test('checkSitemap decides before the request; a refusal is reported with its reason', async () => {
    const seen: { url: string; parent: string | null; parentFinalUrl: string | null }[] = [];
    const children = () => b.requests.filter((r) => r.path === '/child.xml').length;
    const childrenBefore = children();
    const { reports, locs } = await walk([a.url('/moving.xml')], {
      checkSitemap: async ({ url, parent, parentFinalUrl }) => {
        seen.push({ url, parent, parentFinalUrl });
        return url.endsWith('/child.xml') ? 'not this one' : true;
      },
    });
    assert.deepEqual(locs, [b.url('/b-page')]);
    assert.deepEqual(seen[1], {
      url: b.url('/child.xml'),
      parent: a.url('/moving.xml'),
      parentFinalUrl: b.url('/moved-index.xml'),
    });
    const refused = reports.find((r) => r.url === b.url('/child.xml'));
    assert.equal(refused?.skipCode, 'refused');
    assert.equal(refused?.skipped, 'not this one');
    assert.equal(children(), childrenBefore);
  });

  test('skip codes: http-status, timeout, network, blocked-address', async (t) => {
    const server = await startTestServer({ '/gone.xml': { status: 404 }, '/stall.xml': () => {} });
    t.after(() => server.close());
    const closed = await startTestServer({});
    await closed.close();
    const { reports } = await walk(
      [server.url('/gone.xml'), server.url('/stall.xml'), closed.url('/x.xml')],
      { timeoutMs: 200 },
    );
    assert.deepEqual(
      reports.map((r) => r.skipCode),
      ['http-status', 'timeout', 'network'],
    );
    await assert.rejects(walk([server.url('/gone.xml')], { blockPrivateAddresses: true, fetch }), {
      name: 'WaymarkError',
      code: 'invalid-argument',
    });
    const blocked = await walk([server.url('/gone.xml')], { blockPrivateAddresses: true });
    assert.equal(blocked.reports[0]?.skipCode, 'blocked-address');
    assert.equal(server.requests.filter((r) => r.path === '/gone.xml').length, 1);
  });
});
