// `waymark robots check --usage` and `waymark robots lint` on usage preference lines, on
// real files in a temp dir (removed after).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-usage-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const exampleFile = join(dir, 'example.txt');
writeFileSync(
  exampleFile,
  'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes, ai-train=no\n',
);
const cloudflare = JSON.parse(
  readFileSync(
    new URL('../robots/testdata/usage/cloudflare-managed-robots-txt.json', import.meta.url),
    'utf8',
  ),
) as { robotstxt: string };
const cloudflareFile = join(dir, 'cloudflare.txt');
writeFileSync(cloudflareFile, cloudflare.robotstxt);

describe('waymark robots check --usage', () => {
  test('adds a USAGE column with the lines that apply, or why none does', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      exampleFile,
      '--agent',
      'bot',
      '--usage',
      '/test',
      '/never/test',
      '/ai-ok/test',
    ]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      [
        'URL          VERDICT     LINE  RULE               USAGE',
        '/test        allowed     2     Allow: /           Content-Usage: train-ai=n (line 4); Content-Signal: search=yes, ai-train=no (line 6)',
        '/never/test  disallowed  3     Disallow: /never/  (none: disallowed)',
        '/ai-ok/test  allowed     2     Allow: /           Content-Usage: /ai-ok/ train-ai=y (line 5); Content-Signal: search=yes, ai-train=no (line 6)',
        '',
      ].join('\n'),
    );
  });

  test('--json carries usage: {reason, lines, effective}', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      cloudflareFile,
      '-a',
      'SomeBot',
      '-a',
      'GPTBot',
      '--usage',
      '--json',
      'https://www.crawlstop.com/',
    ]);
    const [some, gpt] = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(some.usage, {
      reason: 'preferences',
      lines: [
        {
          field: 'content-signal',
          path: null,
          value: 'search=yes, ai-train=no, use=reference',
          line: 29,
        },
      ],
      effective: {
        'content-usage': {},
        'content-signal': { search: 'yes', 'ai-train': 'no', use: 'reference' },
      },
    });
    assert.equal(gpt.allowed, false);
    assert.equal(gpt.usage.reason, 'disallowed');
    assert.equal(result.code, 1);
  });

  test('without --usage the output is unchanged', async () => {
    const result = await runCliForTest([
      'robots',
      'check',
      exampleFile,
      '-a',
      'bot',
      '--json',
      '/x',
    ]);
    assert.equal(JSON.parse(result.stdout).usage, undefined);
  });
});

describe('waymark robots lint on usage lines', () => {
  test("Cloudflare's managed robots.txt has notes only: exit 0", async () => {
    const result = await runCliForTest(['robots', 'lint', cloudflareFile]);
    assert.equal(result.code, 0);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${cloudflareFile}:29: info: Content-Signal states usage preferences (Cloudflare's Content Signals Policy, an extension of RFC 9309); Google ignores it [usage-extension]`,
    ]);
  });

  test('a malformed statement is an error (exit 1); unknown terms and Crawl-delay are notes', async () => {
    const result = await runCliForTest(
      ['robots', 'lint', '-', '--json'],
      'User-agent: *\nCrawl-delay: 5\nContent-Usage: Train-AI=n\nContent-Usage: train-ai=n, foo=y\nDisallow:\n',
    );
    assert.equal(result.code, 1);
    assert.deepEqual(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => {
          const d = JSON.parse(line);
          return [d.line, d.severity, d.code];
        }),
      [
        [2, 'info', 'unsupported-directive'],
        [3, 'info', 'usage-extension'],
        [3, 'error', 'invalid-usage-statement'],
        [4, 'info', 'usage-extension'],
        [4, 'info', 'unknown-usage-term'],
      ],
    );
  });
});
