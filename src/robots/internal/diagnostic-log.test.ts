// Differential test: diagnostics recorded as facts at parse and made on first read of
// `diagnostics` (internal/diagnostic-log.ts) against the builder that made them eagerly
// (test-support/policy-builder-eager.ts), over the conformance corpus and suites in
// ../shared/fixtures and seeded hostile files: the same diagnostics, the same JSON of the
// whole result, the same keys, and the same array on every read.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixturePath, needsFixtures } from '../../test-support/fixtures.ts';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { parseRobots } from '../parse-robots.ts';
import type { RobotsTxt } from '../robots-txt.ts';
import { parseRobotsEager } from '../test-support/policy-builder-eager.ts';
import { randomBytes, randomText } from '../test-support/random-robots.ts';
import type { ParseRobotsOptions } from '../types.ts';

const URL_OPTIONS: readonly ParseRobotsOptions[] = [
  { url: 'https://example.com/robots.txt', maxBytes: Number.POSITIVE_INFINITY },
  { url: 'http://EXAMPLE.com:8080/a/robots.txt' },
  { url: 'not a url' },
  { maxBytes: 64 },
  {},
];

function assertSameAsEager(input: string | Uint8Array, options: ParseRobotsOptions, where: string) {
  const eager = parseRobotsEager(input, options);
  // Read in different orders: checks first, JSON first (its getter does the first read), or
  // `diagnostics` alone.
  const checked = parseRobots(input, options);
  checked.isAllowed('https://example.com/a/b', 'Googlebot');
  assert.deepStrictEqual(checked.diagnostics, eager.diagnostics, where);
  assert.equal(checked.diagnostics, checked.diagnostics, `${where}: same array on every read`);
  const json = parseRobots(input, options);
  assert.equal(JSON.stringify(json), JSON.stringify(eager), where);
  assert.deepStrictEqual(json.diagnostics, eager.diagnostics, where);
  const whole: RobotsTxt = parseRobots(input, options);
  assert.deepStrictEqual(Object.keys(whole), Object.keys(eager), where);
  assert.deepStrictEqual(whole, eager, where);
}

describe('lazy diagnostics equal the eager ones', () => {
  test('seeded hostile files, as text and as bytes', () => {
    const next = seededRandom(1405);
    let diagnostics = 0;
    for (let round = 0; round < 1500; round++) {
      const text = randomText(next);
      for (const input of [text, randomBytes(next, text)]) {
        const options = URL_OPTIONS[round % URL_OPTIONS.length] as ParseRobotsOptions;
        const where = `round ${round}: ${JSON.stringify(typeof input === 'string' ? input : [...input]).slice(0, 300)}`;
        assertSameAsEager(input, options, where);
        diagnostics += parseRobots(input, options).diagnostics.length;
      }
    }
    // The files are hostile enough to be worth comparing.
    assert.ok(diagnostics > 10_000, `${diagnostics} diagnostics`);
  });

  test('the robots.txt corpus', needsFixtures('robots/corpus/files'), () => {
    const dir = fixturePath('robots/corpus/files');
    for (const name of readdirSync(dir).sort()) {
      const bytes = new Uint8Array(readFileSync(join(dir, name)));
      const url = `https://${name.replaceAll('_', ':')}/robots.txt`;
      assertSameAsEager(bytes, { url }, name);
      assertSameAsEager(new TextDecoder().decode(bytes), { url, maxBytes: 4096 }, name);
    }
  });

  const suites = [
    'robots/google-robotstxt-cases.json',
    'robots/google-robotstxt-parse-cases.json',
    'robots/google-spec-test-cases.json',
  ];
  test("Google's conformance suites' files", needsFixtures(...suites), () => {
    let files = 0;
    for (const suite of suites) {
      for (const body of robotsBodies(JSON.parse(readFileSync(fixturePath(suite), 'utf8')))) {
        assertSameAsEager(body, { url: 'https://example.com/robots.txt' }, `${suite}: ${body}`);
        files++;
      }
    }
    assert.ok(files > 500, `${files} files`);
  });
});

/** Every `robotstxt` string in a suite, wherever the suite nests its cases. */
function robotsBodies(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(robotsBodies);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'robotstxt' && typeof inner === 'string' ? [inner] : robotsBodies(inner),
  );
}
