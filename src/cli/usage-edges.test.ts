// Command lines that used to get a confusing answer, or a silent wrong one: negative
// numbers ("argument is ambiguous"), a whole User-Agent given as --agent, and URLs that
// robots.txt does not govern.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-usage-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n');
const sitemapFile = join(dir, 'sitemap.txt');
writeFileSync(sitemapFile, 'https://example.com/\n');

/** A refused command line: exit 2, nothing on stdout, one line on stderr matching `message`. */
async function assertUsageError(args: string[], message: RegExp): Promise<void> {
  const result = await runCliForTest(args);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /ambiguous/);
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  assert.equal(result.code, 2);
}

describe('a negative number is the option value, and its check names both', () => {
  const cases: [string[], RegExp][] = [
    [['crawl', 'http://127.0.0.1:9/', '--max-pages', '-1'], /^waymark crawl: --max-pages .*"-1"/],
    [['crawl', 'http://127.0.0.1:9/', '--max-depth', '-3'], /^waymark crawl: --max-depth .*"-3"/],
    [['crawl', 'http://127.0.0.1:9/', '--timeout', '-5s'], /^waymark crawl: --timeout .*"-5s"/],
    [
      ['crawl', 'http://127.0.0.1:9/', '--concurrency', '-0.5'],
      /^waymark crawl: --concurrency .*"-0\.5"/,
    ],
    [
      ['sitemap', 'write', '--base', 'https://e.com/', '--out', dir, '--max-urls', '-1'],
      /^waymark sitemap write: --max-urls .*"-1"/,
    ],
    [
      ['sitemap', 'parse', sitemapFile, '--max-bytes', '-1'],
      /^waymark sitemap parse: --max-bytes .*"-1"/,
    ],
    [
      ['sitemap', 'validate', '--max-bytes', '-.5', sitemapFile],
      /^waymark sitemap validate: --max-bytes .*"-\.5"/,
    ],
  ];
  for (const [args, message] of cases) {
    test(args.slice(0, 2).concat(args.slice(-2)).join(' '), () => assertUsageError(args, message));
  }

  test('another word starting with - after an option that needs a value says how to pass one', () =>
    assertUsageError(
      ['sitemap', 'parse', sitemapFile, '--user-agent', '--json'],
      /^waymark sitemap parse: --user-agent needs a value, and --json is an option \(for a value that starts with "-", write --user-agent=--json\)/,
    ));

  test('a short option takes a negative value too; a lone - is still a value', async () => {
    const result = await runCliForTest(
      ['robots', 'check', '-', '-a', 'Googlebot', '/g'],
      'User-agent: *\nDisallow: /g\n',
    );
    assert.equal(result.code, 1);
    // `-a -1` was "argument is ambiguous"; now -1 is the agent, matched as its token "-".
    const negative = await runCliForTest(['robots', 'check', robotsFile, '-a', '-1', '/g']);
    assert.match(negative.stderr, /--agent "-1" is matched as its product token "-"/);
    assert.equal(negative.code, 0);
  });

  test('after --, a negative number is a positional, as parseArgs has it', async () => {
    const result = await runCliForTest(['robots', 'check', robotsFile, '-a', 'bot', '--', '-1']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^-1 +allowed/m);
  });
});

describe('waymark robots check --agent', () => {
  test('a name with a version is matched as its product token, and stderr says so', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      robotsFile,
      '--agent',
      'Googlebot/2.1',
      '--json',
      '/g',
    ]);
    assert.equal(
      result.stderr,
      'waymark robots check: note: --agent "Googlebot/2.1" is matched as its product token "Googlebot" (robots.txt groups name crawlers by that alone)\n',
    );
    // Before, "Googlebot/2.1" fell through to the * group and /g was allowed.
    assert.deepEqual(JSON.parse(result.stdout), {
      url: '/g',
      userAgent: 'Googlebot',
      allowed: false,
      line: 2,
      directive: 'disallow',
      pattern: '/g',
    });
    assert.equal(result.code, 1);
  });

  test('a product token as given, and *, get no note', async () => {
    for (const agent of ['Googlebot', 'googlebot', '*']) {
      const result = await runCliForTest(['robots', 'check', robotsFile, '-a', agent, '/all']);
      assert.equal(result.stderr, '', agent);
      assert.equal(result.code, agent === '*' ? 1 : 0, agent);
    }
  });

  test('an agent with no product token is refused', () =>
    assertUsageError(
      ['robots', 'check', robotsFile, '-a', '/2.1', '/g'],
      /^waymark robots check: --agent "\/2\.1" has no product token \(letters, "-" and "_"\), so it matches no group: name the crawler, e\.g\. --agent Googlebot/,
    ));
});

describe('waymark robots check URLs', () => {
  for (const url of ['ftp://example.com/g', 'file:///etc/g', 'mailto:someone@example.com']) {
    test(`${url} is refused: robots.txt governs http(s) only`, () =>
      assertUsageError(
        ['robots', 'check', robotsFile, '-a', 'Googlebot', 'https://example.com/g', url],
        new RegExp(
          `^waymark robots check: "${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is a [a-z]+: URL; robots.txt applies to http and https URLs only`,
        ),
      ));
  }

  test('http, https and paths are checked as before', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      robotsFile,
      '-a',
      'Googlebot',
      'http://example.com/g',
      'HTTPS://example.com/g',
      '/g',
    ]);
    assert.equal(result.code, 1);
    assert.deepEqual(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/ {2,}/).slice(0, 2)),
      [
        ['URL', 'VERDICT'],
        ['http://example.com/g', 'disallowed'],
        ['https://example.com/g', 'disallowed'],
        ['/g', 'disallowed'],
      ],
    );
  });
});
