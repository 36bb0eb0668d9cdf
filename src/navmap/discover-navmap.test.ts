import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
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

  test('a page URL that is not absolute is the caller’s mistake', async () => {
    await assert.rejects(discoverNavmap({ url: '/relative', headers: [] }), {
      code: 'invalid-argument',
    });
  });
});
