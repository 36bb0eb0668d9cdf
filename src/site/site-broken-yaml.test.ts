// Broken YAML must never take the server down nor publish anything: a sidecar the `yaml`
// library throws on (an alias without its anchor, an alias bomb) fails its own document
// closed, with file and line, and every other change of the same refresh still applies; a
// broken configuration is never applied in part.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, parseSiteConfig, type SiteHandler, startSiteServer } from './index.ts';
import { MAX_SITE_CONFIG_BYTES } from './site-config.ts';
import { locs, makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

/** Nine aliases to nine aliases to ...: a few hundred bytes that expand to millions of nodes. */
const ALIAS_BOMB = [
  'alias: bomb',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'roles: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  '',
].join('\n');

async function listed(handler: SiteHandler): Promise<string[]> {
  const response = await handler(siteRequest('/sitemap.xml'));
  assert.equal(response.status, 200);
  return locs(await response.text());
}

describe('a sidecar the yaml library throws on', () => {
  test('fails its document closed, with file and line; the server starts and serves the rest', async (t) => {
    const root = makeContentRoot({
      'good.md': '# Good\n',
      'good.md.meta.yaml': 'alias: good\n',
      'unresolved.md': '# Unresolved\n',
      'unresolved.md.meta.yaml': 'alias: unresolved\ntitle: *x\n',
      'bomb.md': '# Bomb\n',
      'bomb.md.meta.yaml': ALIAS_BOMB,
    });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    try {
      const sitemap = await fetch(`${server.origin}/sitemap.xml`);
      assert.equal(sitemap.status, 200);
      assert.deepEqual(locs(await sitemap.text()), [`${server.origin}/good`]);
      for (const path of ['unresolved.md', 'bomb.md']) {
        for (const url of [`/id/${idOf(path)}`, `/${path.replace('.md', '')}`]) {
          assert.equal((await fetch(server.origin + url)).status, 404, url);
        }
      }
      const diagnostics = await server.handler.diagnostics();
      const unresolved = diagnostics.find((d) => d.path === 'unresolved.md');
      assert.equal(unresolved?.code, 'sidecar-yaml');
      assert.equal(unresolved?.file, 'unresolved.md.meta.yaml');
      assert.deepEqual([unresolved?.line, unresolved?.column], [2, 8]);
      assert.match(unresolved?.message ?? '', /alias/i);
      const bomb = diagnostics.find((d) => d.path === 'bomb.md');
      assert.equal(bomb?.code, 'sidecar-yaml');
      assert.equal(bomb?.file, 'bomb.md.meta.yaml');
      assert.equal(bomb?.line, 3, 'the first alias');
    } finally {
      await server.close();
    }
  });

  for (const revalidate of ['watch', 'stat'] as const) {
    test(`${revalidate}: one refresh with a broken sidecar still applies every other change`, async (t) => {
      const root = makeContentRoot({
        'a.md': '# A\n',
        'a.md.meta.yaml': 'alias: a\n',
        'b.md': '# B\n',
        'b.md.meta.yaml': 'alias: b\n',
        'c.md': '# C\n',
        'c.md.meta.yaml': 'alias: c\n',
      });
      t.after(() => root.remove());
      const handler = createSiteHandler({ root: root.dir, revalidate, serveDocuments: true });
      try {
        const origin = 'https://example.com';
        assert.deepEqual(await listed(handler), [`${origin}/a`, `${origin}/b`, `${origin}/c`]);
        // Read in one refresh: a sidecar that throws, a page switched to deny, a new page.
        writeFileSync(root.path('a.md.meta.yaml'), 'alias: a\ntitle: *x\n');
        writeFileSync(root.path('b.md.meta.yaml'), 'alias: b\naccess: deny\n');
        writeFileSync(root.path('d.md'), '# D\n');
        for (let round = 0; round < 3; round++) {
          assert.deepEqual(await listed(handler), [`${origin}/c`, `${origin}/id/${idOf('d.md')}`]);
          for (const path of ['/a', '/b']) {
            assert.equal((await handler(siteRequest(path))).status, 404, path);
          }
          assert.equal((await handler(siteRequest('/robots.txt'))).status, 200);
        }
        writeFileSync(root.path('a.md.meta.yaml'), 'alias: a\n');
        assert.deepEqual(await listed(handler), [
          `${origin}/a`,
          `${origin}/c`,
          `${origin}/id/${idOf('d.md')}`,
        ]);
      } finally {
        await handler.close();
      }
    });
  }
});

describe('a broken waymark.site.yaml is never applied in part', () => {
  test('broken at start: the server starts and answers 503 until it is fixed; later breakage keeps the last good one', async (t) => {
    const root = makeContentRoot({
      'a.md': '# A\n',
      'waymark.site.yaml': 'adminPath: cms/\nrobotsRules: [{ disallow: *x }]\n',
    });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    try {
      const get = (path: string): Promise<Response> => fetch(server.origin + path);
      for (const path of ['/robots.txt', '/sitemap.xml', `/id/${idOf('a.md')}`, '/']) {
        const response = await get(path);
        assert.equal(response.status, 503, path);
        assert.equal(response.headers.get('retry-after'), '60');
      }
      const first = await server.handler.diagnostics();
      const yamlError = first.find((d) => d.code === 'config-yaml');
      assert.equal(yamlError?.file, 'waymark.site.yaml');
      assert.deepEqual([yamlError?.line, yamlError?.column], [2, 27]);
      assert.ok(first.some((d) => d.code === 'config-rejected' && /503/.test(d.message)));

      writeFileSync(root.path('waymark.site.yaml'), 'robotsRules: [{ disallow: /private/ }]\n');
      const robots = await get('/robots.txt');
      assert.equal(robots.status, 200);
      assert.match(await robots.text(), /Disallow: \/private\/\n/);

      const BROKEN = [
        ALIAS_BOMB.replace('alias: bomb', 'trustProxy: true'),
        'robotsRules: [{ disallow: /other/ }]\ntitle: *x\n',
        // One wrong key must not let the others through with defaults in its place.
        'robotsRules: [{ disallow: /other/ }]\nmaxUrls: 0\n',
        'robotsRules: [{ disallow: /other/ }]\n'.padEnd(MAX_SITE_CONFIG_BYTES + 1, '#'),
      ];
      for (const text of BROKEN) {
        writeFileSync(root.path('waymark.site.yaml'), text);
        const kept = await get('/robots.txt');
        assert.equal(kept.status, 200);
        const body = await kept.text();
        assert.match(body, /Disallow: \/private\/\n/, text.slice(0, 40));
        assert.doesNotMatch(body, /other/);
        const diagnostics = await server.handler.diagnostics();
        assert.ok(
          diagnostics.some(
            (d) => d.code === 'config-rejected' && /previous configuration/.test(d.message),
          ),
        );
      }
    } finally {
      await server.close();
    }
  });

  test('a configFile read once must be right: refused with file and line, never half applied', (t) => {
    const root = makeContentRoot({
      'a.md': '# A\n',
      'site.yaml': 'robotsRules: [{ disallow: /private/ }]\nmaxUrls: 0\n',
      'alias.yaml': 'trailingSlash: *x\n',
    });
    t.after(() => root.remove());
    assert.throws(() => createSiteHandler({ root: root.dir, configFile: root.path('site.yaml') }), {
      code: 'invalid-argument',
      message: /site\.yaml:2:1: maxUrls: must be a whole number/,
    });
    assert.throws(
      () => createSiteHandler({ root: root.dir, configFile: root.path('alias.yaml') }),
      { code: 'invalid-argument', message: /alias\.yaml:1:16: .*alias/i },
    );
  });

  test('a FIFO as the configuration is refused at once, not waited on', (t) => {
    const root = makeContentRoot({ 'a.md': '# A\n' });
    t.after(() => root.remove());
    try {
      execFileSync('mkfifo', [root.path('fifo.yaml')]);
    } catch {
      t.skip('mkfifo is not available');
      return;
    }
    // Reading a FIFO blocks until someone writes to it: the whole process would hang here.
    assert.throws(() => createSiteHandler({ root: root.dir, configFile: root.path('fifo.yaml') }), {
      code: 'invalid-argument',
      message: /not a regular file/,
    });
  });

  test('parseSiteConfig is total and says where', () => {
    const CASES: [text: string, line: number][] = [
      ['maxUrls: 10\ntrustProxy: *x\n', 2],
      [ALIAS_BOMB.replace('alias: bomb', 'trustProxy: true'), 3],
    ];
    for (const [text, line] of CASES) {
      const reading = parseSiteConfig(text);
      assert.deepEqual(reading.config, {});
      const error = reading.diagnostics.find((d) => d.severity === 'error');
      assert.equal(error?.code, 'config-yaml');
      assert.equal(error?.line, line);
    }
  });
});
