import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KNOWN_CRAWLERS } from '../robots/agents/known-crawlers.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-agents-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const testRegistry = fileURLToPath(
  new URL('../robots/agents/testdata/test-crawlers.json', import.meta.url),
);
const extension = join(dir, 'mine.json');
writeFileSync(
  extension,
  JSON.stringify({
    checked: '2026-10-01',
    crawlers: [
      { token: 'gptbot', operator: 'OpenAI (mine)', purpose: 'other', honoursRobotsTxt: true },
      { token: 'ExampleBot', operator: 'Example', purpose: 'ai-training', honoursRobotsTxt: false },
    ],
  }),
);

function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/ {2,}/));
}

describe('waymark robots agents', () => {
  test('lists the bundled registry as a table; the count and date go to stderr', async () => {
    const result = await runCliForTest(['robots', 'agents']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^TOKEN +OPERATOR +PURPOSE +ROBOTS\.TXT +DOCUMENTATION\n/);
    assert.equal(rows(result.stdout).length, KNOWN_CRAWLERS.crawlers.length);
    assert.match(result.stdout, /\nGPTBot +OpenAI +ai-training +yes +https:\/\//);
    assert.match(
      result.stdout,
      /\nGoogle-Extended +Google +ai-training +yes \(token only\) +https:/,
    );
    assert.equal(
      result.stderr,
      `${KNOWN_CRAWLERS.crawlers.length} crawlers (registry checked ${KNOWN_CRAWLERS.checked})\n`,
    );
  });

  test('--purpose filters, repeated or comma-separated', async () => {
    const result = await runCliForTest([
      'robots',
      'agents',
      '--registry-only',
      '--registry',
      testRegistry,
      '--purpose',
      'ai-training,ai-search',
      '--purpose',
      'archive',
    ]);
    assert.equal(result.code, 0);
    assert.deepEqual(
      rows(result.stdout).map(([token, , purpose, robots]) => [token, purpose, robots]),
      [
        ['Google-Extended', 'ai-training', 'yes (token only)'],
        ['GPTBot', 'ai-training', 'yes'],
        ['ClaudeBot', 'ai-training', 'yes'],
        ['CCBot', 'ai-training', 'yes'],
        ['OAI-SearchBot', 'ai-search', 'yes'],
        ['PerplexityBot', 'ai-search', 'yes'],
        ['ia_archiver', 'archive', '?'],
      ],
    );
  });

  test('--json prints the registry in its file format', async () => {
    const result = await runCliForTest(['robots', 'agents', '--json', '--purpose', 'search']);
    assert.equal(result.code, 0);
    const json = JSON.parse(result.stdout) as typeof KNOWN_CRAWLERS;
    assert.equal(json.checked, KNOWN_CRAWLERS.checked);
    assert.deepEqual(
      json.crawlers,
      KNOWN_CRAWLERS.crawlers.filter((c) => c.purpose === 'search'),
    );
    assert.equal(result.stderr, '');
  });

  test('--registry extends the bundled registry: the same token replaces, new ones are added', async () => {
    const result = await runCliForTest(['robots', 'agents', '--registry', extension, '--json']);
    assert.equal(result.code, 0);
    const { crawlers, checked } = JSON.parse(result.stdout) as typeof KNOWN_CRAWLERS;
    assert.equal(crawlers.length, KNOWN_CRAWLERS.crawlers.length + 1);
    assert.equal(
      crawlers.find((c) => c.token.toLowerCase() === 'gptbot')?.operator,
      'OpenAI (mine)',
    );
    assert.equal(crawlers.at(-1)?.token, 'ExampleBot');
    assert.equal(checked, '2026-10-01', 'the earlier date');
    assert.match(
      result.stderr,
      /mine\.json:1: warning: crawlers\[0\] \("gptbot"\): "description" is missing/,
    );
  });

  test('--registry-only uses only the given files', async () => {
    const result = await runCliForTest([
      'robots',
      'agents',
      '--registry-only',
      '--registry',
      extension,
    ]);
    assert.equal(result.code, 0);
    assert.deepEqual(
      rows(result.stdout).map(([token, , , robots]) => [token, robots]),
      [
        ['gptbot', 'yes'],
        ['ExampleBot', 'no'],
      ],
    );
  });

  test('a registry file with errors stops the command with its diagnostics (exit 2)', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(
      broken,
      '{"checked": "2026-11-24", "crawlers": [\n  {"token": "X-Bot", "operator": "X", "purpose": "training"}\n]}',
    );
    const result = await runCliForTest(['robots', 'agents', '--registry', broken]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /broken\.json:2: error: crawlers\[0\] \("X-Bot"\): "purpose" must be one of .* \[invalid-field\]/,
    );
    assert.match(
      result.stderr,
      /waymark robots agents: the crawler registry .*broken\.json has errors/,
    );
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{\n  "crawlers": [,]\n}');
    const second = await runCliForTest(['robots', 'agents', '--registry', notJson]);
    assert.equal(second.code, 2);
    assert.match(second.stderr, /not\.json:2: error: not valid JSON/);
  });

  const usage: [string[], RegExp][] = [
    [['--purpose', 'training'], /unknown purpose "training" \(use search, ai-training/],
    [['--registry-only'], /--registry-only needs at least one --registry <file>/],
    [['extra'], /unexpected argument "extra"/],
  ];
  for (const [args, message] of usage) {
    test(`${args.join(' ')} is a usage error`, async () => {
      const result = await runCliForTest(['robots', 'agents', ...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
    });
  }

  test('a registry file that cannot be read: exit 3', async () => {
    const result = await runCliForTest(['robots', 'agents', '--registry', join(dir, 'none.json')]);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /cannot read .*none\.json: no such file/);
  });

  test('--help lists every option', async () => {
    const result = await runCliForTest(['robots', 'agents', '--help']);
    assert.equal(result.code, 0);
    for (const option of ['--purpose', '--registry', '--registry-only', '--json']) {
      assert.ok(result.stdout.includes(option), option);
    }
  });
});
