// `waymark indexnow submit`, run in-process against the IndexNow test endpoint on 127.0.0.1
// (src/indexnow/test-support/indexnow-endpoint.ts): every test passes --endpoint, so no
// request leaves the machine. Retries here use Retry-After: 0 or --max-retries 0, so nothing
// waits for real.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import {
  type IndexNowEndpoint,
  startIndexNowEndpoint,
} from '../indexnow/test-support/indexnow-endpoint.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const KEY = '73134416ae45434d98edc086e0bf6740';
const data = (name: string) =>
  fileURLToPath(new URL(`../sitemap/testdata/diff/${name}`, import.meta.url));

let endpoint: IndexNowEndpoint;
let folder: string;
before(async () => {
  endpoint = await startIndexNowEndpoint();
  folder = mkdtempSync(join(tmpdir(), 'waymark-indexnow-'));
});
after(async () => {
  await endpoint.close();
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  endpoint.requests.length = 0;
  endpoint.script([]);
});

/** `waymark indexnow submit --key K --host example.com --endpoint <test endpoint> ...` */
function submit(args: readonly string[], stdin = '') {
  return runCliForTest(
    [
      'indexnow',
      'submit',
      '--key',
      KEY,
      '--host',
      'example.com',
      '--endpoint',
      endpoint.url,
      ...args,
    ],
    stdin,
  );
}

function urlFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('waymark indexnow submit --urls', () => {
  test('one URL a line; blank lines and # comments skipped; POSTed as IndexNow JSON', async () => {
    const file = urlFile(
      'urls.txt',
      '# changed today\nhttps://example.com/a\n\n  https://example.com/b  \r\n#https://example.com/c\n',
    );
    const result = await submit(['--urls', file]);
    assert.equal(result.code, 0);
    assert.equal(endpoint.requests.length, 1);
    assert.equal(endpoint.requests[0]?.method, 'POST');
    assert.equal(endpoint.requests[0]?.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(endpoint.requests[0]?.headers['user-agent'], 'waymark/0.0.0-test');
    assert.deepEqual(endpoint.requests[0]?.body, {
      host: 'example.com',
      key: KEY,
      urlList: ['https://example.com/a', 'https://example.com/b'],
    });
    assert.equal(
      result.stdout,
      `batch 1: 2 URLs: 200 OK: URL submitted successfully\n2 URLs submitted to ${endpoint.url}: 1 of 1 request accepted\n`,
    );
  });

  test('--urls - reads standard input; 25,001 URLs go in 10,000 + 10,000 + 5,001', async () => {
    const urls = Array.from({ length: 25_001 }, (_, i) => `https://example.com/p/${i}`);
    const result = await submit(['--urls', '-'], `${urls.join('\n')}\n`);
    assert.equal(result.code, 0);
    assert.deepEqual(
      endpoint.requests.map((r) => r.urlList.length),
      [10_000, 10_000, 5_001],
    );
    assert.match(result.stdout, /^batch 3: 5001 URLs: 200 OK/m);
  });

  test('--key-location is sent, and limits the URLs to its folder', async () => {
    const file = urlFile('scoped.txt', 'https://example.com/shop/a\nhttps://example.com/blog/b\n');
    const location = `https://example.com/shop/${KEY}.txt`;
    const result = await submit(['--urls', file, '--key-location', location]);
    assert.equal(result.code, 1);
    assert.deepEqual(endpoint.requests[0]?.body, {
      host: 'example.com',
      key: KEY,
      keyLocation: location,
      urlList: ['https://example.com/shop/a'],
    });
    assert.match(result.stderr, /refused https:\/\/example\.com\/blog\/b: outside \/shop\//);
  });

  test('URLs of another host are refused, not sent: exit 1', async () => {
    const file = urlFile('mixed.txt', 'https://example.com/a\nhttps://other.example/b\n');
    const result = await submit(['--urls', file]);
    assert.equal(result.code, 1);
    assert.deepEqual(endpoint.requests[0]?.urlList, ['https://example.com/a']);
    assert.match(
      result.stderr,
      /refused https:\/\/other\.example\/b: not on the host example\.com/,
    );
    assert.match(result.stdout, /1 URL refused/);
  });

  const statuses: [number, number, RegExp][] = [
    [200, 0, /200 OK: URL submitted successfully/],
    [202, 0, /202 Accepted: URL received, IndexNow key validation pending/],
    [400, 1, /400 Bad request: invalid format/],
    [403, 1, /403 Forbidden: key not valid/],
    [422, 1, /422 Unprocessable Entity: URLs do not belong to the host/],
  ];
  for (const [status, code, meaning] of statuses) {
    test(`answered ${status}: exit ${code}, the meaning printed`, async () => {
      endpoint.script([status]);
      const file = urlFile('one.txt', 'https://example.com/a\n');
      const result = await submit(['--urls', file]);
      assert.equal(result.code, code);
      assert.match(result.stdout, meaning);
      assert.equal(endpoint.requests.length, 1);
    });
  }

  test('429 with Retry-After is retried after it; then accepted: exit 0', async () => {
    endpoint.script([{ status: 429, retryAfter: '0' }, 200]);
    const file = urlFile('one.txt', 'https://example.com/a\n');
    const result = await submit(['--urls', file]);
    assert.equal(result.code, 0);
    assert.equal(endpoint.requests.length, 2);
    assert.match(
      result.stdout,
      /batch 1: 1 URL: 200 OK: URL submitted successfully \(2 attempts\)/,
    );
  });

  test('429 with no retries left: exit 1, the meaning printed', async () => {
    endpoint.script([429]);
    const file = urlFile('one.txt', 'https://example.com/a\n');
    const result = await submit(['--urls', file, '--max-retries', '0']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /429 Too Many Requests: too many requests \(potential spam\)/);
  });

  test('no answer from the endpoint: exit 3', async () => {
    endpoint.script([{ status: 200, hangUp: true }]);
    const file = urlFile('one.txt', 'https://example.com/a\n');
    const result = await submit(['--urls', file, '--max-retries', '0']);
    assert.equal(result.code, 3);
    assert.match(result.stdout, /batch 1: 1 URL: no answer from the endpoint \[network error/);
  });

  test('--json: one object with the endpoint and the report', async () => {
    endpoint.script([202]);
    const file = urlFile('one.txt', 'https://example.com/a\nhttps://example.com/a\n');
    const result = await submit(['--urls', file, '--json']);
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), {
      endpoint: endpoint.url,
      batches: [
        {
          batch: 1,
          urls: 1,
          status: 202,
          meaning: 'Accepted: URL received, IndexNow key validation pending',
          attempts: 1,
          outcome: 'accepted',
          ok: true,
        },
      ],
      submitted: 1,
      refused: [],
      duplicates: 1,
      ok: true,
    });
  });

  test('--dry-run shows the batches and sends nothing', async () => {
    const file = urlFile('two.txt', 'https://example.com/a\nhttps://example.com/b\n');
    const result = await submit(['--urls', file, '--dry-run']);
    assert.equal(result.code, 0);
    assert.equal(endpoint.requests.length, 0);
    assert.equal(
      result.stdout,
      `batch 1: 2 URLs (not sent: --dry-run)\n  https://example.com/a\n  https://example.com/b\nwould submit 2 URLs in 1 request to ${endpoint.url} for example.com\n`,
    );
  });

  test('an empty list: nothing to submit, no request', async () => {
    const result = await submit(['--urls', '-'], '# nothing\n\n');
    assert.equal(result.code, 0);
    assert.equal(result.stdout, 'nothing to submit\n');
    assert.equal(endpoint.requests.length, 0);
  });
});

const MANY_URLS = `${Array.from({ length: 5000 }, (_, i) => `https://example.com/p/${i}`).join('\n')}\n`;

describe('waymark indexnow submit --diff', () => {
  let server: TestServer;
  before(async () => {
    const xml = { 'content-type': 'application/xml' };
    server = await startTestServer({
      '/old.xml': { headers: xml, body: readFileSync(data('pages-old.xml')) },
      '/new.xml': { headers: xml, body: readFileSync(data('pages-new.xml')) },
      '/gone.xml': { status: 410 },
      '/error-page.txt': { headers: { 'content-type': 'text/plain' }, body: '502 Bad Gateway\n' },
      '/full.txt': { headers: { 'content-type': 'text/plain' }, body: MANY_URLS },
      // The same list gzipped and cut in half: read as far as it goes, every URL after the
      // cut would look removed.
      '/cut-gzip.txt': {
        headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
        body: gzipSync(MANY_URLS).subarray(0, gzipSync(MANY_URLS).length >> 1),
      },
    });
  });
  after(() => server.close());

  test('submits the added, lastmod-changed and removed URLs, in that order', async () => {
    const result = await submit(['--diff', data('pages-old.xml'), data('pages-new.xml')]);
    assert.equal(result.code, 0);
    assert.deepEqual(endpoint.requests[0]?.urlList, [
      'https://example.com/blog/third',
      'https://example.com/news',
      'https://example.com/blog/first',
      'https://example.com/blog/second',
      'https://example.com/old-page',
      'https://example.com/gone',
    ]);
  });

  test('sitemaps fetched over HTTP', async () => {
    const result = await submit(['--diff', server.url('/old.xml'), server.url('/new.xml')]);
    assert.equal(result.code, 0);
    assert.equal(endpoint.requests[0]?.urlList.length, 6);
  });

  test('a sitemap read with errors: nothing sent, exit 1', async () => {
    const result = await submit(['--diff', data('pages-old.xml'), data('cut-new.xml')]);
    assert.equal(result.code, 1);
    assert.equal(endpoint.requests.length, 0);
    assert.match(result.stderr, /nothing sent: a sitemap was read with errors/);
  });

  test('an error page saved as the new sitemap: not a sitemap, nothing sent, exit 1', async () => {
    const result = await submit(['--diff', data('pages-old.xml'), server.url('/error-page.txt')]);
    assert.equal(result.code, 1);
    assert.equal(endpoint.requests.length, 0);
    assert.match(result.stderr, /error-page\.txt:1: error: no line is a URL: not a text sitemap/);
  });

  test('a gzipped sitemap cut short on the way: nothing sent', async () => {
    const result = await submit(['--diff', server.url('/full.txt'), server.url('/cut-gzip.txt')]);
    assert.notEqual(result.code, 0);
    assert.equal(endpoint.requests.length, 0);
    assert.match(result.stderr, /the body is cut short: its compressed stream ends before its end/);
  });

  test('a sitemap answering an HTTP error: nothing sent, exit 1', async () => {
    const result = await submit(['--diff', server.url('/old.xml'), server.url('/gone.xml')]);
    assert.equal(result.code, 1);
    assert.equal(endpoint.requests.length, 0);
    assert.match(result.stderr, /gone\.xml: error: HTTP 410/);
  });

  test('sitemap indexes: refused as a usage error, nothing sent', async () => {
    const result = await submit(['--diff', data('index-old.xml'), data('index-new.xml')]);
    assert.equal(result.code, 2);
    assert.equal(endpoint.requests.length, 0);
    assert.match(result.stderr, /a sitemap index lists sitemaps, not pages/);
  });

  test('no change: nothing to submit', async () => {
    const result = await submit(['--diff', data('pages-new.xml'), data('pages-new.xml')]);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, 'nothing to submit\n');
    assert.equal(endpoint.requests.length, 0);
  });
});

describe('waymark indexnow submit: usage errors send nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['a key too short', ['--key', 'short', '--urls', '-'], /key must be 8 to 128/],
    ['a key with a space', ['--key', 'abcd 12345', '--urls', '-'], /key must be 8 to 128/],
    [
      'a host with a scheme',
      ['--host', 'https://example.com', '--urls', '-'],
      /host must be a host name/,
    ],
    ['neither --urls nor --diff', [], /either --urls <file\|-> or --diff <old> <new>/],
    ['both --urls and --diff', ['--urls', '-', '--diff', 'a.xml', 'b.xml'], /either --urls/],
    ['--diff with one sitemap', ['--diff', 'a.xml'], /--diff takes two sitemaps/],
    ['an extra argument with --urls', ['--urls', '-', 'extra'], /unexpected argument "extra"/],
    [
      'a bad --max-retries',
      ['--urls', '-', '--max-retries', 'many'],
      /--max-retries takes a whole number/,
    ],
    [
      'a key location on another host',
      ['--urls', '-', '--key-location', `https://cdn.example.net/${KEY}.txt`],
      /keyLocation must be on the host example\.com/,
    ],
  ];
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const result = await submit(args, 'https://example.com/a\n');
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
      assert.equal(endpoint.requests.length, 0);
    });
  }

  test('missing --key and --host', async () => {
    const noKey = await runCliForTest([
      'indexnow',
      'submit',
      '--host',
      'example.com',
      '--urls',
      '-',
    ]);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /missing --key/);
    const noHost = await runCliForTest(['indexnow', 'submit', '--key', KEY, '--urls', '-']);
    assert.equal(noHost.code, 2);
    assert.match(noHost.stderr, /missing --host/);
  });

  test('waymark indexnow lists submit', async () => {
    const result = await runCliForTest(['indexnow', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /submit {2}submit changed URLs/);
  });
});
