import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PAGE_COLUMNS } from '../report-data.ts';
import { COL } from './page-columns.ts';

test('every named index is the position of its column in PAGE_COLUMNS, and every column is named', () => {
  for (const [name, index] of Object.entries(COL)) {
    assert.equal(PAGE_COLUMNS[index], name, `COL.${name}`);
  }
  assert.deepEqual(Object.keys(COL).sort(), [...PAGE_COLUMNS].sort());
});
