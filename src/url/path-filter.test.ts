import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import type { PathFilterOptions } from './index.ts';
import { pathFilter } from './index.ts';

interface FilterCase {
  name: string;
  options: PathFilterOptions;
  matches: string[];
  rejects: string[];
}

const { cases } = JSON.parse(
  readFileSync(new URL('./testdata/path-filter.json', import.meta.url), 'utf8'),
) as { cases: FilterCase[] };

describe('pathFilter', () => {
  for (const row of cases) {
    test(row.name, () => {
      const allowed = pathFilter(row.options);
      for (const url of row.matches) assert.equal(allowed(url), true, `lets through ${url}`);
      for (const url of row.rejects) assert.equal(allowed(url), false, `rejects ${url}`);
    });
  }

  test('no argument at all lets everything through', () => {
    assert.equal(pathFilter()('https://example.com/x'), true);
  });

  const invalid: [string, unknown][] = [
    ['an empty pattern', { include: [''] }],
    ['an unclosed bracket', { include: ['/a/[bc'] }],
    ['an unclosed brace', { exclude: ['/a/{b,c'] }],
    ['an unclosed parenthesis', { exclude: ['/a/@(b'] }],
    ['a pattern that is not a string', { include: ['/ok', 42] }],
    ['a negated pattern', { include: ['!/private/**'] }],
    ['a list that is not an array', { exclude: '/a/**' }],
  ];
  for (const [what, options] of invalid) {
    test(`throws invalid-argument for ${what}`, () => {
      assert.throws(
        () => pathFilter(options as PathFilterOptions),
        (error) => isWaymarkError(error) && error.code === 'invalid-argument',
      );
    });
  }

  test('the error names the pattern and the list', () => {
    assert.throws(() => pathFilter({ include: ['/ok/**'], exclude: ['/a/[bc'] }), {
      name: 'WaymarkError',
      message: /invalid exclude glob "\/a\/\[bc"/,
    });
  });
});
