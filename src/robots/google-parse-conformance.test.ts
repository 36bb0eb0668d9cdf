// Google's parser and line-reporting cases (robots_test.cc, reporting_robots_test.cc), read
// in place from ../shared/fixtures/robots/. Bodies are fed as the exact bytes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsFixtures, readFixtureJson } from '../test-support/fixtures.ts';
import { parseRobots, type RobotsLine, scanRobots } from './index.ts';

interface ExpectLine {
  line: number;
  tag: string;
  isTypo: boolean;
  isEmpty: boolean;
  hasComment: boolean;
  isComment: boolean;
  hasDirective: boolean;
  isAcceptableTypo: boolean;
  isLineTooLong: boolean;
  isMissingColonSeparator: boolean;
}

interface ParseCase {
  name: string;
  robotstxtBase64: string;
  expect: {
    validDirectives?: number;
    lastDirectiveLine?: number;
    lastLineSeen?: number;
    unknownDirectives?: number;
    sitemaps?: string[];
  };
  expectLines?: ExpectLine[];
}

const RULE_KINDS = new Set(['user-agent', 'allow', 'disallow', 'sitemap']);
const KEY_VALUE_KINDS = new Set([...RULE_KINDS, 'unsupported', 'unknown']);

/** Google's reporter vocabulary for one of our lines. */
function googleView(line: RobotsLine): ExpectLine {
  return {
    line: line.line,
    tag: RULE_KINDS.has(line.kind) ? line.kind : line.kind === 'unsupported' ? 'unused' : 'unknown',
    isTypo: line.typo,
    isEmpty: line.kind === 'empty',
    hasComment: line.hasComment,
    isComment: line.kind === 'comment',
    hasDirective: KEY_VALUE_KINDS.has(line.kind),
    isAcceptableTypo: line.typo,
    isLineTooLong: line.tooLong,
    isMissingColonSeparator: line.missingColon,
  };
}

const PARSE_CASES = 'robots/google-robotstxt-parse-cases.json';
describe('google/robotstxt parse and line-report cases', needsFixtures(PARSE_CASES), () => {
  const { cases } = readFixtureJson<{ cases: ParseCase[] }>(PARSE_CASES);
  test('all 16 are present', () => assert.equal(cases.length, 16));
  for (const c of cases) {
    test(c.name, () => {
      const bytes = Buffer.from(c.robotstxtBase64, 'base64');
      const lines = scanRobots(bytes);
      const keyValue = lines.filter((l) => KEY_VALUE_KINDS.has(l.kind));
      const { expect } = c;
      if (expect.validDirectives !== undefined) {
        assert.equal(lines.filter((l) => RULE_KINDS.has(l.kind)).length, expect.validDirectives);
      }
      if (expect.unknownDirectives !== undefined) {
        assert.equal(
          lines.filter((l) => l.kind === 'unknown' || l.kind === 'unsupported').length,
          expect.unknownDirectives,
        );
      }
      if (expect.lastDirectiveLine !== undefined) {
        assert.equal(keyValue.at(-1)?.line, expect.lastDirectiveLine);
      }
      if (expect.lastLineSeen !== undefined) assert.equal(lines.length, expect.lastLineSeen);
      if (expect.sitemaps !== undefined)
        assert.deepEqual(parseRobots(bytes).sitemaps, expect.sitemaps);
      for (const expected of c.expectLines ?? []) {
        const line = lines[expected.line - 1];
        assert.ok(line, `line ${expected.line} exists`);
        assert.deepEqual(googleView(line), expected);
      }
    });
  }
});
