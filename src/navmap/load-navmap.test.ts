import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { FetchFunction } from '../http/index.ts';
import { type Route, startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { loadNavmap, loadNavmapFile } from './load-navmap.ts';
import { NAVMAP_ACCEPT, NAVMAP_NS } from './navmap-names.ts';
import { renderNavmap } from './render-navmap.ts';
import { codes, outline } from './test-support/test-outline.ts';

const XML = { 'content-type': 'application/xml' };
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const testdata = (name: string) =>
  readFileSync(new URL(`testdata/${name}`, import.meta.url), 'utf8');

/** A sitemap document with the namespaces declared. */
function doc(body: string): string {
  return `<sitemap xmlns="${NAVMAP_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</sitemap>`;
}

async function serve(routes: Record<string, Route>): Promise<TestServer> {
  const server = await startTestServer(routes);
  after(() => server.close());
  return server;
}

describe('loadNavmap: the example of the spec page, served', () => {
  let server: TestServer;
  before(async () => {
    // The example's xml:base is https://ex.org/; here the site is the test server.
    const origin = () => `${server.origin}/`;
    server = await startTestServer({
      '/docs/p.html': (_request, response) => {
        response
          .writeHead(200, { ...HTML, Opt: `"${NAVMAP_NS}"; ns=42`, '42-Location': '/nav/map.xml' })
          .end('<html><body>Page</body></html>');
      },
      '/docs/linked.html': {
        headers: HTML,
        body: `<html><head><link rel="schema.nav" href="${NAVMAP_NS}"><link rel="NAV.location" href="../nav/map.xml"></head></html>`,
      },
      '/nav/map.xml': (_request, response) => {
        response
          .writeHead(200, XML)
          .end(testdata('example-map.xml').replace('https://ex.org/', origin()));
      },
      '/parts.xml': { headers: XML, body: testdata('example-parts.xml') },
    });
  });
  after(() => server.close());

  test('Opt header: the outline written down', async () => {
    const load = await loadNavmap(server.url('/docs/p.html'));
    assert.deepEqual(load.location, { url: server.url('/nav/map.xml'), via: 'opt-header' });
    const o = server.origin;
    assert.equal(
      renderNavmap(load.tree ?? assert.fail('a tree'), 'text'),
      [
        `Home <${o}/index.html> {home}`,
        '  Guide (sequence)',
        `    Part 1 <${o}/guide/1.html>`,
        `    Part 2 <${o}/guide/2.html>`,
        `  API <${o}/docs/api.html>`,
        `  News <${o}/en/news> [en] | Neuigkeiten <${o}/de/news> [de]`,
        `  FAQ <${o}/faq.html> {help}`,
        `    Shipping <${o}/faq/shipping.html>`,
        '',
        'Roles:',
        `  contact: Contact <${o}/contact.html>`,
        `  help: FAQ <${o}/faq.html>`,
        `  home: Home <${o}/index.html>`,
        '',
      ].join('\n'),
    );
    assert.deepEqual(load.tree?.diagnostics, []);
    assert.deepEqual(load.tree?.files, [server.url('/nav/map.xml'), server.url('/parts.xml')]);
    assert.equal(load.tree?.classChanges[0]?.elem, '/h:html/h:body');
  });

  test('link elements find the same root', async () => {
    const load = await loadNavmap(server.url('/docs/linked.html'));
    assert.deepEqual(load.location, { url: server.url('/nav/map.xml'), via: 'link' });
    assert.equal(load.tree?.root?.children.length, 2);
  });
});

/**
 * The global fetch, recording every URL asked for: with the server's own record, this sees
 * requests to any host, not only those that reach the test server.
 */
function recordingFetch(): { fetch: FetchFunction; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (url, init) => {
      urls.push(url);
      return fetch(url, init);
    },
  };
}

describe('loadNavmap: never fetches an unnamed location', () => {
  test('a page naming nothing costs exactly one request, however tempting the decoys', async () => {
    const server = await serve({
      '/page': {
        headers: {
          ...HTML,
          Link: '</sitemap.xml>; rel="sitemap"',
          Opt: `"${NAVMAP_NS}"; ns=42`,
          'X-Standard-Sitemap-Location': ' ',
        },
        body: `<link rel="sitemap" href="/sitemap.xml"><link rel="schema.nav" href="${NAVMAP_NS}">
          <link rel="nav.location" href=""><link rel="standard-sitemap" href="http://[::1">
          <a href="/nav.xml">nav</a><a href="https://ex.org/sitemap.xml">map</a>`,
      },
      '*': { headers: XML, body: doc('<item name="guessed" url="/"/>') },
    });
    const { fetch, urls } = recordingFetch();
    const load = await loadNavmap(server.url('/page'), { fetch });
    assert.equal(load.location, null);
    assert.equal(load.tree, null);
    assert.deepEqual(
      load.discovery.steps.map((s) => s.outcome),
      ['absent', 'empty', 'empty', 'invalid', 'skipped'],
    );
    assert.deepEqual(urls, [server.url('/page')]);
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /page'],
    );
  });

  test('a named sitemap: the page, the sitemap and the reached externals, nothing else', async () => {
    const server = await serve({
      '/page': { headers: { ...HTML, 'X-Standard-Sitemap-Location': '/nav/map.xml' }, body: '' },
      '/nav/map.xml': {
        headers: XML,
        body: doc(
          '<item name="A" url="/a"><external xlink:href="b.xml"/></item><x:not xmlns:x="urn:x"><external xlink:href="never.xml"/></x:not>',
        ),
      },
      '/nav/b.xml': { headers: XML, body: doc('<item name="B" url="/b"/>') },
      '*': { headers: XML, body: doc('') },
    });
    const { fetch, urls } = recordingFetch();
    const load = await loadNavmap(server.url('/page'), { fetch });
    assert.deepEqual(outline(load.tree ?? assert.fail('a tree')), [
      `A <${server.origin}/a>`,
      `  B <${server.origin}/b>`,
    ]);
    const expected = ['/page', '/nav/map.xml', '/nav/b.xml'];
    assert.deepEqual(
      urls,
      expected.map((path) => server.url(path)),
    );
    assert.deepEqual(
      server.requests.map((r) => r.path),
      expected,
    );
  });

  test('once a root is found, no other is looked for, even when it cannot be fetched', async () => {
    const server = await serve({
      '/page': {
        headers: {
          ...HTML,
          Opt: `"${NAVMAP_NS}"; ns=42`,
          '42-Location': '/gone.xml',
          'X-Standard-Sitemap-Location': '/other.xml',
        },
        body: '<link rel="standard-sitemap" href="/third.xml">',
      },
      '/other.xml': { headers: XML, body: doc('<item name="Other"/>') },
      '/third.xml': { headers: XML, body: doc('<item name="Third"/>') },
    });
    const { fetch, urls } = recordingFetch();
    const load = await loadNavmap(server.url('/page'), { fetch });
    assert.deepEqual(load.location, { url: server.url('/gone.xml'), via: 'opt-header' });
    assert.deepEqual(urls, [server.url('/page'), server.url('/gone.xml')]);
    assert.equal(load.tree?.root, null);
    assert.deepEqual(codes(load.tree ?? assert.fail('a tree')), ['fetch-failed']);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/page', '/gone.xml'],
    );
  });

  test('the page and the sitemap are fetched under the same conditions; only Accept differs', async () => {
    const server = await serve({
      '/page': { headers: { ...HTML, 'X-Standard-Sitemap-Location': '/m.xml' }, body: '' },
      '/m.xml': { headers: XML, body: doc('<item name="A"/>') },
    });
    await loadNavmap(server.url('/page'), {
      userAgent: 'NavBrowser/2.0',
      acceptLanguage: 'de, en;q=0.5',
      acceptEncoding: 'gzip',
      headers: { cookie: 'session=1', accept: 'text/plain' },
    });
    await loadNavmap(server.url('/page'));
    const [page, sitemap, page2, sitemap2] = server.requests.map((r) => r.headers);
    for (const name of ['user-agent', 'accept-language', 'accept-encoding', 'cookie']) {
      assert.equal(sitemap?.[name], page?.[name], name);
      assert.equal(sitemap2?.[name], page2?.[name], name);
    }
    assert.equal(page?.['user-agent'], 'NavBrowser/2.0');
    assert.equal(page?.['accept-language'], 'de, en;q=0.5');
    assert.equal(page?.['accept-encoding'], 'gzip');
    assert.equal(page?.cookie, 'session=1');
    assert.equal(sitemap?.accept, NAVMAP_ACCEPT);
    assert.notEqual(page?.accept, NAVMAP_ACCEPT);
  });
});

describe("the caller's credentials go to the page's origin only", () => {
  test('a sitemap and externals on other origins get no cookie or Authorization', async () => {
    const elsewhere = await serve({
      '/map.xml': {
        headers: XML,
        body: doc('<item name="A"><external xlink:href="more.xml"/></item>'),
      },
      '/more.xml': { headers: XML, body: doc('<item name="B"/>') },
    });
    const site = await serve({
      '/page': {
        headers: { ...HTML, 'X-Standard-Sitemap-Location': elsewhere.url('/map.xml') },
        body: '',
      },
      '/own.xml': {
        headers: XML,
        body: doc(`<item name="O"><external xlink:href="${elsewhere.url('/more.xml')}"/></item>`),
      },
    });
    const headers = { cookie: 'sid=secret', authorization: 'Bearer secret', 'x-note': 'kept' };
    const loaded = await loadNavmap(site.url('/page'), { headers });
    assert.equal(loaded.tree?.root?.children.length, 1);
    await loadNavmapFile(site.url('/own.xml'), { headers });
    assert.deepEqual(
      site.requests.map((r) => [r.path, r.headers.cookie, r.headers.authorization]),
      [
        ['/page', 'sid=secret', 'Bearer secret'],
        ['/own.xml', 'sid=secret', 'Bearer secret'],
      ],
    );
    assert.deepEqual(
      elsewhere.requests.map((r) => [
        r.path,
        r.headers.cookie,
        r.headers.authorization,
        r.headers['x-note'],
      ]),
      [
        ['/map.xml', undefined, undefined, 'kept'],
        ['/more.xml', undefined, undefined, 'kept'],
        ['/more.xml', undefined, undefined, 'kept'],
      ],
    );
  });
});

describe('loadNavmapFile: externals across files', () => {
  test('by #id and whole files, each file fetched once, unreached roles left out', async () => {
    const server = await serve({
      '/main.xml': {
        headers: XML,
        body: doc(
          `<item name="Main" url="/" role="home">
             <external xlink:href="parts.xml#one"/><external xlink:href="parts.xml#two"/>
             <external xlink:href="whole.xml"/>
           </item>`,
        ),
      },
      '/parts.xml': {
        headers: XML,
        body: doc(
          '<item xml:id="one" name="One" url="/1"/><item xml:id="two" name="Two" url="/2"/><item name="Three" url="/3" role="search"/>',
        ),
      },
      '/whole.xml': {
        headers: XML,
        body: doc('<item name="W1" url="/w1"/><item name="W2" url="/w2" role="help"/>'),
      },
    });
    const tree = await loadNavmapFile(server.url('/main.xml'));
    const o = server.origin;
    assert.deepEqual(outline(tree), [
      `Main <${o}/>`,
      `  One <${o}/1>`,
      `  Two <${o}/2>`,
      `  W1 <${o}/w1>`,
      `  W2 <${o}/w2>`,
    ]);
    assert.deepEqual(Object.keys(tree.roles), ['help', 'home']);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/main.xml', '/parts.xml', '/whole.xml'],
    );
  });

  test('a loop across files: the repeated item appears once more, as a leaf', async () => {
    const server = await serve({
      '/a.xml': {
        headers: XML,
        body: doc('<item xml:id="a" name="A" url="/a"><external xlink:href="b.xml#b"/></item>'),
      },
      '/b.xml': {
        headers: XML,
        body: doc('<item xml:id="b" name="B" url="/b"><external xlink:href="a.xml#a"/></item>'),
      },
    });
    const tree = await loadNavmapFile(server.url('/a.xml'));
    const o = server.origin;
    assert.deepEqual(outline(tree), [`A <${o}/a>`, `  B <${o}/b>`, `    *A <${o}/a>`]);
    assert.deepEqual(codes(tree), ['loop']);
    assert.equal(server.requests.length, 2);
  });

  test('whole files splicing each other are followed once', async () => {
    const server = await serve({
      '/a.xml': {
        headers: XML,
        body: doc('<item name="A" url="/a"/><external xlink:href="b.xml"/>'),
      },
      '/b.xml': {
        headers: XML,
        body: doc('<item name="B" url="/b"/><external xlink:href="a.xml"/>'),
      },
    });
    const tree = await loadNavmapFile(server.url('/a.xml'));
    assert.deepEqual(outline(tree), [`A <${server.origin}/a>`, `B <${server.origin}/b>`]);
    assert.deepEqual(codes(tree), ['external-loop']);
  });

  test('a failed external costs only its branch, with a diagnostic', async () => {
    const server = await serve({
      '/main.xml': {
        headers: XML,
        body: doc(
          `<item name="Keep" url="/k"><external xlink:href="missing.xml"/></item>
           <external xlink:href="stall.xml"/><external xlink:href="huge.xml"/>
           <external xlink:href="html.xml"/><item name="Also" url="/also"/>`,
        ),
      },
      '/stall.xml': () => {},
      '/huge.xml': { headers: XML, body: doc(`<item name="${'x'.repeat(5_000)}"/>`) },
      '/html.xml': { headers: HTML, body: '<html><body>not a sitemap</body></html>' },
    });
    const tree = await loadNavmapFile(server.url('/main.xml'), { timeoutMs: 500, maxBytes: 2_000 });
    const o = server.origin;
    assert.deepEqual(outline(tree), [
      `Keep <${o}/k>`,
      `  ?- <${o}/missing.xml>`,
      `?- <${o}/stall.xml>`,
      `?- <${o}/huge.xml>`,
      `?- <${o}/html.xml>`,
      `Also <${o}/also>`,
    ]);
    const failures = tree.diagnostics.filter((d) => d.code === 'external-failed');
    assert.equal(failures.length, 4);
    assert.match(failures[0]?.message ?? '', /HTTP 404/);
    assert.match(failures[1]?.message ?? '', /stall\.xml: fetch timed out after 500 ms/);
    assert.match(failures[2]?.message ?? '', /huge\.xml: response larger than 2000 bytes/);
    assert.match(failures[3]?.message ?? '', /HTML page/);
  });

  test('at most 32 files, the root included', async () => {
    const server = await serve({
      '*': (request, response) => {
        const n = Number(/\/f(\d+)\.xml/.exec(request.url ?? '')?.[1] ?? 0);
        response
          .writeHead(200, XML)
          .end(doc(`<item name="F${n}"><external xlink:href="f${n + 1}.xml"/></item>`));
      },
    });
    const tree = await loadNavmapFile(server.url('/f0.xml'));
    assert.equal(server.requests.length, 32);
    assert.equal(tree.files.length, 32);
    const last = tree.diagnostics.find((d) => d.code === 'external-failed');
    assert.match(last?.message ?? '', /f32\.xml: not fetched: the limit of 32 files/);
  });

  test('the root after redirects is the base; the HTTP charset is used', async () => {
    const body = Uint8Array.from(
      `<?xml version="1.0" encoding="utf-8"?>${doc('<item name="Caf\u00e9" url="here.html"/>')}`,
      (c) => c.charCodeAt(0),
    );
    const server = await serve({
      '/old.xml': { status: 301, headers: { location: '/new/map.xml' } },
      '/new/map.xml': { headers: { 'content-type': 'text/xml; charset=iso-8859-1' }, body },
    });
    const tree = await loadNavmapFile(server.url('/old.xml'));
    assert.deepEqual(outline(tree), [`Café <${server.origin}/new/here.html>`]);
    assert.deepEqual(codes(tree), ['charset-overrides-declaration']);
  });

  test('a root that cannot be fetched gives a tree with no root that says why', async () => {
    const server = await serve({});
    const tree = await loadNavmapFile(server.url('/gone.xml'));
    assert.equal(tree.root, null);
    assert.deepEqual(codes(tree), ['fetch-failed']);
    assert.match(tree.diagnostics[0]?.message ?? '', /HTTP 404/);
  });

  test('a page body is read only as far as discovery needs it', async () => {
    const server = await serve({
      // Named in the headers, with a body that never ends: the body is never waited for.
      '/endless': (_request, response) => {
        response.writeHead(200, { ...HTML, 'X-Standard-Sitemap-Location': '/m.xml' });
        response.write('<html><head>');
      },
      // Named in the <head> of a page larger than the size cap: what came is enough.
      '/huge': {
        headers: HTML,
        body: `<link rel="standard-sitemap" href="/m.xml">${'<p>filler</p>'.repeat(20_000)}`,
      },
      '/m.xml': { headers: XML, body: doc('<item name="M" url="/m"/>') },
    });
    const endless = await loadNavmap(server.url('/endless'), { timeoutMs: 5_000 });
    assert.deepEqual(endless.location, { url: server.url('/m.xml'), via: 'legacy-header' });
    assert.deepEqual(outline(endless.tree ?? assert.fail('a tree')), [`M <${server.origin}/m>`]);
    const huge = await loadNavmap(server.url('/huge'), { maxBytes: 50_000 });
    assert.deepEqual(huge.location, { url: server.url('/m.xml'), via: 'legacy-link' });
    assert.deepEqual(outline(huge.tree ?? assert.fail('a tree')), [`M <${server.origin}/m>`]);
  });

  test('bad options are refused before anything is fetched', async () => {
    const server = await serve({});
    const BAD = [
      { maxFiles: Number.NaN },
      { maxFiles: 0 },
      { maxNodes: 1.5 },
      { timeoutMs: 0 },
      { maxBytes: -1 },
      { headers: { 'bad header': 'x' } },
    ];
    for (const options of BAD) {
      await assert.rejects(loadNavmap(server.url('/page'), options), {
        code: 'invalid-argument',
      });
      await assert.rejects(loadNavmapFile(server.url('/m.xml'), options), {
        code: 'invalid-argument',
      });
    }
    assert.deepEqual(server.requests, []);
  });

  test("a page that cannot be fetched at all throws the fetch's error code", async () => {
    const server = await startTestServer({});
    const url = server.url('/page');
    await server.close();
    await assert.rejects(loadNavmap(url), { name: 'WaymarkError', code: 'network' });
  });

  test('blockPrivateAddresses reaches every fetch: the page, and a sitemap it names', async () => {
    const site = await startTestServer({
      '/nav.xml': { headers: XML, body: doc('<item name="A"/>') },
    });
    try {
      await assert.rejects(loadNavmap(site.url('/page'), { blockPrivateAddresses: true }), {
        name: 'WaymarkError',
        code: 'blocked-address',
      });
      const tree = await loadNavmapFile(site.url('/nav.xml'), { blockPrivateAddresses: true });
      assert.equal(tree.root, null);
      assert.match(tree.diagnostics[0]?.message ?? '', /refused by blockPrivateAddresses/);
      assert.deepEqual(site.requests, []);
      await assert.rejects(
        loadNavmapFile(site.url('/nav.xml'), { blockPrivateAddresses: true, fetch }),
        { name: 'WaymarkError', code: 'invalid-argument' },
      );
      // Off, the same sitemap is read.
      assert.deepEqual(outline(await loadNavmapFile(site.url('/nav.xml'))), ['A']);
    } finally {
      await site.close();
    }
  });

  test('a fetch function can be given; it sees the same request shape', async () => {
    const seen: string[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      seen.push(`${url} ${new Headers(init.headers).get('accept')}`);
      return new Response(doc('<item name="Injected"/>'), { headers: XML });
    };
    const tree = await loadNavmapFile('https://nav.example/m.xml', { fetch });
    assert.deepEqual(outline(tree), ['Injected']);
    assert.deepEqual(seen, [`https://nav.example/m.xml ${NAVMAP_ACCEPT}`]);
  });
});
