// The reference oracle (a literal port of Google's matcher) must first agree with Google's own
// expectations, or its verdicts in the property tests mean nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { needsFixtures, readFixtureJson } from '../test-support/fixtures.ts';
import {
  googleEscapePattern,
  googlePathParamsQuery,
  googleReferenceAllowed,
  googleReferenceEvents,
} from '../test-support/google-reference-matcher.ts';

const needs = needsFixtures(
  'robots/google-robotstxt-cases.json',
  'robots/google-spec-test-cases.json',
  'robots/google-robotstxt-parse-cases.json',
  'robots/google-robotstxt-url-cases.json',
);
describe('reference oracle (google-reference-matcher.ts)', needs, () => {
  test("agrees with robots_test.cc's 145 cases", () => {
    const cases = readFixtureJson<
      { robotstxt: string; userAgent: string; url: string; allowed: boolean }[]
    >('robots/google-robotstxt-cases.json');
    assert.equal(cases.length, 145);
    const wrong = cases.filter(
      (c) => googleReferenceAllowed(c.robotstxt, c.userAgent, c.url) !== c.allowed,
    );
    assert.deepEqual(wrong, []);
  });

  test("agrees with robotstxt-spec-test's 400 cases", () => {
    const cases = readFixtureJson<
      {
        robotstxt: string | null;
        robotstxtBase64?: string;
        userAgent: string;
        url: string;
        allowed: boolean;
      }[]
    >('robots/google-spec-test-cases.json');
    assert.equal(cases.length, 400);
    const wrong = cases.filter((c) => {
      const body =
        c.robotstxtBase64 !== undefined
          ? new Uint8Array(Buffer.from(c.robotstxtBase64, 'base64'))
          : (c.robotstxt ?? '');
      return googleReferenceAllowed(body, c.userAgent, c.url) !== c.allowed;
    });
    assert.deepEqual(wrong, []);
  });

  test("numbers lines as Google's parser does (line-ending and BOM cases)", () => {
    const { cases } = readFixtureJson<{
      cases: {
        name: string;
        robotstxtBase64: string;
        oracleEvents: { line: number; type: string; value: string }[];
      }[];
    }>('robots/google-robotstxt-parse-cases.json');
    for (const c of cases) {
      const bytes = new Uint8Array(Buffer.from(c.robotstxtBase64, 'base64'));
      const expected = c.oracleEvents
        .filter((e) => e.type === 'user-agent' || e.type === 'allow' || e.type === 'disallow')
        .map(({ line, type, value }) => ({ kind: type, line, value }));
      assert.deepEqual(googleReferenceEvents(bytes), expected, c.name);
    }
  });

  test("agrees with robots_test.cc's GetPathParamsQuery and MaybeEscapePattern cases", () => {
    const data = readFixtureJson<{
      getPathParamsQuery: { url: string; path: string }[];
      maybeEscapePattern: { pattern: string; escaped: string }[];
    }>('robots/google-robotstxt-url-cases.json');
    for (const c of data.getPathParamsQuery) assert.equal(googlePathParamsQuery(c.url), c.path);
    for (const c of data.maybeEscapePattern) {
      const binary = String.fromCharCode(...new TextEncoder().encode(c.pattern));
      assert.equal(googleEscapePattern(binary), c.escaped);
    }
  });
});
