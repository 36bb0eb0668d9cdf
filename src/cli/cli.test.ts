import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const robotsFile = join(dir, 'robots.txt');
writeFileSync(
  robotsFile,
  'User-agent: *\nDisallow: /private\nAllow: /private/press\n\nUser-agent: Googlebot\nDisalow: /nogoogle\nFoo bar baz\n',
);
const urlsFile = join(dir, 'urls.txt');
writeFileSync(
  urlsFile,
  '# checked nightly\nhttps://example.com/\n\nhttps://example.com/private/x\n',
);

describe('waymark (top level)', () => {
  test('--version prints the version', async () => {
    assert.deepEqual(await runCliForTest(['--version']), {
      code: 0,
      stdout: '0.0.0-test\n',
      stderr: '',
    });
  });
  for (const args of [
    [],
    ['--help'],
    ['robots'],
    ['robots', '--help'],
    ['robots', 'check', '--help'],
    ['robots', 'lint', '-h'],
  ]) {
    test(`${['waymark', ...args].join(' ')} prints help`, async () => {
      const result = await runCliForTest(args);
      assert.equal(result.code, 0);
      assert.match(result.stdout, /Usage: waymark/);
      assert.equal(result.stderr, '');
    });
  }
  const usageErrors: [string[], RegExp][] = [
    [['frob'], /^waymark: unknown command "frob"/],
    [['robots', 'frob'], /^waymark robots: unknown command "frob"/],
    [['robots', 'check', robotsFile, '/'], /missing --agent/],
    [['robots', 'check', robotsFile, '--agent', 'bot'], /no URLs to check/],
    [['robots', 'check', '--agent', 'bot'], /missing the robots.txt file/],
    [
      ['robots', 'check', '-', '--agent', 'bot', '--urls', '-'],
      /only one of the robots.txt and --urls can be standard input/,
    ],
    [['robots', 'check', robotsFile, '--bogus'], /unknown option '--bogus'/],
  ];
  for (const [args, message] of usageErrors) {
    test(`${args.join(' ')} is a usage error`, async () => {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split('\n').length, 1, 'one line, no stack trace');
    });
  }
  test('a file that cannot be read is one line, exit 3 (the job could not be done)', async () => {
    const result = await runCliForTest(['robots', 'lint', join(dir, 'missing.txt')]);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^waymark: cannot read .*missing\.txt: no such file\n$/);
    assert.equal(result.code, 3);
  });
  test('a directory given as a file is said so in words, exit 3', async () => {
    const result = await runCliForTest(['robots', 'lint', dir]);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^waymark: cannot read .*: a directory, not a file\n$/);
    assert.equal(result.code, 3);
  });
  test('--debug adds the stack trace', async () => {
    const result = await runCliForTest(['robots', 'lint', join(dir, 'missing.txt'), '--debug']);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /\n\s+at /);
  });
});

describe('waymark robots check', () => {
  test('prints a table with the deciding line, exit 1 when a URL is disallowed', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      robotsFile,
      '--agent',
      'bot',
      'https://example.com/private/x',
      'https://example.com/private/press/1',
      '/public',
    ]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      [
        'URL                                  VERDICT     LINE  RULE',
        'https://example.com/private/x        disallowed  2     Disallow: /private',
        'https://example.com/private/press/1  allowed     3     Allow: /private/press',
        '/public                              allowed     -     (no matching rule)',
        '',
      ].join('\n'),
    );
  });

  test('exit 0 when every URL is allowed; several agents get an AGENT column', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      robotsFile,
      '-a',
      'bot',
      '-a',
      'Googlebot',
      '/public',
    ]);
    assert.equal(result.code, 0);
    assert.equal(
      result.stdout,
      [
        'AGENT      URL      VERDICT  LINE  RULE',
        'bot        /public  allowed  -     (no matching rule)',
        'Googlebot  /public  allowed  -     (no matching rule)',
        '',
      ].join('\n'),
    );
  });

  test('--json prints one object a line; --urls reads URLs from a file; - reads stdin', async () => {
    const body = readFileSync(robotsFile, 'utf8');
    const result = await runCliForTest(
      ['robots', 'check', '-', '--agent', 'bot', '--urls', urlsFile, '--json'],
      body,
    );
    assert.equal(result.code, 1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(lines, [
      {
        url: 'https://example.com/',
        userAgent: 'bot',
        allowed: true,
        line: null,
        directive: null,
        pattern: null,
      },
      {
        url: 'https://example.com/private/x',
        userAgent: 'bot',
        allowed: false,
        line: 2,
        directive: 'disallow',
        pattern: '/private',
      },
    ]);
  });

  test('URLs typed with raw characters are percent-encoded first', async () => {
    const file = join(dir, 'cafe.txt');
    writeFileSync(file, 'User-agent: *\nDisallow: /café\n');
    const result = await runCliForTest([
      'robots',
      'check',
      file,
      '-a',
      'bot',
      '--json',
      'https://example.com/café',
    ]);
    assert.equal(JSON.parse(result.stdout).url, 'https://example.com/caf%C3%A9');
    assert.equal(result.code, 1);
  });
});

describe('waymark robots lint', () => {
  test('prints file:line: severity: message and exits 1 on errors', async () => {
    const result = await runCliForTest(['robots', 'lint', robotsFile]);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${robotsFile}:6: warning: "Disalow" is a misspelling of "Disallow"; Google accepts it, other crawlers may not [misspelled-directive]`,
      `${robotsFile}:7: error: line is not a "key: value" directive; ignored [invalid-line]`,
    ]);
  });

  test('exit 0 with warnings only; --json; stdin as <stdin>', async () => {
    const result = await runCliForTest(
      ['robots', 'lint', '-', '--json'],
      'User-agent: *\nNoindex: /x\nDisallow:\n',
    );
    assert.equal(result.code, 0);
    assert.equal(JSON.parse(result.stdout).file, '<stdin>');
    assert.equal(JSON.parse(result.stdout).code, 'unsupported-directive');
  });
});

describe('the waymark executable', () => {
  const node = process.execPath;
  const bins = {
    source: fileURLToPath(new URL('./bin.ts', import.meta.url)),
    // Built by `npm ci` (prepare) and by `npm test` before the tests run.
    built: fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url)),
  };
  for (const [name, bin] of Object.entries(bins)) {
    test(`${name}: runs as a process with exit codes and output`, () => {
      const checked = spawnSync(
        node,
        [bin, 'robots', 'check', robotsFile, '-a', 'bot', '/private'],
        { encoding: 'utf8' },
      );
      assert.equal(checked.status, 1);
      assert.match(checked.stdout, /disallowed {2}2 {5}Disallow: \/private/);
      const version = spawnSync(node, [bin, '--version'], { encoding: 'utf8' });
      assert.equal(version.status, 0);
      assert.match(version.stdout, /^\d+\.\d+\.\d+/);
      const usage = spawnSync(node, [bin, 'nope'], { encoding: 'utf8' });
      assert.equal(usage.status, 2);
      assert.equal(usage.stderr.trim().split('\n').length, 1);
    });
  }
});

test('robots check: an argument that is not a URL or a /path gets a note naming the path checked', async () => {
  const result = await runCliForTest([
    'robots',
    'check',
    robotsFile,
    '-a',
    'bot',
    'private',
    'example.com/private',
    '/private',
    'https://example.com/private',
  ]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    [
      'waymark robots check: note: "private" is neither an http(s) URL nor a path starting with "/": the path checked is "/"',
      'waymark robots check: note: "example.com/private" is neither an http(s) URL nor a path starting with "/": the path checked is "/private"',
      '',
    ].join('\n'),
  );
});

describe('long lists (no one call is given them all at once)', () => {
  // Spread into one call (push(...list), Math.max(...widths)), some 120,000 values overflow
  // V8's stack: these lists are past that.
  const COUNT = 200_000;
  const urls = Array.from({ length: COUNT }, (_, i) =>
    i % 2 === 0 ? `https://example.com/p/${i}` : `https://example.com/private/${i}`,
  );

  test(`robots check --urls with ${COUNT} URLs: a row each`, async () => {
    const list = join(dir, 'many-urls.txt');
    writeFileSync(list, `${urls.join('\n')}\n`);
    const result = await runCliForTest([
      'robots',
      'check',
      robotsFile,
      '-a',
      'bot',
      '--urls',
      list,
    ]);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 1, 'some are disallowed');
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, COUNT + 1, 'a header and a row per URL');
    assert.match(
      lines.at(-1) ?? '',
      /^https:\/\/example\.com\/private\/199999 +disallowed +2 +Disallow: \/private$/,
    );
  });

  test(`robots check with ${COUNT} URL arguments after --`, async () => {
    const result = await runCliForTest(['robots', 'check', robotsFile, '-a', 'bot', '--', ...urls]);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 1);
    assert.equal(result.stdout.trimEnd().split('\n').length, COUNT + 1);
  });
});
