import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isoDate } from './http-date.ts';

/** What the fast path stands in for. */
function slowIsoDate(value: string): string | null {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

test('reads IMF-fixdate, and what is not a date is null', () => {
  assert.equal(isoDate('Sun, 06 Nov 1994 08:49:37 GMT'), '1994-11-06T08:49:37Z');
  assert.equal(isoDate('Thu, 29 Feb 2024 23:59:59 GMT'), '2024-02-29T23:59:59Z');
  // The other forms HTTP says to accept go through Date.parse.
  assert.equal(isoDate('Sunday, 06-Nov-94 08:49:37 GMT'), '1994-11-06T08:49:37Z');
  assert.equal(isoDate('Sun Nov  6 08:49:37 1994'), slowIsoDate('Sun Nov  6 08:49:37 1994'));
  assert.equal(isoDate('yesterday'), null);
  assert.equal(isoDate(null), null);
});

test('IMF-fixdate in every field range, valid or not, reads as Date.parse reads it', () => {
  // Out-of-range fields (31 Feb, hour 24, second 60, year 0099) take the slow path.
  const fixdate = fc
    .tuple(
      fc.constantFrom(...DAYS),
      fc.integer({ min: 0, max: 32 }),
      fc.constantFrom(...MONTHS),
      fc.oneof(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 0, max: 9999 })),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
    )
    .map(
      ([w, d, m, y, h, mi, s]) =>
        `${w}, ${pad(d)} ${m} ${pad(y, 4)} ${pad(h)}:${pad(mi)}:${pad(s)} GMT`,
    );
  fc.assert(
    fc.property(fixdate, (value) => {
      assert.equal(isoDate(value), slowIsoDate(value), value);
    }),
    { numRuns: 20_000 },
  );
});

test('any string reads as Date.parse reads it', () => {
  fc.assert(
    fc.property(fc.string(), (value) => {
      assert.equal(isoDate(value), slowIsoDate(value));
    }),
    { numRuns: 5_000 },
  );
});
