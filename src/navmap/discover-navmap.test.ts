import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { startTestServer } from '../http/test-support/test-server.ts';
import { discoverNavmap, explainNavmapDiscovery } from './discover-navmap.ts';
import { NAVMAP_NS } from './navmap-names.ts';
import type { NavmapLocation } from './types.ts';

interface DiscoveryCase {
  readonly name: string;
  readonly headers: [string, string][];
  readonly body?: string;
  readonly expected: NavmapLocation | null;
}

const PAGE = 'https://ex.org/docs/p.html';
const data = JSON.parse(
  readFileSync(new URL('testdata/discovery.json', import.meta.url), 'utf8').replaceAll(
    'NS',
    NAVMAP_NS,
  ),
) as { cases: DiscoveryCase[] };

describe('discoverNavmap: the five steps, from testdata/discovery.json', () => {
  for (const c of data.cases) {
    test(c.name, async () => {
      const page = {
        url: PAGE,
        headers: c.headers,
        ...(c.body === undefined ? {} : { body: c.body }),
      };
      assert.deepEqual(await discoverNavmap(page), c.expected);
      // The same page as bytes, and as a record of headers, gives the same answer.
      const bytes = { ...page, body: new TextEncoder().encode(c.body ?? '') };
      assert.deepEqual(await discoverNavmap(bytes), c.expected);
    });
  }
});

describe('discoverNavmap: page shapes and step 5', () => {
  test('a fetch Response works, and repeated Opt headers in a Headers object are joined', async () => {
    const headers = new Headers();
    headers.append('Opt', '"urn:x"; ns=11');
    headers.append('Opt', `"${NAVMAP_NS}"; ns=42`);
    headers.append('42-Location', '/nav/map.xml');
    const response = new Response('', { headers });
    Object.defineProperty(response, 'url', { value: PAGE });
    assert.deepEqual(await discoverNavmap(response), {
      url: 'https://ex.org/nav/map.xml',
      via: 'opt-header',
    });
  });

  test('a Response body is read for the HTML steps', async () => {
    const response = new Response('<link rel="standard-sitemap" href="/r.xml">', {
      headers: { 'content-type': 'text/html' },
    });
    Object.defineProperty(response, 'url', { value: PAGE });
    assert.deepEqual(await discoverNavmap(response), {
      url: 'https://ex.org/r.xml',
      via: 'legacy-link',
    });
  });

  test('a record of headers with list values (node IncomingHttpHeaders)', async () => {
    const headers = { opt: ['"urn:x"; ns=11', `"${NAVMAP_NS}";ns=55`], '55-location': '/n.xml' };
    assert.deepEqual(await discoverNavmap({ url: PAGE, headers }), {
      url: 'https://ex.org/n.xml',
      via: 'opt-header',
    });
  });

  test('the preference is asked only when the page names nothing', async () => {
    const asked: string[] = [];
    const preference = (url: string) => {
      asked.push(url);
      return '/preferred.xml';
    };
    const named = {
      url: PAGE,
      headers: [['X-Standard-Sitemap-Location', '/named.xml']] as [string, string][],
    };
    assert.equal((await discoverNavmap(named, { preference }))?.via, 'legacy-header');
    assert.deepEqual(asked, []);
    assert.deepEqual(await discoverNavmap({ url: PAGE, headers: [] }, { preference }), {
      url: 'https://ex.org/preferred.xml',
      via: 'preference',
    });
    assert.deepEqual(asked, [PAGE]);
    assert.equal(
      await discoverNavmap({ url: PAGE, headers: [] }, { preference: () => null }),
      null,
    );
    assert.equal(await discoverNavmap({ url: PAGE, headers: [] }, { preference: () => ' ' }), null);
  });

  test('explainNavmapDiscovery lists every step tried and why each gave nothing', async () => {
    const { location, steps } = await explainNavmapDiscovery({
      url: PAGE,
      headers: [['Content-Type', 'application/json']],
      body: '{}',
    });
    assert.equal(location, null);
    assert.deepEqual(
      steps.map((s) => [s.step, s.via, s.outcome]),
      [
        [1, 'opt-header', 'absent'],
        [2, 'legacy-header', 'absent'],
        [3, 'link', 'skipped'],
        [4, 'legacy-link', 'skipped'],
        [5, 'preference', 'skipped'],
      ],
    );
    assert.match(steps[2]?.detail ?? '', /not HTML \(Content-Type application\/json\)/);
  });

  test('steps stop at the first that yields', async () => {
    const { steps } = await explainNavmapDiscovery({
      url: PAGE,
      headers: [
        ['Opt', `"${NAVMAP_NS}"; ns=42`],
        ['42-Location', ''],
        ['X-Standard-Sitemap-Location', '/legacy.xml'],
      ],
    });
    assert.deepEqual(
      steps.map((s) => [s.step, s.outcome, s.url ?? null]),
      [
        [1, 'empty', null],
        [2, 'found', 'https://ex.org/legacy.xml'],
      ],
    );
  });

  test('header values that are numbers or lists of them are read as text', async () => {
    const headers = { 'X-Standard-Sitemap-Location': 5, opt: [7] } as unknown as Record<
      string,
      string
    >;
    assert.deepEqual(await discoverNavmap({ url: PAGE, headers }), {
      url: 'https://ex.org/docs/5',
      via: 'legacy-header',
    });
  });

  test('a Response-like object from another realm works: its stream is read', async () => {
    const page = {
      url: PAGE,
      headers: new Headers({ 'content-type': 'text/html' }),
      body: new Blob(['<link rel="standard-sitemap" href="/s.xml">']).stream(),
    };
    assert.deepEqual(await discoverNavmap(page), {
      url: 'https://ex.org/s.xml',
      via: 'legacy-link',
    });
  });

  test('an endless body is read up to 10 MiB and then cancelled', async () => {
    const chunk = new TextEncoder().encode(`${'<p>filler</p>'.repeat(5_000)}\n`);
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('<link rel="standard-sitemap" href="/e.xml">'));
      },
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = new Response(body, { headers: { 'content-type': 'text/html' } });
    Object.defineProperty(response, 'url', { value: PAGE });
    assert.deepEqual(await discoverNavmap(response), {
      url: 'https://ex.org/e.xml',
      via: 'legacy-link',
    });
    assert.ok(cancelled, 'the rest of the body is cancelled');
    assert.ok(pulled * chunk.length <= 10 * 1024 * 1024 + 2 * chunk.length, `pulled ${pulled}`);
  });

  test('a body already read counts as no body: the HTML steps are skipped', async () => {
    const response = new Response('<link rel="standard-sitemap" href="/r.xml">', {
      headers: { 'content-type': 'text/html' },
    });
    Object.defineProperty(response, 'url', { value: PAGE });
    await response.text();
    const { location, steps } = await explainNavmapDiscovery(response);
    assert.equal(location, null);
    assert.deepEqual(
      steps.slice(2, 4).map((s) => [s.outcome, s.detail]),
      [
        ['skipped', 'the page has no body'],
        ['skipped', 'the page has no body'],
      ],
    );
  });

  test('discovery fetches nothing, not even the location it finds', async () => {
    const server = await startTestServer({ '*': { body: 'anything' } });
    try {
      const found = await discoverNavmap(
        {
          url: server.url('/page.html'),
          headers: [
            ['Content-Type', 'text/html'],
            ['X-Standard-Sitemap-Location', '/named.xml'],
          ],
          body: '<link rel="standard-sitemap" href="/linked.xml"><base href="/base/">',
        },
        { preference: () => '/preferred.xml' },
      );
      assert.deepEqual(found, { url: server.url('/named.xml'), via: 'legacy-header' });
      const none = await discoverNavmap({ url: server.url('/plain.html'), headers: [] });
      assert.equal(none, null);
      assert.deepEqual(server.requests, []);
    } finally {
      await server.close();
    }
  });

  test('past 10,000 link and meta elements the rest is not read, and the steps say so', async () => {
    const body = `${'<link rel="icon" href="/i.png">'.repeat(10_000)}<link rel="standard-sitemap" href="/late.xml">`;
    const { location, steps } = await explainNavmapDiscovery({
      url: PAGE,
      headers: [['Content-Type', 'text/html']],
      body,
    });
    assert.equal(location, null);
    assert.match(
      steps[3]?.detail ?? '',
      /only the first 10000 <link> and <meta> elements are read/,
    );
  });

  test('a page URL that is not absolute is the caller’s mistake', async () => {
    await assert.rejects(discoverNavmap({ url: '/relative', headers: [] }), {
      code: 'invalid-argument',
    });
  });
});
