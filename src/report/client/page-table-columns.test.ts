import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_COUNTED_INLINKS } from '../../crawl/internal/report-counts.ts';
import { PAGE_TABLE_COLUMNS } from './page-table-columns.ts';

test('in-link counts at the crawl cap read as "at least"', () => {
  const format = PAGE_TABLE_COLUMNS.inlinks.format;
  assert.ok(format);
  const cases: [number, string][] = [
    [0, '0'],
    [999, '999'],
    [MAX_COUNTED_INLINKS, '1,000+'],
  ];
  for (const [value, shown] of cases) assert.equal(format(value), shown);
});
