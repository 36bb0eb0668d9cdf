import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { NormalizeOptions } from './index.ts';
import { isTrackingParam, normalizeUrl } from './index.ts';

interface NormalizeCase {
  name: string;
  input: string;
  base?: string;
  options?: Omit<NormalizeOptions, 'base'>;
  expected: string | null;
}

const { cases } = JSON.parse(
  readFileSync(new URL('./testdata/normalize.json', import.meta.url), 'utf8'),
) as { cases: NormalizeCase[] };

describe('normalizeUrl', () => {
  for (const row of cases) {
    test(row.name, () => {
      const options: NormalizeOptions = {
        ...row.options,
        ...(row.base === undefined ? {} : { base: row.base }),
      };
      assert.equal(normalizeUrl(row.input, options), row.expected);
      // Every result is a fixed point: normalising it again, with the same query options,
      // changes nothing.
      if (row.expected !== null) {
        assert.equal(normalizeUrl(row.expected, row.options), row.expected);
      }
    });
  }

  test('takes a URL object as base', () => {
    assert.equal(
      normalizeUrl('b', { base: new URL('https://example.com/a/') }),
      'https://example.com/a/b',
    );
  });

  test('the table covers each rule', () => {
    assert.ok(cases.length >= 60, `${cases.length} rows`);
  });
});

describe('isTrackingParam', () => {
  const table: [string, boolean][] = [
    ['utm_source', true],
    ['UTM_MEDIUM', true],
    ['utm_', true],
    ['gclid', true],
    ['FbClId', true],
    ['msclkid', true],
    ['utm', false],
    ['utmsource', false],
    ['xgclid', false],
    ['gclid_x', false],
    ['', false],
    ['id', false],
  ];
  for (const [name, expected] of table) {
    test(`${JSON.stringify(name)} is ${expected ? '' : 'not '}tracking`, () => {
      assert.equal(isTrackingParam(name), expected);
    });
  }
});
