// `waymark sitemap diff`, run in-process on the files of src/sitemap/testdata/diff/ and on
// sitemaps served by a test server on 127.0.0.1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const data = (name: string) =>
  fileURLToPath(new URL(`../sitemap/testdata/diff/${name}`, import.meta.url));

describe('waymark sitemap diff', () => {
  let server: TestServer;
  before(async () => {
    const xml = { 'content-type': 'application/xml' };
    server = await startTestServer({
      '/old.xml': { headers: xml, body: readFileSync(data('pages-old.xml')) },
      '/new.xml': { headers: xml, body: readFileSync(data('pages-new.xml')) },
      '/missing.xml': { status: 404, body: 'not here' },
    });
  });
  after(() => server.close());

  test('prints a summary line, then + added, - removed, ~ lastmod old -> new', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      data('pages-old.xml'),
      data('pages-new.xml'),
    ]);
    assert.equal(result.code, 0);
    assert.equal(result.stderr, '');
    assert.equal(
      result.stdout,
      [
        `${data('pages-old.xml')} (urlset, 6 URLs) -> ${data('pages-new.xml')} (urlset, 6 URLs): 2 added, 2 removed, 2 lastmod changed, 2 unchanged`,
        '+ https://example.com/blog/third',
        '+ https://example.com/news',
        '- https://example.com/old-page',
        '- https://example.com/gone',
        '~ https://example.com/blog/first 2024-02-01 -> 2024-06-02',
        '~ https://example.com/blog/second none -> 2024-06-03',
        '',
      ].join('\n'),
    );
  });

  test('--json: one object with counts, the three lists and the diagnostics', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      data('lastmod-old.xml'),
      data('lastmod-new.xml'),
      '--json',
    ]);
    assert.equal(result.code, 0);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(json['old'], { source: data('lastmod-old.xml'), kind: 'urlset' });
    assert.deepEqual(json['counts'], {
      old: 6,
      new: 6,
      added: 0,
      removed: 0,
      lastmodChanged: 4,
      unchanged: 2,
      oldDuplicates: 0,
      newDuplicates: 0,
    });
    assert.deepEqual((json['lastmodChanged'] as unknown[])[1], {
      loc: 'https://example.com/dropped',
      oldLastmod: '2024-03-01',
    });
    assert.deepEqual(json['diagnostics'], []);
  });

  test('reads sitemaps over HTTP, and one of them from standard input', async () => {
    const result = await runCliForTest(
      ['sitemap', 'diff', server.url('/old.xml'), '-'],
      readFileSync(data('pages-new.xml'), 'utf8'),
    );
    assert.equal(result.code, 0);
    assert.match(
      result.stdout,
      /^http:\/\/127\.0\.0\.1:\d+\/old\.xml \(urlset, 6 URLs\) -> <stdin> /,
    );
    assert.match(result.stdout, /\n\+ https:\/\/example\.com\/news\n/);
  });

  test('a new sitemap cut short: its error on stderr, exit 1', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      data('pages-old.xml'),
      data('cut-new.xml'),
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cut-new\.xml:4: error: .* \[truncated\]/);
    assert.match(result.stdout, /4 removed/);
  });

  test('an HTTP error: exit 1, no diff', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      server.url('/old.xml'),
      server.url('/missing.xml'),
    ]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /missing\.xml: error: HTTP 404/);
  });

  test('two indexes: their entries are compared, with a note', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      data('index-old.xml'),
      data('index-new.xml'),
    ]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /\(index, 3 sitemaps\)/);
    assert.match(result.stdout, /\n\+ https:\/\/example\.com\/sitemap-2024\.xml\n/);
    assert.match(result.stderr, /note: a sitemap index: its child sitemaps are compared/);
  });

  const usage: [string, string[], RegExp][] = [
    ['one sitemap only', [data('pages-old.xml')], /needs two sitemaps/],
    [
      'three sitemaps',
      [data('pages-old.xml'), data('pages-new.xml'), data('empty.xml')],
      /needs two sitemaps/,
    ],
    ['both from standard input', ['-', '-'], /only one of the two sitemaps can be standard input/],
  ];
  for (const [name, args, message] of usage) {
    test(`usage error: ${name}`, async () => {
      const result = await runCliForTest(['sitemap', 'diff', ...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
    });
  }

  test('a file that does not exist: exit 3', async () => {
    const result = await runCliForTest([
      'sitemap',
      'diff',
      data('no-such.xml'),
      data('pages-new.xml'),
    ]);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /no such file/);
  });
});
