// Property tests: random and mutated robots.txt bodies, decided by the engine and by a
// literal port of Google's matcher, which must agree. Then formatRobots round trips.
// Generators: ../test-support/robots-arbitraries.ts. The oracle's own checks against
// Google's fixtures: google-reference-oracle.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { googleReferenceDecision } from '../test-support/google-reference-matcher.ts';
import {
  agentArb,
  linesArb,
  PLAIN,
  patternArb,
  percentEncodeNonAscii,
  policyArb,
  queriesArb,
  scenarioArb,
  textArb,
  USAGE_VALUES,
} from '../test-support/robots-arbitraries.ts';
import type { RobotsTxt } from './index.ts';
import { formatRobots, parseRobots, scanRobots } from './index.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_260_401;

// ---------------------------------------------------------------------------------------
// Checks shared by the properties.

const SEVERITIES = new Set(['error', 'warning', 'info']);

function checkDiagnostics(robots: RobotsTxt, lineCount: number): void {
  for (const d of robots.diagnostics) {
    assert.match(d.code, /^[a-z0-9]+(-[a-z0-9]+)*$/, JSON.stringify(d));
    assert.ok(SEVERITIES.has(d.severity), JSON.stringify(d));
    assert.ok(d.message.length > 0, JSON.stringify(d));
    assert.ok(Number.isInteger(d.line) && d.line >= 1 && d.line <= lineCount, JSON.stringify(d));
    assert.ok(Number.isInteger(d.column) && d.column >= 1, JSON.stringify(d));
  }
}

function checkDecision(
  body: string | Uint8Array,
  robots: RobotsTxt,
  kinds: ReadonlyMap<number, string>,
  url: string,
  agent: string,
): void {
  const where = `${JSON.stringify(agent)} ${JSON.stringify(url)}`;
  const allowed = robots.isAllowed(url, agent);
  const why = robots.explain(url, agent);
  const google = googleReferenceDecision(body, agent, url);
  assert.equal(why.allowed, allowed, `explain() vs isAllowed() for ${where}`);
  assert.equal(allowed, google.allowed, `engine vs Google for ${where}`);
  if (why.rule !== null) {
    assert.equal(kinds.get(why.rule.line), why.rule.directive, `explained line for ${where}`);
  }
  assert.equal(why.rule?.line ?? null, google.line, `deciding line for ${where}`);
}

function lineKinds(body: string | Uint8Array): Map<number, string> {
  return new Map(scanRobots(body).map((line) => [line.line, line.kind]));
}

// ---------------------------------------------------------------------------------------

describe('robots.txt engine, property tests', () => {
  test('any input parses without throwing and decides as Google does', () => {
    fc.assert(
      fc.property(scenarioArb, ([body, queries]) => {
        const robots = parseRobots(body);
        const kinds = lineKinds(body);
        checkDiagnostics(robots, kinds.size);
        for (const [url, agent] of queries) checkDecision(body, robots, kinds, url, agent);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  test('usage() is total and agrees with isAllowed(); its lines are usage lines of the file', () => {
    fc.assert(
      fc.property(scenarioArb, ([body, queries]) => {
        const robots = parseRobots(body);
        const kinds = lineKinds(body);
        for (const [url, agent] of queries) {
          const usage = robots.usage(url, agent);
          assert.equal(usage.allowed, robots.isAllowed(url, agent));
          if (!usage.allowed) assert.deepEqual(usage.preferences, []);
          assert.equal(usage.reason === 'preferences', usage.preferences.length > 0);
          for (const line of usage.preferences) {
            assert.equal(kinds.get(line.line), line.field, `line ${line.line}`);
          }
        }
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  test('lines longer than 16,663 bytes are cut where Google cuts them', () => {
    // The line length straddles the cut and the URL straddles the kept pattern, so that an
    // off-by-one on either side changes a decision. Multi-byte runs put the cut inside a
    // character, where a string-based reader can go wrong.
    const longCase = fc
      .tuple(
        // No '*' before the long run: both matchers would go quadratic in the line length.
        fc.constantFrom('Disallow: /', 'Allow: /', ' Disallow: /', 'Disallow: /%61', 'disalow /'),
        fc.constantFrom('a', 'a', 'é', 'ツ', '😀'),
        fc.integer({ min: 16_660, max: 16_667 }),
        fc.constantFrom('', '$', 'b', '*', 'é', '\0'),
        fc.integer({ min: -1, max: 1 }),
        fc.constantFrom('', 'b', '$'),
      )
      .map(([head, unit, lineBytes, tail, offset, urlTail]) => {
        const unitBytes = new TextEncoder().encode(unit).length;
        const line = head + unit.repeat(Math.ceil((lineBytes - head.length) / unitBytes)) + tail;
        const kept = Math.floor((16_663 - head.length) / unitBytes) + offset;
        const path = head.slice(head.indexOf('/')) + percentEncodeNonAscii(unit.repeat(kept));
        return { line, url: path + urlTail };
      });
    const bodyWithLongLine = fc
      .tuple(
        textArb(['/a']),
        longCase,
        textArb(['/a']),
        fc.constantFrom('*', 'Googlebot'),
        fc.boolean(),
      )
      .map(([before, { line, url }, after, agent, asBytes]) => {
        const text = `User-agent: ${agent}\n${before}\n${line}\n${after}`;
        return { body: asBytes ? new TextEncoder().encode(text) : text, url };
      });
    fc.assert(
      fc.property(bodyWithLongLine, agentArb, ({ body, url }, agent) => {
        const robots = parseRobots(body);
        const kinds = lineKinds(body);
        checkDiagnostics(robots, kinds.size);
        checkDecision(body, robots, kinds, url, agent);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  test('Sitemap, Crawl-delay and usage lines anywhere change no decision', () => {
    const insertion = fc.tuple(
      fc.nat(),
      fc.constantFrom(
        'Sitemap: https://example.com/s.xml',
        'Crawl-delay: 10',
        'Host: example.com',
        ...USAGE_VALUES.map((value) => `Content-Usage: ${value}`),
        ...USAGE_VALUES.map((value) => `Content-Signal: ${value}`),
      ),
    );
    fc.assert(
      fc.property(
        fc
          .array(patternArb, { minLength: 1, maxLength: 4 })
          .chain((pool) => fc.tuple(linesArb(pool), queriesArb(pool))),
        fc.array(insertion, { minLength: 1, maxLength: 3 }),
        ([lines, queries], insertions) => {
          const more = [...lines];
          for (const [at, line] of insertions) more.splice(at % (more.length + 1), 0, line);
          const before = parseRobots(lines.join('\n'));
          const after = parseRobots(more.join('\n'));
          for (const [url, agent] of queries) {
            assert.equal(after.isAllowed(url, agent), before.isAllowed(url, agent));
          }
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------

describe('formatRobots, property tests', () => {
  test('parseRobots(formatRobots(policy)).toPolicy() gives the policy back', () => {
    fc.assert(
      fc.property(policyArb, (policy) => {
        const text = formatRobots(policy);
        const robots = parseRobots(text);
        assert.deepEqual(robots.toPolicy(), policy);
        assert.deepEqual(
          robots.diagnostics.filter((d) => d.severity !== 'info'),
          [],
          `diagnostics for\n${text}`,
        );
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  test('any crawl delay or sitemap href is written to read back the same, or refused', () => {
    // Number formatting (1e-7, 1e+21) and URL fragments ('#' starts a comment) are where a
    // writer and a reader most easily drift apart.
    const policy = fc.record(
      {
        groups: fc.array(
          fc.record(
            {
              userAgents: fc.constant(['*']),
              rules: fc.constant([{ directive: 'disallow' as const, pattern: '/private/' }]),
              crawlDelay: fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
            },
            PLAIN,
          ),
          { maxLength: 1 },
        ),
        sitemaps: fc.uniqueArray(
          fc
            .webUrl({ withQueryParameters: true, withFragments: true })
            .map((url) => new URL(url).href),
          { maxLength: 2 },
        ),
      },
      PLAIN,
    );
    fc.assert(
      fc.property(policy, (p) => {
        let text: string;
        try {
          text = formatRobots(p);
        } catch (error) {
          assert.ok(isWaymarkError(error) && error.code === 'invalid-argument', String(error));
          return;
        }
        assert.deepEqual(parseRobots(text).toPolicy(), p, `written as\n${text}`);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
