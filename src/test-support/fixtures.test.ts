// Tests that need outside conformance data skip, with one line saying what is missing and how to
// get it, where the data is missing; WAYMARK_REQUIRE_FIXTURES=1 turns that into a failure. Each
// case runs a small test file through Node's real test runner, in a process of its own.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';

const dir = mkdtempSync(join(tmpdir(), 'waymark-fixtures-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES = new URL('./fixtures.ts', import.meta.url).href;
const SUITE = join(dir, 'needs-data.test.mjs');
writeFileSync(
  SUITE,
  `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsFixtures, readFixtureJson, readFixtureJsonOr } from ${JSON.stringify(FIXTURES)};

const { rows } = readFixtureJsonOr('robots/cases.json', { rows: [] });
describe('first suite', needsFixtures('robots/cases.json'), () => {
  test('reads the data', () => assert.equal(readFixtureJson('robots/cases.json').rows.length, 2));
});
describe('second suite', needsFixtures('robots/cases.json'), () => {
  for (const row of rows) test(row, () => {});
});
test('needs nothing', () => assert.ok(true));
`,
);

const empty = join(dir, 'empty');
const present = join(dir, 'present');
mkdirSync(empty);
mkdirSync(join(present, 'robots'), { recursive: true });
writeFileSync(join(present, 'robots/cases.json'), JSON.stringify({ rows: ['a', 'b'] }));

interface Run {
  readonly code: number;
  readonly output: string;
  /** The runner's counts: `{ pass, fail, skipped, ... }`. */
  readonly counts: Record<string, number>;
}

async function runSuite(env: Record<string, string>): Promise<Run> {
  // Not this run's settings, and not its test-runner context (the child is a run of its own).
  const { WAYMARK_FIXTURES, WAYMARK_REQUIRE_FIXTURES, NODE_TEST_CONTEXT, ...inherited } =
    process.env;
  const args = ['--test', '--test-reporter=spec', SUITE];
  const { code, output } = await promisify(execFile)(process.execPath, args, {
    env: { ...inherited, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  const counts: Record<string, number> = {};
  for (const [, name = '', value = ''] of output.matchAll(/^ℹ (\w+) (\d+)$/gm)) {
    counts[name] = Number(value);
  }
  return { code, output, counts };
}

describe('outside conformance data', () => {
  test('missing: the tests that need it skip, and one line says what and how', async () => {
    const run = await runSuite({ WAYMARK_FIXTURES: empty });
    assert.equal(run.code, 0, run.output);
    assert.equal(run.counts['fail'], 0, run.output);
    assert.equal(run.counts['pass'], 1, run.output);
    const skips = run.output.split('\n').filter((line) => line.includes('# needs outside'));
    assert.equal(skips.length, 2, run.output);
    const explained = skips.filter((line) => line.includes('set WAYMARK_FIXTURES'));
    assert.equal(explained.length, 1, run.output);
    for (const line of skips) assert.ok(line.includes(join(empty, 'robots/cases.json')), line);
  });

  test('missing with WAYMARK_REQUIRE_FIXTURES=1: the tests that need it fail', async () => {
    const run = await runSuite({ WAYMARK_FIXTURES: empty, WAYMARK_REQUIRE_FIXTURES: '1' });
    assert.equal(run.code, 1, run.output);
    assert.equal(run.counts['skipped'], 0, run.output);
    assert.ok((run.counts['fail'] ?? 0) >= 1, run.output);
    assert.match(run.output, /robots\/cases\.json, required by WAYMARK_REQUIRE_FIXTURES=1/);
  });

  test('present: everything runs, with or without the variable', async () => {
    for (const env of [{}, { WAYMARK_REQUIRE_FIXTURES: '1' }]) {
      const run = await runSuite({ WAYMARK_FIXTURES: present, ...env });
      assert.equal(run.code, 0, run.output);
      assert.equal(run.counts['skipped'], 0, run.output);
      assert.equal(run.counts['pass'], 4, run.output);
    }
  });
});
