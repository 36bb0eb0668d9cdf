// Differential tests for the no-set-up check path: matchesRaw against the compiled matcher,
// and scanForMatch (every rule tried once, in line order) against the precedence-sorted trie
// a selection builds after a few checks. Seeded random rules and paths over a small alphabet,
// so that matches, ties and `index.html` alternates are common.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import type { RobotsGroup, RobotsRule } from '../types.ts';
import { compilePattern, matchesPattern } from './compiled-pattern.ts';
import { matchesRaw, scanForMatch } from './rule-match.ts';
import { compileRules, firstMatch, ruleList } from './rule-trie.ts';

// biome-ignore format: a table
const PATTERN_PARTS = ['abcdefghijklmnopqrst', '/', 'a', 'b', 'ab', '*', '**', '$', '%2F', 'index.html', 'index.htm', '?', '.php'];
// biome-ignore format: a table
const PATH_PARTS = ['abcdefghijklmnopqrst', '/', 'a', 'b', 'ab', 'ba', '$', '%2F', 'index.html', '?', '.php', 'x'];

function randomString(next: () => number, parts: readonly string[], max: number): string {
  let out = '';
  for (let n = Math.floor(next() * max); n > 0; n--) {
    out += parts[Math.floor(next() * parts.length)];
  }
  return out;
}

function randomPattern(next: () => number): string {
  const body = randomString(next, PATTERN_PARTS, 6);
  return next() < 0.85 ? `/${body}` : body;
}

function randomPath(next: () => number): string {
  return `/${randomString(next, PATH_PARTS, 7)}`;
}

test('matchesRaw agrees with the compiled matcher', () => {
  const next = seededRandom(21);
  let matched = 0;
  for (let round = 0; round < 100_000; round++) {
    const pattern = randomPattern(next);
    const path = randomPath(next);
    const expected = matchesPattern(compilePattern(pattern), path);
    if (expected) matched++;
    assert.equal(matchesRaw(pattern, path), expected, `${pattern} vs ${path}`);
  }
  assert.ok(matched > 10_000, `only ${matched} matches`);
});

test('scanForMatch picks the rule the precedence-sorted trie picks', () => {
  const next = seededRandom(22);
  for (let round = 0; round < 5_000; round++) {
    let line = 1;
    const groups: RobotsGroup[] = [];
    for (let g = 1 + Math.floor(next() * 3); g > 0; g--) {
      const rules: RobotsRule[] = [];
      // Up to 40 rules, so that the trie splits (from 8) as well as stays a list.
      for (let r = Math.floor(next() * 40); r > 0; r--) {
        const pattern = next() < 0.05 ? '' : randomPattern(next);
        rules.push({ directive: next() < 0.5 ? 'allow' : 'disallow', pattern, line: line++ });
      }
      groups.push({ userAgents: ['*'], rules, crawlDelay: null, usage: [], line: line++ });
    }
    const indices = groups.map((_, i) => i).filter(() => next() < 0.8);
    const trie = ruleList(compileRules(groups, indices));
    for (let c = 0; c < 10; c++) {
      const path = randomPath(next);
      const expected = firstMatch(trie, path);
      const actual = scanForMatch(groups, indices, path);
      const where = `round ${round}, ${path}`;
      assert.equal(actual?.rule ?? null, expected?.rule ?? null, where);
      assert.equal(actual?.group ?? null, expected?.group ?? null, where);
      assert.equal(actual?.allow ?? null, expected?.allow ?? null, where);
    }
  }
});
