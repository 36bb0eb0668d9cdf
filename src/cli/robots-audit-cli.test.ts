import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import type { RobotsAudit } from '../robots/agents/audit-robots.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-audit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const registry = fileURLToPath(
  new URL('../robots/agents/testdata/test-crawlers.json', import.meta.url),
);
const REGISTRY = ['--registry-only', '--registry', registry];

const MISTAKES = [
  'User-agent: GPTBot', // 1
  'User-agent: Bingbot',
  'Disallow: /',
  '',
  'User-agent: ChatGPT User', // 5
  'Disallow: /',
  '',
  'User-agent: *', // 8
  'Disallow: /admin/',
  '',
].join('\n');
const CLEAN =
  'User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n';
const mistakesFile = join(dir, 'mistakes.txt');
writeFileSync(mistakesFile, MISTAKES);
const cleanFile = join(dir, 'clean.txt');
writeFileSync(cleanFile, CLEAN);

describe('waymark robots audit: files', () => {
  test('text: per purpose a verdict and a row per crawler with the deciding lines; findings with fixes; exit 1 on errors', async () => {
    const result = await runCliForTest([
      'robots',
      'audit',
      mistakesFile,
      '--path',
      '/admin/x',
      ...REGISTRY,
    ]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, '');
    const text = result.stdout;
    assert.ok(
      text.startsWith(`${mistakesFile}: robots.txt (crawler registry checked 2026-11-20)\n`),
    );
    assert.ok(
      text.includes(
        [
          'search: mixed (0 allowed, 1 blocked, 2 partly)',
          '  TOKEN            GROUP        /                 /admin/x',
          '  Googlebot        *, line 8    allowed           blocked (line 9)',
          '  Googlebot-Image  *, line 8    allowed           blocked (line 9)',
          '  Bingbot          own, line 1  blocked (line 3)  blocked (line 3)',
        ].join('\n'),
      ),
      text,
    );
    assert.match(text, /\nai-training: mixed \(0 allowed, 1 blocked, 3 partly\)\n/);
    assert.match(
      text,
      /Findings \(2 errors\):\n.*mistakes\.txt:3: error: "Disallow: \/" blocks the search crawler Bingbot .* \[search-blocked-by-ai-rule\]\n {2}fix: give Bingbot a group of its own/,
    );
    assert.match(
      text,
      /mistakes\.txt:5: error: User-agent "ChatGPT User" .* \[agent-misread\]\n {2}fix: write "User-agent: ChatGPT-User"\n/,
    );
  });

  test('exit 0 without error findings; a purpose whose crawlers are all blocked says so', async () => {
    const result = await runCliForTest(['robots', 'audit', cleanFile, ...REGISTRY]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /\nai-training: mixed \(2 allowed, 2 blocked\)\n/);
    assert.match(result.stdout, /\nsearch: all allowed \(3 allowed, 0 blocked\)\n/);
    assert.match(result.stdout, /\nNo findings\.\n$/);
  });

  test('--json gives the whole audit as one object', async () => {
    const result = await runCliForTest(
      ['robots', 'audit', '-', '--json', '-p', '/admin/', ...REGISTRY],
      MISTAKES,
    );
    assert.equal(result.code, 1);
    const json = JSON.parse(result.stdout) as RobotsAudit & { file: string };
    assert.equal(json.file, '<stdin>');
    assert.equal(json.source, 'file');
    assert.deepEqual(json.paths, ['/', '/admin/']);
    assert.deepEqual(
      json.findings.map((f) => [f.code, f.line]),
      [
        ['search-blocked-by-ai-rule', 3],
        ['agent-misread', 5],
      ],
    );
    const bing = json.purposes[0]?.crawlers.find((c) => c.crawler.token === 'Bingbot');
    assert.equal(bing?.decisions[0]?.rule?.line, 3);
    assert.equal(bing?.crawler.operator, 'Microsoft');
  });

  test('with the bundled registry by default', async () => {
    const result = await runCliForTest(['robots', 'audit', cleanFile, '--json']);
    const json = JSON.parse(result.stdout) as RobotsAudit;
    assert.ok(json.purposes.flatMap((p) => p.crawlers).length >= 60);
  });

  const usage: [string[], RegExp][] = [
    [[], /missing the robots.txt file or URL/],
    [[cleanFile, cleanFile], /one robots.txt at a time/],
    [[cleanFile, '--path', 'admin'], /--path "admin" is not a path/],
    [[cleanFile, '--path', 'ftp://x/'], /is not a path/],
  ];
  for (const [args, message] of usage) {
    test(`${args.length === 0 ? '(nothing)' : args.join(' ')} is a usage error`, async () => {
      const result = await runCliForTest(['robots', 'audit', ...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
    });
  }

  test('a file that cannot be read: exit 3', async () => {
    const result = await runCliForTest(['robots', 'audit', join(dir, 'missing.txt')]);
    assert.equal(result.code, 3);
  });
});

describe('waymark robots audit: URLs (a server on 127.0.0.1)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: MISTAKES },
      '/down/robots.txt': { status: 503 },
      '/gone/robots.txt': { status: 404 },
      '/loop/robots.txt': { status: 301, headers: { location: '/loop/robots.txt?again' } },
      '/far/robots.txt': (request, response) => {
        const hops = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('n') ?? 0);
        response.writeHead(302, { location: `/far/robots.txt?n=${hops + 1}` }).end();
      },
    });
  });
  after(() => server.close());

  test('a site URL reads its /robots.txt, with waymark as the user agent', async () => {
    const result = await runCliForTest(['robots', 'audit', server.url('/'), '--json', ...REGISTRY]);
    assert.equal(result.code, 1);
    const json = JSON.parse(result.stdout) as RobotsAudit & { file: string };
    assert.equal(json.file, server.url('/robots.txt'));
    assert.equal(json.findings[0]?.code, 'search-blocked-by-ai-rule');
    const request = server.requests.at(-1);
    assert.equal(request?.path, '/robots.txt');
    assert.equal(request?.headers['user-agent'], 'waymark/0.0.0-test');
  });

  test('5xx: unreachable, everything disallowed, an error finding (exit 1)', async () => {
    const result = await runCliForTest([
      'robots',
      'audit',
      server.url('/down/robots.txt'),
      ...REGISTRY,
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /robots\.txt unreachable: everything is disallowed/);
    assert.match(result.stdout, /\nsearch: all blocked \(0 allowed, 3 blocked\)\n/);
    assert.match(result.stdout, /\[robots-unreachable\]/);
  });

  test('4xx: no robots.txt, everything allowed (exit 0)', async () => {
    const result = await runCliForTest([
      'robots',
      'audit',
      server.url('/gone/robots.txt'),
      '--json',
      ...REGISTRY,
    ]);
    assert.equal(result.code, 0);
    const json = JSON.parse(result.stdout) as RobotsAudit;
    assert.equal(json.source, 'unavailable');
    assert.ok(json.purposes.every((p) => p.verdict === 'all-allowed'));
  });

  test('more than five redirects: unavailable, as RFC 9309 allows', async () => {
    const before = server.requests.length;
    const result = await runCliForTest([
      'robots',
      'audit',
      server.url('/far/robots.txt'),
      '--json',
      ...REGISTRY,
    ]);
    assert.equal(result.code, 0);
    assert.equal((JSON.parse(result.stdout) as RobotsAudit).source, 'unavailable');
    assert.equal(server.requests.length - before, 6, 'the first request and five redirects');
  });

  test('the text names why there is no robots.txt: a 4xx, too many redirects', async () => {
    const gone = await runCliForTest([
      'robots',
      'audit',
      server.url('/gone/robots.txt'),
      ...REGISTRY,
    ]);
    assert.match(
      gone.stdout,
      /: no robots\.txt \(4xx, read as unavailable\): everything is allowed \(/,
    );
    const far = await runCliForTest([
      'robots',
      'audit',
      server.url('/far/robots.txt'),
      ...REGISTRY,
    ]);
    assert.match(
      far.stdout,
      /: no robots\.txt \(too many redirects, read as unavailable\): everything is allowed \(/,
    );
  });

  test('no connection: exit 3, one line', async () => {
    const gone = await startTestServer({});
    const url = gone.url('/robots.txt');
    await gone.close();
    const result = await runCliForTest(['robots', 'audit', url, ...REGISTRY]);
    assert.equal(result.code, 3);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });
});

describe('waymark robots audit --help', () => {
  test('lists every option', async () => {
    const result = await runCliForTest(['robots', 'audit', '--help']);
    assert.equal(result.code, 0);
    for (const option of ['--path', '--registry', '--registry-only', '--json'])
      assert.ok(result.stdout.includes(option), option);
  });
});
