// Conformance for usage preference lines, table-driven from testdata/usage/: each file is an
// example taken from a draft or from Cloudflare's documentation, and names its source.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseRobots, scanRobots } from './index.ts';
import type { UsageField } from './types.ts';
import { parseUsageStatement } from './usage-statement.ts';

const DIR = new URL('./testdata/usage/', import.meta.url);

interface Source {
  document: string;
  version: string;
  url: string;
}

interface FileCase {
  source: Source;
  robotstxt: string;
  directives: [number, string, string][];
  usageLines: {
    line: number;
    field: UsageField;
    path: string | null;
    value: string;
    preferences: Record<string, string>;
    unknownTerms: string[];
  }[];
  diagnostics: [number, string, string][];
  queries: {
    url: string;
    agent: string;
    allowed: boolean;
    reason: string;
    lines: number[];
    effective: Partial<Record<UsageField, Record<string, string>>>;
  }[];
}

interface StatementCases {
  source: Source;
  field: UsageField;
  cases: {
    statement: string;
    preferences: Record<string, string>;
    unknownTerms: string[];
    valid: boolean;
    problems: string[];
  }[];
}

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as T;
}

const files = readdirSync(DIR).filter((name) => name.endsWith('.json'));

describe('usage preference conformance (testdata/usage)', () => {
  test('every data file names its source document, version and URL', () => {
    assert.ok(files.length >= 8, 'data files present');
    for (const name of files) {
      const { source } = load<{ source: Source }>(name);
      assert.ok(source.document && source.version && /^https:\/\//.test(source.url), name);
    }
  });

  for (const name of files) {
    const data = load<FileCase | StatementCases>(name);
    if ('cases' in data) {
      describe(`${name}: ${data.source.document} ${data.source.version}`, () => {
        for (const c of data.cases) {
          test(JSON.stringify(c.statement), () => {
            const read = parseUsageStatement(data.field, c.statement);
            assert.deepEqual(read.preferences, c.preferences);
            assert.deepEqual(read.unknownTerms, c.unknownTerms);
            assert.equal(read.valid, c.valid);
            assert.deepEqual(
              read.problems.map((p) => p.code),
              c.problems,
            );
          });
        }
      });
      continue;
    }
    describe(`${name}: ${data.source.document} ${data.source.version}`, () => {
      const robots = parseRobots(data.robotstxt);

      test('every line is read as what it is', () => {
        const directives = new Map(
          data.directives.map(([line, kind, value]) => [line, [kind, value]]),
        );
        for (const line of scanRobots(data.robotstxt)) {
          const expected = directives.get(line.line);
          if (expected === undefined) {
            assert.ok(line.kind === 'comment' || line.kind === 'empty', `line ${line.line}`);
          } else {
            assert.deepEqual([line.kind, line.value], expected, `line ${line.line}`);
          }
        }
      });

      test('usage lines are attached to their groups with path and preferences', () => {
        const got = robots.groups.flatMap((group) =>
          group.usage.map(({ line, field, path, value, preferences, unknownTerms }) => ({
            line,
            field,
            path,
            value,
            preferences,
            unknownTerms,
          })),
        );
        assert.deepEqual(got, data.usageLines);
        assert.deepEqual(robots.usageOutsideGroups, []);
      });

      test('diagnostics', () => {
        assert.deepEqual(
          robots.diagnostics.map((d) => [d.line, d.severity, d.code]),
          data.diagnostics,
        );
      });

      for (const q of data.queries) {
        test(`usage(${q.url}, ${q.agent})`, () => {
          const usage = robots.usage(q.url, q.agent);
          assert.equal(usage.allowed, q.allowed);
          assert.equal(usage.allowed, robots.isAllowed(q.url, q.agent));
          assert.equal(usage.reason, q.reason);
          assert.deepEqual(
            usage.preferences.map((p) => p.line),
            q.lines,
          );
          assert.deepEqual(usage.effective, {
            'content-usage': q.effective['content-usage'] ?? {},
            'content-signal': q.effective['content-signal'] ?? {},
          });
        });
      }
    });
  }
});
