import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCount, formatDuration, plural, statusClass } from './format.ts';

test('formatCount groups thousands with commas whatever the locale', () => {
  const cases: [number, number, string][] = [
    [0, 0, '0'],
    [999, 0, '999'],
    [1000, 0, '1,000'],
    [100_000, 0, '100,000'],
    [1_234_567, 0, '1,234,567'],
    [-4321, 0, '-4,321'],
    [1234.56, 1, '1,234.6'],
    [0.2, 1, '0.2'],
    [-0.01, 1, '0.0'],
  ];
  for (const [value, digits, expected] of cases)
    assert.equal(formatCount(value, digits), expected, `${value}`);
});

test('formatDuration picks the unit people read', () => {
  const cases: [number, string][] = [
    [850, '850 ms'],
    [12_340, '12.3 s'],
    [90_000, '1 min 30 s'],
    [3_723_000, '1 h 2 min'],
  ];
  for (const [ms, expected] of cases) assert.equal(formatDuration(ms), expected);
});

test('plural and statusClass', () => {
  assert.equal(plural(1, 'page'), '1 page');
  assert.equal(plural(1200, 'page'), '1,200 pages');
  assert.equal(statusClass(404), '4xx');
  assert.equal(statusClass(200), '2xx');
  assert.equal(statusClass(null), 'none');
});
