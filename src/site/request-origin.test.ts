// Absolute URLs come from the request's Host (or trusted forwarded headers), and a Host
// that is not a plain authority gets 400 before any markup is written.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSiteHandler, type SiteHandler } from './index.ts';
import { locs, makeContentRoot, siteRequest } from './test-support/content-root.ts';

describe('absolute URLs from the request', () => {
  const root = makeContentRoot({ 'a.md': '# A\n', 'a.md.meta.yaml': 'alias: a/b\n' });
  let plain: SiteHandler;
  let proxied: SiteHandler;
  let slash: SiteHandler;
  before(() => {
    plain = createSiteHandler({ root: root.dir });
    proxied = createSiteHandler({ root: root.dir, config: { trustProxy: true } });
    slash = createSiteHandler({ root: root.dir, config: { trailingSlash: 'always' } });
  });
  after(async () => {
    await Promise.all([plain.close(), proxied.close(), slash.close()]);
    root.remove();
  });

  const HOSTS: [host: string, origin: string][] = [
    ['EXAMPLE.com', 'http://example.com'],
    ['example.com:8080', 'http://example.com:8080'],
    ['example.com:80', 'http://example.com'],
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['[::1]:8443', 'http://[::1]:8443'],
    ['xn--bcher-kva.example', 'http://xn--bcher-kva.example'],
  ];
  for (const [host, origin] of HOSTS) {
    test(`Host ${host}`, async () => {
      const response = await plain(
        siteRequest('/sitemap.xml', { origin: 'http://localhost', headers: { host } }),
      );
      assert.deepEqual(locs(await response.text()), [`${origin}/a/b`]);
    });
  }

  const HOSTILE = [
    'a"><x',
    "a'b",
    'a<b>',
    'a&b',
    'a b',
    'a/b',
    'user@host',
    'x'.repeat(300),
    `${'a.'.repeat(2000)}com`,
    'a\tb',
    'example.com:99999',
    '[::1',
    '',
    'ex%41mple.com',
  ];
  for (const host of HOSTILE) {
    test(`hostile Host ${JSON.stringify(host.slice(0, 20))} gets 400 and no markup`, async () => {
      for (const path of ['/robots.txt', '/sitemap.xml']) {
        const response = await plain(
          siteRequest(path, { origin: 'http://localhost', headers: { host } }),
        );
        assert.equal(response.status, 400);
        const text = await response.text();
        assert.ok(!text.includes('<') && (host.length < 3 || !text.includes(host)), text);
      }
    });
  }

  test('forwarded headers count only with trustProxy', async () => {
    const headers = {
      host: 'internal:8080',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'www.example.com',
    };
    const direct = await plain(
      siteRequest('/sitemap.xml', { origin: 'http://localhost', headers }),
    );
    assert.deepEqual(locs(await direct.text()), ['http://internal:8080/a/b']);
    const behind = await proxied(
      siteRequest('/sitemap.xml', { origin: 'http://localhost', headers }),
    );
    assert.deepEqual(locs(await behind.text()), ['https://www.example.com/a/b']);
    const forwarded = await proxied(
      siteRequest('/robots.txt', {
        origin: 'http://localhost',
        headers: {
          host: 'internal',
          forwarded:
            'for=1.2.3.4;host="forged.example", for=5.6.7.8;proto=https;host="example.org"',
        },
      }),
    );
    assert.match(await forwarded.text(), /Sitemap: https:\/\/example\.org\/sitemap\.xml\n$/);
    for (const bad of [
      { 'x-forwarded-host': 'a"><x' },
      { 'x-forwarded-proto': 'javascript' },
      { forwarded: 'host="a<b"' },
    ]) {
      const response = await proxied(siteRequest('/sitemap.xml', { headers: bad }));
      assert.equal(response.status, 400, JSON.stringify(bad));
    }
  });

  // The last value is the one the nearest proxy appended; what the client sent comes first.
  const PROXIED: [headers: Record<string, string>, origin: string | 400][] = [
    [{ 'x-forwarded-host': 'forged.example, www.example.com' }, 'http://www.example.com'],
    [
      {
        'x-forwarded-host': ' forged.example ,www.example.com ',
        'x-forwarded-proto': 'http, https',
      },
      'https://www.example.com',
    ],
    [{ 'x-forwarded-proto': 'HTTPS' }, 'https://internal:8080'],
    // A forged first value is not even looked at.
    [{ 'x-forwarded-host': 'a"><x, www.example.com' }, 'http://www.example.com'],
    [{ 'x-forwarded-host': 'www.example.com, a"><x' }, 400],
    [{ 'x-forwarded-host': 'www.example.com,' }, 400],
    [{ 'x-forwarded-proto': 'wss' }, 400],
    [{ forwarded: 'proto=https;host="[::1]:8443"' }, 'https://[::1]:8443'],
    [{ forwarded: 'Proto=HTTPS; Host=example.org:8443' }, 'https://example.org:8443'],
    [
      { forwarded: 'for=1.2.3.4;host=forged.example, for=5.6.7.8;host=second.example' },
      'http://second.example',
    ],
    // Each field from whichever family gives it; the two families must agree.
    [
      { forwarded: 'for=1.2.3.4;proto=https', 'x-forwarded-host': 'xf.example' },
      'https://xf.example',
    ],
    [{ forwarded: 'host=FW.example', 'x-forwarded-host': 'fw.example' }, 'http://fw.example'],
    [{ forwarded: 'host=forged.example', 'x-forwarded-host': 'xf.example' }, 400],
    [{ forwarded: 'proto=http', 'x-forwarded-proto': 'https' }, 400],
    [{ forwarded: 'host="a b"' }, 400],
    [{ forwarded: 'host=example.org/path' }, 400],
    [{ forwarded: 'proto=javascript;host=example.org' }, 400],
    // A comma or a semicolon inside a quoted string separates nothing (RFC 7239).
    [
      { forwarded: 'for=1.2.3.4, for="[2001:db8::1]:80,x";host=quoted.example' },
      'http://quoted.example',
    ],
    [{ forwarded: 'host="a.example, b.example"' }, 400],
    [{ forwarded: 'for="x;y";host=semi.example' }, 'http://semi.example'],
    // A parameter twice in one element: one of them is a client's.
    [{ forwarded: 'host=evil.example;by="x,y";host=z.example' }, 400],
  ];
  for (const [headers, origin] of PROXIED) {
    test(`trustProxy: ${JSON.stringify(headers)}`, async () => {
      const request = (path: string): Request =>
        siteRequest(path, {
          origin: 'http://localhost',
          headers: { host: 'internal:8080', ...headers },
        });
      const sitemap = await proxied(request('/sitemap.xml'));
      const robots = await proxied(request('/robots.txt'));
      if (origin === 400) {
        assert.equal(sitemap.status, 400);
        assert.equal(robots.status, 400);
        return;
      }
      assert.deepEqual(locs(await sitemap.text()), [`${origin}/a/b`]);
      assert.match(
        await robots.text(),
        new RegExp(`\nSitemap: ${origin.replace(/[.[\]]/g, '\\$&')}/sitemap.xml\n$`),
      );
      assert.equal(
        sitemap.headers.get('vary'),
        'Host, Forwarded, X-Forwarded-Host, X-Forwarded-Proto',
      );
    });
  }

  test('a fixed origin: every absolute URL on it, whatever Host and X-Forwarded-* say', async () => {
    const fixed = createSiteHandler({
      root: root.dir,
      config: { origin: 'https://WWW.Example.com:443/', trustProxy: true },
      serveDocuments: true,
    });
    try {
      for (const headers of [
        { host: 'forged.example' },
        { host: 'a"><x' },
        { host: 'internal', 'x-forwarded-host': 'forged.example', forwarded: 'host=forged' },
      ]) {
        const request = (path: string): Request =>
          siteRequest(path, { origin: 'http://localhost', headers });
        const sitemap = await fixed(request('/sitemap.xml'));
        assert.deepEqual(locs(await sitemap.text()), ['https://www.example.com/a/b']);
        assert.equal(sitemap.headers.get('vary'), null, 'the answer does not vary by request');
        const robots = await (await fixed(request('/robots.txt'))).text();
        assert.match(robots, /\nSitemap: https:\/\/www\.example\.com\/sitemap\.xml\n$/);
        const page = await (await fixed(request('/a/b'))).text();
        assert.match(page, /<link rel="canonical" href="https:\/\/www\.example\.com\/a\/b">/);
      }
    } finally {
      await fixed.close();
    }
  });

  const BAD_ORIGINS = [
    'example.com',
    'ftp://example.com',
    'https://example.com/blog',
    'https://example.com/?x',
    'https://example.com/#x',
    'https://user:pw@example.com',
    'https://exa mple.com',
    'https://a"b.example',
    'javascript:alert(1)',
  ];
  for (const origin of BAD_ORIGINS) {
    test(`origin ${JSON.stringify(origin)} is refused, naming the key`, () => {
      assert.throws(() => createSiteHandler({ root: root.dir, config: { origin } }), {
        code: 'invalid-argument',
        message: /origin: must be null or an http\(s\) origin/,
      });
    });
  }

  test('trailingSlash: always', async () => {
    const response = await slash(siteRequest('/sitemap.xml'));
    assert.deepEqual(locs(await response.text()), ['https://example.com/a/b/']);
  });
});
