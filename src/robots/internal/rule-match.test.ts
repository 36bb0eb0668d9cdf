// Differential tests for the no-set-up check path: matchesRaw against the compiled matcher,
// and scanStore (every rule tried once, in line order, patterns read in place in the file's
// text) against the precedence-sorted trie a selection builds after a few checks and against
// the scan over rule objects it replaced (test-support/scan-for-match-reference.ts). Seeded random rules and paths over a small alphabet,
// so that matches, ties and `index.html` alternates are common. Some store patterns are kept
// as raw values (lower-case escapes, `é` as text or as bytes) that the store normalises only
// when a check first reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { scanForMatchReference } from '../test-support/scan-for-match-reference.ts';
import type { RobotsGroup, RobotsRule } from '../types.ts';
import { compilePattern, matchesPattern } from './compiled-pattern.ts';
import { matchesRaw, scanStore } from './rule-match.ts';
import { groupAgents } from './rule-selection.ts';
import { type GroupHead, RULE_FIELDS, RuleStore } from './rule-store.ts';
import { compileRules, firstMatch, ruleList } from './rule-trie.ts';

// biome-ignore format: a table
const PATTERN_PARTS = ['abcdefghijklmnopqrst', '/', 'a', 'b', 'ab', '*', '**', '$', '%2F', 'index.html', 'index.htm', '?', '.php', '%C3%A9'];
// biome-ignore format: a table
const PATH_PARTS = ['abcdefghijklmnopqrst', '/', 'a', 'b', 'ab', 'ba', '$', '%2F', 'index.html', '?', '.php', 'x', '%C3%A9'];

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

/**
 * The store a parser would keep for `groups`: most patterns as offsets into a text that has
 * other chars around them (a slice must not read past its end), some kept as strings, some
 * as raw values still to be percent-normalised (text or, with `bytesAsChars`, bytes as chars).
 */
function storeFor(
  groups: readonly RobotsGroup[],
  next: () => number,
  bytesAsChars: boolean,
): RuleStore {
  let text = '';
  const data: number[] = [];
  const patterns: string[] = [];
  const heads: GroupHead[] = [];
  for (const group of groups) {
    const ruleFrom = data.length / RULE_FIELDS;
    for (const rule of group.rules) {
      if (next() < 0.2) {
        data.push(patterns.length, -1);
        patterns.push(rule.pattern);
      } else if (next() < 0.4) {
        const raw = rule.pattern
          .replaceAll('%2F', next() < 0.5 ? '%2f' : '%2F')
          .replaceAll('%C3%A9', bytesAsChars ? '\u00c3\u00a9' : 'é');
        text += 'Allow: ';
        data.push(text.length, -2 - (text.length + raw.length));
        text += raw;
        text += next() < 0.5 ? '\n' : '%2f/é$*';
      } else {
        text += next() < 0.5 ? 'Disallow: ' : 'x/index.htm$*';
        data.push(text.length, text.length + rule.pattern.length);
        text += rule.pattern;
        text += next() < 0.5 ? '\n' : 'index.html/$*';
      }
      data.push(rule.line, rule.directive === 'allow' ? 1 : 0);
    }
    const ruleTo = data.length / RULE_FIELDS;
    heads.push({ ...group, ...groupAgents(group), ruleFrom, ruleTo });
  }
  return new RuleStore(text, data, patterns, heads, null, bytesAsChars);
}

test('scanStore picks the rule the precedence-sorted trie and the object scan pick', () => {
  const next = seededRandom(22);
  let decided = 0;
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
    const store = storeFor(groups, next, next() < 0.3);
    for (let c = 0; c < 10; c++) {
      const path = randomPath(next);
      const expected = firstMatch(trie, path);
      const reference = scanForMatchReference(groups, indices, path);
      const found = scanStore(store, indices, path);
      const group = found < 0 ? null : store.groupOf(found, indices);
      const rule = group === null ? null : store.rule(found, group);
      const allow = found < 0 ? null : store.data[found * RULE_FIELDS + 3] === 1;
      const where = `round ${round}, ${path}`;
      if (expected !== null) decided++;
      assert.deepEqual(rule, expected?.rule ?? null, where);
      assert.equal(group, expected?.group ?? null, where);
      assert.equal(allow, expected?.allow ?? null, where);
      assert.equal(reference?.rule ?? null, expected?.rule ?? null, where);
      assert.equal(reference?.allow ?? null, expected?.allow ?? null, where);
    }
    // After the checks normalised some values, the rest are normalised for the objects.
    assert.deepEqual(store.groups(), groups);
  }
  assert.ok(decided > 10_000, `only ${decided} checks decided by a rule`);
});
