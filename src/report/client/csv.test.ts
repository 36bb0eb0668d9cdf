import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, viewToCsv } from './csv.ts';
import type { ColumnSpec } from './table-query.ts';

test('csvField quotes what needs it and defuses formulas', () => {
  const cases: [string | number | null, string][] = [
    [null, ''],
    [42, '42'],
    [-1, '-1'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['=HYPERLINK("http://evil"), x', `"'=HYPERLINK(""http://evil""), x"`],
    ['a=b', 'a=b'],
  ];
  for (const [cell, expected] of cases)
    assert.equal(csvField(cell), expected, JSON.stringify(cell));
});

test('viewToCsv writes the header and the rows of the view in view order, CRLF-terminated', () => {
  type Row = { name: string; size: number | null };
  const columns: ColumnSpec<Row>[] = [
    { id: 'name', label: 'Name', filter: 'text', width: 10, value: (r) => r.name },
    { id: 'size', label: 'Size, bytes', filter: 'range', width: 10, value: (r) => r.size },
  ];
  const rows: Row[] = [
    { name: 'a', size: 1 },
    { name: 'b', size: null },
    { name: 'c', size: 3 },
  ];
  assert.equal(viewToCsv(rows, columns, [2, 0]), 'Name,"Size, bytes"\r\nc,3\r\na,1\r\n');
  assert.equal(viewToCsv(rows, columns, []), 'Name,"Size, bytes"\r\n');
});
