// Where sitemap commands meet a limit: the read cap (--max-bytes), a URL set or index with
// no entries (invalid by the official schemas), and `sitemap write` given no URL.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-sitemap-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const MIB = 1024 * 1024;

/** A URL set of `count` URLs on example.com, about 70 bytes each. */
function urlset(count: number): string {
  const urls = Array.from(
    { length: count },
    (_, i) => `<url><loc>https://example.com/page/${i}</loc></url>\n`,
  );
  return `<urlset xmlns="${NS}">\n${urls.join('')}</urlset>\n`;
}

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const HINT =
  /was read only up to the (.+) cap; raise it with --max-bytes <size> \(e\.g\. --max-bytes (\d+MiB)\)/;

describe('--max-bytes', () => {
  const big = file('big.xml', urlset(100)); // ~5 KB
  let server: TestServer;
  before(async () => {
    const xml = { 'content-type': 'application/xml' };
    server = await startTestServer({
      '/big.xml': { headers: xml, body: urlset(100) },
    });
  });
  after(() => server.close());

  test('a file over the cap is read up to it, exit 1, and stderr names the flag', async () => {
    const cut = await runCliForTest(['sitemap', 'parse', big, '--max-bytes', '1KiB']);
    assert.equal(cut.code, 1);
    const urls = cut.stdout.trim().split('\n');
    assert.ok(urls.length > 0 && urls.length < 100, `${urls.length} URLs`);
    assert.match(cut.stderr, /big\.xml:1: error: more than 1024 bytes; reading stopped/);
    assert.match(cut.stderr, HINT);
    assert.deepEqual(HINT.exec(cut.stderr)?.slice(1), ['1 KiB', '1MiB']);

    const whole = await runCliForTest(['sitemap', 'parse', big, '--max-bytes', '1MiB']);
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(whole.stdout.trim().split('\n').length, 100);
    assert.equal(whole.stderr, '');
  });

  test('the cap counts bytes after gzip decompression', async () => {
    const gz = file('big.xml.gz', gzipSync(urlset(100)));
    assert.ok(readFileSync(gz).length < 1024, 'compressed under the cap');
    const cut = await runCliForTest(['sitemap', 'parse', gz, '--max-bytes', '1KiB']);
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /after decompression/);
    assert.match(cut.stderr, HINT);
  });

  test('a fetched sitemap is capped the same way', async () => {
    const cut = await runCliForTest([
      'sitemap',
      'parse',
      server.url('/big.xml'),
      '--max-bytes',
      '2000',
    ]);
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /more than 2000 bytes; reading stopped/);
    assert.match(cut.stderr, HINT);
    const whole = await runCliForTest([
      'sitemap',
      'parse',
      server.url('/big.xml'),
      '--max-bytes',
      '1MB',
    ]);
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(whole.stdout.trim().split('\n').length, 100);
  });

  test('--recursive applies the cap to every sitemap it reads', async () => {
    const index = file(
      'index.xml',
      `<sitemapindex xmlns="${NS}"><sitemap><loc>${server.url('/big.xml')}</loc></sitemap></sitemapindex>`,
    );
    const cut = await runCliForTest(['sitemap', 'parse', '-r', index, '--max-bytes', '2000']);
    assert.equal(cut.code, 1);
    assert.ok(
      cut.stderr.includes(`waymark sitemap parse: ${server.url('/big.xml')} was read only up to`),
      cut.stderr,
    );
    const whole = await runCliForTest(['sitemap', 'parse', '-r', index, '--max-bytes', '1MiB']);
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(whole.stdout.trim().split('\n').length, 100);
  });

  test('sitemap validate: a sitemap cut at the cap is not valid', async () => {
    const cut = await runCliForTest(['sitemap', 'validate', big, '--max-bytes', '1KiB']);
    assert.equal(cut.code, 1);
    assert.match(
      cut.stdout,
      /big\.xml:1:1: error: more than 1024 bytes; reading stopped .*\[size-limit\]/,
    );
    assert.match(cut.stderr, HINT);
    const whole = await runCliForTest(['sitemap', 'validate', big, '--max-bytes', '1MiB']);
    assert.equal(whole.code, 0, whole.stdout);
    assert.match(whole.stderr, /urlset, 100 entries, valid/);
  });

  test('by default the cap is 100 MiB, and --max-bytes lifts it', async () => {
    // 101 MiB of XML, mostly whitespace, as a 100 KB gzip file: past the default cap.
    const raw = Buffer.alloc(101 * MIB, ' ');
    raw.write(`<urlset xmlns="${NS}"><url><loc>https://example.com/</loc></url>`, 0);
    raw.write('</urlset>', raw.length - '</urlset>'.length);
    const gz = file('huge.xml.gz', gzipSync(raw));
    const cut = await runCliForTest(['sitemap', 'parse', gz]);
    assert.equal(cut.code, 1);
    assert.deepEqual(HINT.exec(cut.stderr)?.slice(1), ['100 MiB', '200MiB']);
    const whole = await runCliForTest(['sitemap', 'parse', gz, '--max-bytes', '200MiB']);
    assert.doesNotMatch(whole.stderr, /size-limit|--max-bytes/);
    assert.equal(whole.stdout, 'https://example.com/\n');
  });

  for (const value of ['0', 'lots', '5 parsecs']) {
    test(`--max-bytes ${value} is a usage error`, async () => {
      const result = await runCliForTest(['sitemap', 'parse', big, '--max-bytes', value]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^waymark sitemap parse: --max-bytes takes a size/);
    });
  }
});

describe('sitemap validate: a URL set or index needs an entry', () => {
  const cases: [name: string, xml: string, summary: RegExp, message: string][] = [
    [
      'empty.xml',
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}"/>\n`,
      /urlset, 0 entries, 1 error$/m,
      '<urlset> lists no <url>; the schema requires at least one [no-entries]',
    ],
    [
      'empty-open-close.xml',
      `<urlset xmlns="${NS}">\n  <!-- nothing yet -->\n</urlset>\n`,
      /urlset, 0 entries, 1 error$/m,
      '<urlset> lists no <url>; the schema requires at least one [no-entries]',
    ],
    [
      'empty-index.xml',
      `<sitemapindex xmlns="${NS}"></sitemapindex>`,
      /index, 0 entries, 1 error$/m,
      '<sitemapindex> lists no <sitemap>; the schema requires at least one [no-entries]',
    ],
  ];
  for (const [name, xml, summary, message] of cases) {
    test(`${name}: invalid, exit 1`, async () => {
      const path = file(name, xml);
      const result = await runCliForTest(['sitemap', 'validate', path]);
      assert.equal(result.stdout, `${path}:1:1: error: ${message}\n`);
      assert.match(result.stderr, summary);
      assert.equal(result.code, 1);
    });
  }

  test('entries all skipped for a bad <loc> are reported as that, not as a missing <url>', async () => {
    const path = file('relative.xml', `<urlset xmlns="${NS}"><url><loc>/a</loc></url></urlset>`);
    const result = await runCliForTest(['sitemap', 'validate', '--json', path]);
    assert.deepEqual(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).code),
      ['relative-loc'],
    );
    assert.equal(result.code, 1);
  });

  test('sitemap parse reads an empty URL set without complaint (it is lenient)', async () => {
    const result = await runCliForTest([
      'sitemap',
      'parse',
      file('e.xml', `<urlset xmlns="${NS}"/>`),
    ]);
    assert.deepEqual(result, { code: 0, stdout: '', stderr: '' });
  });
});

describe('sitemap write with no URL', () => {
  for (const [label, input] of [
    ['empty input', ''],
    ['only comments and blank lines', '# none today\n\n   \n'],
  ] as const) {
    test(`${label}: nothing is written, exit 1`, async () => {
      const out = join(dir, `out-${label.length}`);
      const result = await runCliForTest(
        ['sitemap', 'write', '--base', 'https://example.com/', '--out', out],
        input,
      );
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr:
          'waymark sitemap write: <stdin> holds no URL; nothing written (a sitemap lists at least one)\n',
      });
      assert.equal(existsSync(out), false, 'the output folder is not even created');
    });
  }

  test('an existing sitemap is left as it was', async () => {
    const out = join(dir, 'out-existing');
    mkdirSync(out);
    const input = file('none.txt', '# nothing\n');
    writeFileSync(join(out, 'sitemap.xml'), urlset(1));
    const result = await runCliForTest([
      'sitemap',
      'write',
      '--base',
      'https://example.com/',
      '--out',
      out,
      '--input',
      input,
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /none\.txt holds no URL; nothing written/);
    assert.equal(readFileSync(join(out, 'sitemap.xml'), 'utf8'), urlset(1));
  });
});
