import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { fixturePath, needsFixtures } from '../test-support/fixtures.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const cases = (file: string) => fixturePath(`sitemaps/cases/${file}`);

const tempDirs: string[] = [];
/** A fresh folder under the system temp folder, removed when this file's tests end. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-write-'));
  tempDirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
const needsCases = () => needsFixtures('sitemaps/cases/');

describe('waymark sitemap parse', () => {
  let server: TestServer;
  let other: TestServer;
  before(async () => {
    const xml = { 'content-type': 'application/xml' };
    const index = (paths: string[]) =>
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<sitemap><loc>${server.url(p)}</loc></sitemap>`).join('')}</sitemapindex>`;
    const urlset = (paths: string[]) =>
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${server.url(p)}</loc><lastmod>2024-0${paths.length}-01</lastmod></url>`).join('')}</urlset>`;
    server = await startTestServer({
      '/index.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(index(['/a.xml', '/b.xml', '/missing.xml']));
      },
      '/a.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(urlset(['/1', '/2']));
      },
      '/b.xml': (_, res) => {
        res.writeHead(200, xml);
        res.end(urlset(['/3']));
      },
      // A child on another origin, the index itself again, and 3,000 more than a walk reads.
      '/wide.xml': (_, res) => {
        res.writeHead(200, xml);
        const many = Array.from({ length: 3000 }, (_, i) => `/n/${i}.xml`);
        res.end(
          index(['/a.xml', '/wide.xml', ...many]).replace(
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${other.url('/elsewhere.xml')}</loc></sitemap>`,
          ),
        );
      },
      '*': (_, res) => res.writeHead(404).end(),
    });
    other = await startTestServer({});
  });
  after(async () => {
    await server.close();
    await other.close();
  });

  test('-r holds the given index to its origin and to the walk caps', async () => {
    const result = await runCliForTest(['sitemap', 'parse', '-r', server.url('/wide.xml')]);
    assert.equal(result.code, 1);
    assert.deepEqual(other.requests, [], 'the child on another origin was not requested');
    assert.match(result.stderr, /elsewhere\.xml: error: not read: on another origin/);
    assert.match(result.stderr, /wide\.xml: error: not read: already read in this walk/);
    assert.match(
      result.stderr,
      /wide\.xml:1: warning: 2004 more sitemaps named here are not read: a walk reads at most 1000 \(maxSitemaps\)/,
    );
    assert.equal(server.requests.filter((r) => r.path === '/wide.xml').length, 1);
    assert.match(result.stdout, /\/1\n.*\/2\n/s);
  });

  test('prints one URL a line from a file', needsCases(), async () => {
    const result = await runCliForTest(['sitemap', 'parse', cases('usp-image.xml')]);
    assert.equal(result.code, 0);
    assert.equal(
      result.stdout,
      'http://test_ultimate-sitemap-parser.com/sample1.html\nhttp://test_ultimate-sitemap-parser.com/sample2.html\n',
    );
  });

  test('--json prints full entries; gzip is detected from the bytes', needsCases(), async () => {
    const result = await runCliForTest([
      'sitemap',
      'parse',
      '--json',
      cases('usp-gzip-by-content-type.dat'),
    ]);
    assert.equal(result.code, 0);
    const entry = JSON.parse(result.stdout);
    assert.equal(entry.loc, 'http://test_ultimate-sitemap-parser.com/news/bar.html');
    assert.equal(entry.news.title, 'Bąr');
  });

  test('problems go to stderr and an HTML page exits 1', needsCases(), async () => {
    const result = await runCliForTest(['sitemap', 'parse', cases('own-html-soft-404.xml')]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /own-html-soft-404\.xml:2: error: this is an HTML page, not a sitemap/,
    );
  });

  test('reads standard input', async () => {
    const result = await runCliForTest(
      ['sitemap', 'parse', '-'],
      'https://example.com/a\nhttps://example.com/b\n',
    );
    assert.equal(result.stdout, 'https://example.com/a\nhttps://example.com/b\n');
  });

  test('a URL is fetched; without --recursive an index prints its sitemaps', async () => {
    const result = await runCliForTest(['sitemap', 'parse', server.url('/index.xml')]);
    assert.equal(result.code, 0);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      server.url('/a.xml'),
      server.url('/b.xml'),
      server.url('/missing.xml'),
    ]);
  });

  test('--recursive follows the index; a missing child is reported and exits 1', async () => {
    const result = await runCliForTest([
      'sitemap',
      'parse',
      '-r',
      '--json',
      server.url('/index.xml'),
    ]);
    assert.equal(result.code, 1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((l) => [l.sitemap, l.loc]),
      [
        [server.url('/a.xml'), server.url('/1')],
        [server.url('/a.xml'), server.url('/2')],
        [server.url('/b.xml'), server.url('/3')],
      ],
    );
    assert.match(result.stderr, /missing\.xml: error: not read: HTTP 404/);
    assert.ok(server.requests.some((r) => r.headers['user-agent'] === 'waymark/0.0.0-test'));
  });

  test('--stats counts documents, entries, the lastmod range and problems', async () => {
    const result = await runCliForTest([
      'sitemap',
      'parse',
      '-r',
      '--stats',
      '--json',
      server.url('/index.xml'),
    ]);
    const stats = JSON.parse(result.stdout);
    assert.deepEqual(stats.documents, { index: 1, urlset: 2, 'not read': 1 });
    assert.equal(stats.entries, 3);
    assert.deepEqual(stats.lastmodRange, { oldest: '2024-01-01', newest: '2024-02-01' });
  });

  test('usage errors', async () => {
    assert.equal((await runCliForTest(['sitemap', 'parse'])).code, 2);
    assert.equal((await runCliForTest(['sitemap', 'parse', 'a.xml', 'b.xml'])).code, 2);
    const missing = await runCliForTest(['sitemap', 'parse', '/no/such/file.xml']);
    assert.equal(missing.code, 3, 'could not be done, not a usage error');
    assert.match(missing.stderr, /cannot read \/no\/such\/file\.xml: no such file/);
  });
});

describe('waymark sitemap write', () => {
  test('writes sitemap.xml from URLs and JSON lines on standard input, readable back', async () => {
    const dir = tempDir();
    const input =
      '# pages\nhttps://example.com/\n\n{"loc":"https://example.com/a","lastmod":"2024-01-02","images":[{"loc":"https://example.com/a.png"}]}\n';
    const result = await runCliForTest(
      ['sitemap', 'write', '--base', 'https://example.com/', '--out', dir, '--extensions', 'image'],
      input,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /2 URLs; announce https:\/\/example\.com\/sitemap\.xml/);
    const parsed = await runCliForTest(['sitemap', 'parse', '--json', join(dir, 'sitemap.xml')]);
    assert.deepEqual(
      parsed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
      [
        { loc: 'https://example.com/' },
        {
          loc: 'https://example.com/a',
          lastmod: '2024-01-02',
          images: [{ loc: 'https://example.com/a.png' }],
        },
      ],
    );
    assert.ok(readFileSync(join(dir, 'sitemap.xml'), 'utf8').includes('xmlns:image'));
  });

  test('splits into parts and an index past --max-urls, gzip on request', async () => {
    const dir = tempDir();
    const urls = Array.from({ length: 5 }, (_, i) => `https://example.com/p/${i}`).join('\n');
    const result = await runCliForTest(
      [
        'sitemap',
        'write',
        '--base',
        'https://example.com/',
        '--out',
        dir,
        '--max-urls',
        '2',
        '--gzip',
      ],
      urls,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(dir, 'sitemaps', 'sitemap-0003.xml.gz')));
    const all = await runCliForTest([
      'sitemap',
      'parse',
      join(dir, 'sitemaps', 'sitemap-0003.xml.gz'),
    ]);
    assert.equal(all.stdout, 'https://example.com/p/4\n');
    const index = await runCliForTest(['sitemap', 'parse', join(dir, 'sitemap_index.xml')]);
    assert.equal(index.stdout.trim().split('\n').length, 3);
  });

  test('a bad line is an error and nothing is written', async () => {
    const dir = tempDir();
    const result = await runCliForTest(
      ['sitemap', 'write', '--base', 'https://example.com/', '--out', dir],
      'https://example.com/\n{"nope": 1}\n',
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /<stdin>:2: not a URL or a JSON entry/);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('an entry field of the wrong type is an error, not a crash; nothing is written', async () => {
    for (const [line, message] of [
      ['{"loc":"https://example.com/","images":"x"}', /images is not a list/],
      ['{"loc":"https://example.com/","videos":"x"}', /videos is not a list/],
      ['{"loc":"https://example.com/","alternates":{}}', /alternates is not a list/],
    ] as const) {
      const dir = tempDir();
      const result = await runCliForTest(
        ['sitemap', 'write', '--base', 'https://example.com/', '--out', dir],
        `https://example.com/a\n${line}\n`,
      );
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /unexpected/);
      assert.deepEqual(readdirSync(dir), []);
    }
  });

  test('a line without end (/dev/zero, one long line) is refused at 16 MiB characters', async () => {
    const dir = tempDir();
    const input = join(dir, 'one-line.txt');
    writeFileSync(input, `https://example.com/${'a'.repeat(17 * 1024 * 1024)}`);
    const result = await runCliForTest([
      'sitemap',
      'write',
      '--base',
      'https://example.com/',
      '--out',
      join(dir, 'out'),
      '--input',
      input,
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /one-line\.txt:1: the line is over 16777216 characters/);
  });

  test('--out a file, not a folder: said in words, exit 3', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'mine');
    const result = await runCliForTest(
      ['sitemap', 'write', '--base', 'https://example.com/', '--out', file],
      'https://example.com/\n',
    );
    assert.equal(result.code, 3);
    assert.match(result.stderr, /cannot create .*a-file: a file is there, not a directory\n$/);
    assert.equal(readFileSync(file, 'utf8'), 'mine');
  });

  test('usage errors', async () => {
    assert.equal((await runCliForTest(['sitemap', 'write', '--out', '/tmp/x'])).code, 2);
    assert.equal((await runCliForTest(['sitemap', 'write', '--base', 'https://e.com/'])).code, 2);
    const bad = await runCliForTest([
      'sitemap',
      'write',
      '--base',
      'https://e.com/',
      '--out',
      '/tmp/x',
      '--extensions',
      'gif',
    ]);
    assert.match(bad.stderr, /unknown extension "gif"/);
  });
});

describe('waymark sitemap validate', needsCases(), () => {
  test('a valid sitemap exits 0 with a summary on stderr', async () => {
    const result = await runCliForTest([
      'sitemap',
      'validate',
      cases('own-valid-all-extensions.xml'),
    ]);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /urlset, 4 entries, valid/);
  });

  test('schema problems are errors with file:line:column, exit 1', async () => {
    const result = await runCliForTest([
      'sitemap',
      'validate',
      cases('usp-urlset-invalid-changefreq-priority.xml'),
    ]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.match(
      lines[0] ?? '',
      /usp-urlset-invalid-changefreq-priority\.xml:14:\d+: error: changefreq "when we feel like it" .*\[invalid-changefreq\]$/,
    );
    assert.match(lines[1] ?? '', /:17:\d+: error: priority "1\.1" .*\[invalid-priority\]$/);
  });

  test('--json; an index with an unknown element', async () => {
    const result = await runCliForTest([
      'sitemap',
      'validate',
      '--json',
      cases('smjs-bad-tag-index.xml'),
    ]);
    assert.equal(result.code, 1);
    const first = JSON.parse(result.stdout.split('\n')[0] ?? '');
    assert.equal(first.code, 'unknown-element');
    assert.equal(first.severity, 'error');
  });
});
