// `waymark serve` end to end: the real server on 127.0.0.1, crawled by the real
// `waymark crawl`, yields exactly the URL set of its own /sitemap.xml.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { locs } from '../site/test-support/content-root.ts';
import { runCliForTest } from './test-support/run-cli.ts';
import { serve, until } from './test-support/serve-in-process.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/content/', import.meta.url));

/** How many lines of `text` match `line`. */
function count(text: string, line: RegExp): number {
  return text.split('\n').filter((l) => line.test(l)).length;
}

async function sitemapUrls(origin: string): Promise<string[]> {
  return locs(await (await fetch(`${origin}/sitemap.xml`)).text()).sort();
}

async function crawledUrls(origin: string, extra: readonly string[] = []): Promise<string[]> {
  const result = await runCliForTest([
    'crawl',
    `${origin}/`,
    '--format',
    'text',
    '--rate',
    '0',
    '--quiet',
    ...extra,
  ]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.split('\n').filter(Boolean).sort();
}

describe('waymark serve', () => {
  test('crawling the served example root yields its sitemap, links alone or with sitemaps', async () => {
    const running = await serve([EXAMPLE, '--port', '0']);
    try {
      const origin = running.server.origin;
      assert.match(running.stdout(), new RegExp(`at ${origin.replaceAll('.', '\\.')}/`));
      assert.equal(running.stderr(), '', 'the example root has no problems');
      const sitemap = await sitemapUrls(origin);
      for (const path of ['/about', '/about/team', '/menu'])
        assert.ok(sitemap.includes(origin + path), path);
      for (const path of ['/imprint', '/staff/pricing'])
        assert.ok(!sitemap.includes(origin + path), path);
      assert.equal(sitemap.length, 4);
      assert.deepEqual(await crawledUrls(origin, ['--no-sitemaps']), sitemap);
      assert.deepEqual(await crawledUrls(origin), sitemap);
    } finally {
      assert.equal(await running.stop(), 0);
    }
  });

  test('served documents: rendered Markdown, canonical id pages, noindex, refusals', async () => {
    const running = await serve([EXAMPLE, '--port', '0']);
    try {
      const origin = running.server.origin;
      const about = await fetch(`${origin}/about`);
      assert.equal(about.headers.get('content-type'), 'text/html; charset=utf-8');
      const html = await about.text();
      assert.match(html, /<title>About us<\/title>/);
      assert.match(html, /<a href="\/about\/team">team page<\/a>/);
      assert.match(html, new RegExp(`<link rel="canonical" href="${origin}/about">`));
      // The /id/ page of an aliased document points crawlers at the alias.
      const team = await (await fetch(`${origin}/about/team`)).text();
      assert.doesNotMatch(
        team,
        /staff\/pricing|pricing-notes\.md/,
        'the link to a restricted document is dropped',
      );
      assert.match(team, /live in the pricing notes\./);
      const imprint = await fetch(`${origin}/imprint`);
      assert.equal(imprint.headers.get('x-robots-tag'), 'noindex');
      assert.equal((await fetch(`${origin}/staff/pricing`)).status, 403);
      const menu = await (await fetch(`${origin}/menu`)).text();
      const textLink = /href="(\/id\/[0-9a-f]+)">opening-hours\.txt/.exec(menu)?.[1];
      assert.ok(textLink !== undefined);
      const text = await fetch(origin + textLink);
      assert.equal(text.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.match(await text.text(), /Monday to Friday/);
      const byId = await (await fetch(`${origin}/id/c0ffee01`)).text();
      assert.match(byId, new RegExp(`<link rel="canonical" href="${origin}/menu">`));
      assert.equal((await fetch(`${origin}/menu/`, { redirect: 'manual' })).status, 301);
      const robots = await (await fetch(`${origin}/robots.txt`)).text();
      assert.ok(!robots.includes('/cms'), 'the example admin path stays private');
      assert.match(robots, /User-agent: GPTBot\nDisallow: \/\n/);
    } finally {
      await running.stop();
    }
  });

  test('a change on disk shows in the next sitemap and crawl, with --config and --revalidate stat', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const root = join(dir, 'content');
    cpSync(EXAMPLE, root, { recursive: true });
    const config = join(dir, 'site.yaml');
    writeFileSync(config, 'trailingSlash: always\n');
    for (const mode of ['watch', 'stat']) {
      const running = await serve([root, '--port', '0', '--config', config, '--revalidate', mode]);
      try {
        const origin = running.server.origin;
        writeFileSync(join(root, `news-${mode}.md`), '# News\n\nBack to the [menu](menu.md).\n');
        writeFileSync(join(root, `news-${mode}.md.meta.yaml`), `alias: news/${mode}\n`);
        writeFileSync(join(root, 'menu.md'), `# Menu\n\n[News](news-${mode}.md)\n`);
        const sitemap = await sitemapUrls(origin);
        assert.ok(sitemap.includes(`${origin}/news/${mode}/`), sitemap.join(' '));
        assert.deepEqual(await crawledUrls(origin, ['--no-sitemaps']), sitemap);
      } finally {
        await running.stop();
      }
    }
  });

  test('--origin fixes every absolute URL; problems print as file:line:column', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'good.md'), '# Good\n');
    writeFileSync(join(dir, 'good.md.meta.yaml'), 'alias: good\n');
    writeFileSync(join(dir, 'bad.md'), '# Bad\n');
    writeFileSync(join(dir, 'bad.md.meta.yaml'), 'alias: bad\ntitle: *x\n');
    const running = await serve([dir, '--port', '0', '--origin', 'https://www.example.com']);
    try {
      assert.match(
        running.stderr(),
        /^bad\.md\.meta\.yaml:2:8: error: .*alias.* \[sidecar-yaml\] \(bad\.md\)\n$/,
      );
      const response = await fetch(`${running.server.origin}/sitemap.xml`);
      assert.deepEqual(locs(await response.text()), ['https://www.example.com/good']);
    } finally {
      await running.stop();
    }
  });

  test('problems print as their files change, once per change and not per request; fixed ones say so', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'good.md'), '# Good\n');
    const running = await serve([dir, '--port', '0', '--revalidate', 'watch']);
    try {
      const origin = running.server.origin;
      assert.equal(running.stderr(), '');
      // A file name is site text too: its escape character must not reach the terminal raw.
      const bad = 'bad\x1b[2J.md';
      const sidecar = join(dir, `${bad}.meta.yaml`);
      writeFileSync(join(dir, bad), '# Bad\n');
      writeFileSync(sidecar, 'alias: bad\ntitle: *x\n');
      const broken =
        /^bad\\x1b\[2J\.md\.meta\.yaml:2:8: error: .*alias.* \[sidecar-yaml\] \(bad\\x1b\[2J\.md\)$/;
      // Without a request: the server notices the change by itself.
      await until(() => count(running.stderr(), broken) === 1, running.stderr);
      for (const path of ['/', '/sitemap.xml', '/robots.txt', '/', '/good']) {
        await (await fetch(origin + path)).arrayBuffer();
      }
      assert.equal(count(running.stderr(), broken), 1, 'once, not once per request');
      // Saved again and still broken: told again.
      writeFileSync(sidecar, 'alias: bad\ntitle: *x\n# saved again\n');
      await until(() => count(running.stderr(), broken) === 2, running.stderr);
      writeFileSync(sidecar, 'alias: bad\n');
      const fixed = /^bad\\x1b\[2J\.md\.meta\.yaml:2:8: resolved: .*\[sidecar-yaml\]/;
      await until(() => count(running.stderr(), fixed) === 1, running.stderr);
      // The root's configuration, broken while serving: the last good one stays in force.
      writeFileSync(join(dir, 'waymark.site.yaml'), 'maxUrls: many\n');
      await until(() => /\[config-rejected\]/.test(running.stderr()), running.stderr);
      assert.match(running.stderr(), /^waymark\.site\.yaml:1:\d+: error: maxUrls: .*\n/m);
      assert.ok(!running.stderr().includes('\x1b'), 'no raw control character');
      assert.equal(count(running.stderr(), broken), 2);
      assert.equal(count(running.stderr(), fixed), 1);
    } finally {
      await running.stop();
    }
  });

  test('with --revalidate stat, a request reports what changed before it is answered', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const running = await serve([dir, '--port', '0', '--revalidate', 'stat']);
    try {
      writeFileSync(join(dir, 'a.md'), '# A\n');
      writeFileSync(join(dir, 'a.md.meta.yaml'), 'access: everyone\n');
      await (await fetch(`${running.server.origin}/`)).arrayBuffer();
      assert.match(
        running.stderr(),
        /^a\.md\.meta\.yaml:1:1: error: access must be public, restricted or deny \[sidecar-access\] \(a\.md\)\n$/,
      );
    } finally {
      await running.stop();
    }
  });

  test('usage errors', async () => {
    const CASES: [args: string[], message: RegExp][] = [
      [['serve'], /missing the content root/],
      [['serve', EXAMPLE, '--port', 'x'], /--port is a number/],
      [['serve', EXAMPLE, '--port', '70000'], /--port is a number/],
      [['serve', EXAMPLE, '--revalidate', 'poll'], /--revalidate is watch or stat/],
      [['serve', EXAMPLE, EXAMPLE], /one content root/],
      [
        ['serve', EXAMPLE, '--origin', 'https://example.com/blog'],
        /origin: must be null or an http/,
      ],
    ];
    for (const [args, message] of CASES) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
    // Not a usage error: the root could not be read (exit code 3).
    const missing = await runCliForTest(['serve', '/nonexistent/waymark-root', '--port', '0']);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /cannot read the content root/);
    const help = await runCliForTest(['serve', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: waymark serve <root>/);
  });
});
