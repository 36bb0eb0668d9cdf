import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../crawl/test-support/fixture-site.ts';
import { runCliForTest } from './test-support/run-cli.ts';

describe('waymark crawl', () => {
  let site: FixtureSite;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-'));
  before(async () => {
    site = await startFixtureSite();
  });
  after(() => site.close());

  test('--out writes the sitemap atomically and prints a summary', async () => {
    const out = join(dir, 'sitemap.xml');
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--out',
      out,
      '--rate',
      '0',
      '--max-depth',
      '3',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const xml = readFileSync(out, 'utf8');
    for (const url of site.expectedSitemap) assert.ok(xml.includes(`<loc>${url}</loc>`), url);
    assert.equal(xml.match(/<loc>/g)?.length, site.expectedSitemap.length);
    assert.match(result.stderr, /11 listed in the sitemap/);
    assert.match(result.stderr, /left out:\n(.*\n)*\s+2 {2}robots-disallowed/);
  });

  test('--format text to standard output; --exclude and --max-pages', async () => {
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--format',
      'text',
      '--rate',
      '0',
      '--quiet',
      '--no-sitemaps',
      '--exclude',
      '/calendar/**',
      '--exclude',
      '/blog/**',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0);
    assert.equal(result.stderr, '');
    const urls = result.stdout.trim().split('\n');
    assert.ok(urls.includes(site.url('/about')));
    assert.ok(!urls.some((u) => u.includes('/calendar/') || u.includes('/blog/')));
    assert.ok(!urls.includes(site.url('/orphan')), 'no sitemaps read, so the orphan is not found');
  });

  test('--out-dir writes sitemap.xml through the sitemap writer', async () => {
    const out = join(dir, 'site');
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--out-dir',
      out,
      '--rate',
      '0',
      '--quiet',
      '--max-depth',
      '1',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0);
    assert.ok(existsSync(join(out, 'sitemap.xml')));
  });

  test('usage errors', async () => {
    for (const args of [
      ['crawl'],
      ['crawl', 'ftp://example.com/'],
      ['crawl', site.url('/'), '--format', 'csv'],
      ['crawl', site.url('/'), '--rate', 'fast'],
      ['crawl', site.url('/'), '--timeout', 'soon'],
      ['crawl', site.url('/'), '--resume'],
      ['crawl', site.url('/'), '--out', 'a', '--out-dir', 'b'],
    ]) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1);
    }
  });
});
