// Google's own robots.txt test suites, read in place from ../shared/fixtures/robots/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsFixtures, readFixtureJson } from '../test-support/fixtures.ts';
import { isValidUserAgent, parseRobots, pathForMatching } from './index.ts';
import { escapePattern } from './internal/escape-pattern.ts';

interface MatcherCase {
  name: string;
  robotstxt: string;
  userAgent: string;
  url: string;
  allowed: boolean;
  srcLine: number;
}

interface SpecCase {
  file: string;
  test: number;
  robotstxt: string | null;
  robotstxtBase64?: string;
  userAgent: string;
  url: string;
  allowed: boolean;
  type: string;
}

function bodyOf(c: { robotstxt: string | null; robotstxtBase64?: string }): string | Uint8Array {
  return c.robotstxtBase64 !== undefined
    ? Buffer.from(c.robotstxtBase64, 'base64')
    : (c.robotstxt ?? '');
}

const MATCHER_CASES = 'robots/google-robotstxt-cases.json';
describe('google/robotstxt robots_test.cc matcher cases', needsFixtures(MATCHER_CASES), () => {
  const cases = readFixtureJson<MatcherCase[]>(MATCHER_CASES);
  test('all 145 are present', () => assert.equal(cases.length, 145));
  for (const c of cases) {
    test(`${c.name} (robots_test.cc:${c.srcLine}) ${c.allowed ? 'allows' : 'disallows'} ${JSON.stringify(c.url).slice(0, 80)}`, () => {
      const robots = parseRobots(c.robotstxt);
      assert.equal(robots.isAllowed(c.url, c.userAgent), c.allowed);
      assert.equal(robots.explain(c.url, c.userAgent).allowed, c.allowed);
    });
  }
});

const SPEC_CASES = 'robots/google-spec-test-cases.json';
describe('google/robotstxt-spec-test cases', needsFixtures(SPEC_CASES), () => {
  const cases = readFixtureJson<SpecCase[]>(SPEC_CASES);
  test('all 400 are present', () => assert.equal(cases.length, 400));
  for (const c of cases) {
    test(`${c.file} #${c.test} (${c.type}) ${c.userAgent} ${c.url}`, () => {
      const robots = parseRobots(bodyOf(c));
      assert.equal(robots.isAllowed(c.url, c.userAgent), c.allowed);
      assert.equal(robots.explain(c.url, c.userAgent).allowed, c.allowed);
    });
  }
});

const UA_CASES = 'robots/google-robotstxt-ua-validity.json';
describe('google/robotstxt user-agent validity', needsFixtures(UA_CASES), () => {
  const cases =
    readFixtureJson<{ name: string; userAgent: string; valid: boolean; srcLine: number }[]>(
      UA_CASES,
    );
  for (const c of cases) {
    test(`${JSON.stringify(c.userAgent)} is ${c.valid ? 'valid' : 'invalid'} (robots_test.cc:${c.srcLine})`, () => {
      assert.equal(isValidUserAgent(c.userAgent), c.valid);
    });
  }
});

const URL_CASES = 'robots/google-robotstxt-url-cases.json';
describe('google/robotstxt URL-to-path and pattern escaping', needsFixtures(URL_CASES), () => {
  const data = readFixtureJson<{
    getPathParamsQuery: { url: string; path: string }[];
    maybeEscapePattern: { pattern: string; escaped: string }[];
  }>(URL_CASES);
  for (const c of data.getPathParamsQuery) {
    test(`path of ${JSON.stringify(c.url)} is ${c.path}`, () =>
      assert.equal(pathForMatching(c.url), c.path));
  }
  for (const c of data.maybeEscapePattern) {
    test(`pattern ${c.pattern} is escaped as ${c.escaped}`, () => {
      assert.equal(escapePattern(c.pattern), c.escaped);
    });
  }
});
