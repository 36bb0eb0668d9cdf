import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { NAVMAP_NS } from '../navmap/index.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const XML = { 'content-type': 'application/xml' };
const HTML = { 'content-type': 'text/html' };
const MAP = `<sitemap xmlns="${NAVMAP_NS}" xmlns:xlink="http://www.w3.org/1999/xlink">
  <item name="Home" url="/" role="home"><item name="Docs" url="/docs/"/><external xlink:href="more.xml"/></item>
</sitemap>`;
const MORE = `<sitemap xmlns="${NAVMAP_NS}"><item name="More" url="/more"/></sitemap>`;

describe('waymark navmap', () => {
  let server: TestServer;
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waymark-navmap-'));
    server = await startTestServer({
      '/page': {
        headers: { ...HTML, opt: `"${NAVMAP_NS}"; ns=42`, '42-location': '/nav/map.xml' },
        body: '<p>page</p>',
      },
      '/plain': { headers: HTML, body: '<link rel="sitemap" href="/sitemap.xml">' },
      '/nav/map.xml': { headers: XML, body: MAP },
      '/nav/more.xml': { headers: XML, body: MORE },
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const outline = (origin: string) =>
    `Home <${origin}/> {home}\n  Docs <${origin}/docs/>\n  More <${origin}/more>\n\nRoles:\n  home: Home <${origin}/>\n`;

  test('a page URL: discovers, fetches and prints the outline', async () => {
    const result = await runCliForTest(['navmap', server.url('/page')]);
    assert.equal(result.stderr, '');
    assert.equal(result.stdout, outline(server.origin));
    assert.equal(result.code, 0);
  });

  test('--json and --html', async () => {
    const json = await runCliForTest(['navmap', server.url('/page'), '--json']);
    assert.equal(json.code, 0);
    const tree = JSON.parse(json.stdout) as { root: { children: { label: string }[] } };
    assert.equal(tree.root.children[0]?.label, 'Home');
    const html = await runCliForTest(['navmap', server.url('/page'), '--html']);
    assert.equal(html.code, 0);
    assert.match(
      html.stdout,
      /^<nav class="navmap">\n {2}<ul>\n {4}<li><a href="http:\/\/127\.0\.0\.1:\d+\/">Home<\/a>/,
    );
  });

  test('a page that names nothing: exit 1, the five steps, and no other request', async () => {
    const before = server.requests.length;
    const result = await runCliForTest(['navmap', server.url('/plain')]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /names no navigational sitemap/);
    for (const step of [
      '1. Opt header',
      '2. X-Standard-Sitemap-Location',
      '3. <link rel="schema.p">',
      '4. <link rel="standard-sitemap">',
      '5. user preference',
    ]) {
      assert.ok(result.stderr.includes(step), step);
    }
    assert.deepEqual(
      server.requests.slice(before).map((r) => r.path),
      ['/plain'],
    );
  });

  test('a saved page with --headers and --base', async () => {
    const page = file('page.html', '<p>saved</p>');
    const headers = file(
      'headers.txt',
      `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nOpt: "${NAVMAP_NS}"; ns=42\r\n42-Location: /nav/map.xml\r\n`,
    );
    const result = await runCliForTest([
      'navmap',
      page,
      '--headers',
      headers,
      '--base',
      server.url('/saved/page.html'),
    ]);
    assert.equal(result.stdout, outline(server.origin));
    assert.equal(result.code, 0);
  });

  test('--headers: blank lines do not count, over 2,000 fields is refused', async () => {
    const page = file('page2.html', '<p>saved</p>');
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `X-Field-${i}: ${i}`);
    // Ten million line breaks around them: read line by line, not split at once.
    const blank = '\n'.repeat(10_000_000);
    const fits = file('fits.txt', `HTTP/1.1 200 OK\n${fields(2_000).join('\n')}${blank}`);
    const ok = await runCliForTest([
      'navmap',
      page,
      '--headers',
      fits,
      '--base',
      'https://a.example/',
    ]);
    assert.doesNotMatch(ok.stderr, /header fields/);
    const over = file('over.txt', `${fields(2_001).join('\n')}\n`);
    const refused = await runCliForTest([
      'navmap',
      page,
      '--headers',
      over,
      '--base',
      'https://a.example/',
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /over\.txt holds more than 2000 header fields/);
  });

  test('a saved page without headers is read as text/html', async () => {
    const page = file(
      'linked.html',
      `<link rel="schema.nav" href="${NAVMAP_NS}"><link rel="nav.location" href="../nav/map.xml">`,
    );
    const result = await runCliForTest(['navmap', page, '--base', server.url('/docs/x.html')]);
    assert.equal(result.stdout, outline(server.origin));
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
  });

  test('the charset of --headers overrides a navigational sitemap file’s declaration', async () => {
    const latin1 = `<?xml version="1.0" encoding="utf-8"?><sitemap xmlns="${NAVMAP_NS}"><item name="Caf\u00e9" url="/c"/></sitemap>`;
    const path = join(dir, 'latin1.xml');
    writeFileSync(
      path,
      Uint8Array.from(latin1, (c) => c.charCodeAt(0)),
    );
    const headers = file(
      'latin1-headers.txt',
      'Content-Type: application/xml; charset=iso-8859-1\n',
    );
    const base = ['--base', 'https://ex.org/nav/map.xml'];
    const result = await runCliForTest(['navmap', path, '--headers', headers, ...base]);
    assert.equal(result.stdout, 'Café <https://ex.org/c>\n');
    assert.match(result.stderr, /info: the HTTP charset "iso-8859-1" overrides/);
    assert.equal(result.code, 0);
  });

  test('control characters from the page and the sitemap never reach the terminal raw', async () => {
    const map = file(
      'hostile.xml',
      `<sitemap xmlns="${NAVMAP_NS}"><item name="a&#x1b;[2Jb" url="/a"/><item name="c" url="http://[&#x1b;]0;x&#x7;"/></sitemap>`,
    );
    const result = await runCliForTest(['navmap', map, '--base', 'https://ex.org/m.xml']);
    assert.equal(result.stdout, 'a\\x1b[2Jb <https://ex.org/a>\nc\n');
    assert.match(result.stderr, /url "http:\/\/\[\\x1b\]0;x\\x07" is not a URL/);
    const page = file('hostile.html', '<p>nothing</p>');
    const headers = file(
      'hostile-headers.txt',
      `Content-Type: text/html\nOpt: "${NAVMAP_NS}"; ns=42\n42-Location: http://[\u001b[31m\n`,
    );
    const none = await runCliForTest(['navmap', page, '--headers', headers]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /is not a URL: http:\/\/\[\\x1b\[31m/);
    const raw = [...(result.stderr + result.stdout + none.stderr)].filter(
      (c) => c < ' ' && c !== '\n',
    );
    assert.deepEqual(raw, []);
  });

  test('a saved page that is not HTML: the HTML steps are reported as skipped', async () => {
    const page = file('data.txt', '<link rel="standard-sitemap" href="/nav/map.xml">');
    const headers = file('plain.txt', 'Content-Type: text/plain\n');
    const result = await runCliForTest(['navmap', page, '--headers', headers]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /3\. .*skipped, the page is not HTML \(Content-Type text\/plain\)/);
  });

  test('a navigational sitemap file is read directly; with an http --base its externals are fetched', async () => {
    const map = file('map.xml', MAP);
    const result = await runCliForTest(['navmap', map, '--base', server.url('/nav/map.xml')]);
    assert.equal(result.stdout, outline(server.origin));
    const local = await runCliForTest(['navmap', map]);
    assert.equal(local.code, 0);
    assert.match(
      local.stdout,
      /^Home <file:\/\/\/> \{home\}\n {2}Docs <file:\/\/\/docs\/>\n {2}\[not loaded: file:\/\/.*more\.xml\]/,
    );
    assert.match(local.stderr, /info: .*more\.xml is not loaded/);
  });

  test('a saved page without --base reads no other local file; with its file: URL it does', async () => {
    file('local-map.xml', MORE);
    const page = file('local.html', '<link rel="standard-sitemap" href="local-map.xml">');
    const refused = await runCliForTest(['navmap', page]);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      /not reading file:.*local-map\.xml: a saved page names local files only with a file: --base; to let it name files in its folder or below, pass --base with the page's file: URL/,
    );
    assert.equal(refused.code, 1);
    const result = await runCliForTest(['navmap', page, '--base', pathToFileURL(page).href]);
    assert.equal(result.stdout, 'More <file:///more>\n');
    assert.equal(result.code, 0);
  });

  describe('a saved page may only name files in its folder or below', () => {
    // dir/secret.xml is outside the page's folder dir/site/; the page tries every way out.
    const SECRET = `<sitemap xmlns="${NAVMAP_NS}"><item name="TOP-SECRET" url="/s"/></sitemap>`;
    let site = '';
    let secret = '';
    before(() => {
      site = join(dir, 'site');
      mkdirSync(join(site, 'sub'), { recursive: true });
      secret = file('secret.xml', SECRET);
      writeFileSync(join(site, 'sub', 'nav.xml'), MORE);
      symlinkSync(secret, join(site, 'link.xml'));
      symlinkSync(dir, join(site, 'up'));
    });

    const cases: [string, () => string][] = [
      ['a relative path up (..)', () => '../secret.xml'],
      ['an absolute path', () => secret],
      ['a file: URL elsewhere', () => pathToFileURL(secret).href],
      ['a symbolic link out of the folder', () => 'link.xml'],
      ['a path through a linked folder', () => 'up/secret.xml'],
      ['/etc/passwd', () => '/etc/passwd'],
    ];
    for (const [name, href] of cases) {
      test(`${name}: refused, with and without --base`, async () => {
        const page = join(site, 'page.html');
        writeFileSync(page, `<link rel="standard-sitemap" href="${href()}">`);
        for (const base of [[], ['--base', pathToFileURL(page).href]]) {
          const result = await runCliForTest(['navmap', page, ...base]);
          assert.equal(result.code, 1, result.stderr);
          assert.equal(result.stdout, '');
          assert.match(result.stderr, /not reading file:/);
          if (base.length > 0) assert.match(result.stderr, /outside the folder of --base/);
          assert.doesNotMatch(result.stderr + result.stdout, /TOP-SECRET|root:/);
        }
      });
    }

    test('a file below the folder is read with a file: --base', async () => {
      const page = join(site, 'below.html');
      writeFileSync(page, '<link rel="standard-sitemap" href="sub/nav.xml">');
      const result = await runCliForTest(['navmap', page, '--base', pathToFileURL(page).href]);
      assert.equal(result.stdout, 'More <file:///more>\n');
      assert.equal(result.code, 0);
    });

    test('a page with an http(s) --base names no local file', async () => {
      const page = join(site, 'web.html');
      writeFileSync(page, `<link rel="standard-sitemap" href="${pathToFileURL(secret).href}">`);
      const result = await runCliForTest(['navmap', page, '--base', 'https://ex.org/p.html']);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /the page is not a local file \(--base is not a file: URL\)/);
      assert.doesNotMatch(result.stdout, /TOP-SECRET/);
    });
  });

  test('a saved page naming a sitemap on another file host: a clear message, exit 1', async () => {
    const page = file('remote.html', '<link rel="standard-sitemap" href="file://server/nav.xml">');
    const result = await runCliForTest(['navmap', page]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /cannot read file:\/\/server\/nav\.xml: only http\(s\) and local file: URLs/,
    );
  });

  test('usage errors exit 2', async () => {
    assert.equal((await runCliForTest(['navmap'])).code, 2);
    assert.equal((await runCliForTest(['navmap', 'a', 'b'])).code, 2);
    assert.equal(
      (await runCliForTest(['navmap', server.url('/page'), '--json', '--html'])).code,
      2,
    );
    assert.equal((await runCliForTest(['navmap', 'x.html', '--base', 'not a url'])).code, 2);
    const help = await runCliForTest(['navmap', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--headers <file>/);
  });
});
