import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterMs } from './index.ts';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 0); // Sun, 06 Nov 1994 08:49:00 GMT

const cases: [value: string | null, expected: number | null][] = [
  [null, null],
  ['120', 120_000],
  ['0', 0],
  [' 5 ', 5000],
  ['99999999999999999999', Number.MAX_SAFE_INTEGER],
  // The three HTTP-date forms, 37 s after NOW.
  ['Sun, 06 Nov 1994 08:49:37 GMT', 37_000],
  ['Sunday, 06-Nov-94 08:49:37 GMT', 37_000],
  ['Sun Nov  6 08:49:37 1994', 37_000],
  ['sun, 06 nov 1994 08:49:37 gmt', 37_000],
  // A date in the past means now.
  ['Sat, 05 Nov 1994 08:49:37 GMT', 0],
  ['Thu, 01 Jan 1970 00:00:00 GMT', 0],
  // Not understood.
  ['', null],
  ['-1', null],
  ['1.5', null],
  ['+5', null],
  ['soon', null],
  ['Sun, 06 Nov 1994 08:49:37 PST', null],
  ['Sun, 31 Feb 1994 08:49:37 GMT', null],
  ['Sun, 06 Nov 1994 24:00:00 GMT', null],
  ['Sun, 06 Foo 1994 08:49:37 GMT', null],
  ['2024-01-01T00:00:00Z', null],
];

for (const [value, expected] of cases) {
  test(`Retry-After ${JSON.stringify(value)} is ${expected}`, () => {
    assert.equal(retryAfterMs(value, NOW), expected);
  });
}

test('a two-digit year more than 50 years ahead is in the past century', () => {
  const now = Date.UTC(2030, 0, 1);
  assert.equal(retryAfterMs('Thursday, 01-Jan-81 00:00:00 GMT', now), 0); // 1981, not 2081
  assert.equal(retryAfterMs('Wednesday, 01-Jan-31 00:00:00 GMT', now), Date.UTC(2031, 0, 1) - now);
  assert.equal(
    retryAfterMs('Sunday, 01-Jan-79 00:00:01 GMT', now),
    Date.UTC(2079, 0, 1, 0, 0, 1) - now,
  );
});

test('a leap second is accepted', () => {
  const now = Date.UTC(2016, 11, 31, 23, 59, 0);
  assert.equal(retryAfterMs('Sat, 31 Dec 2016 23:59:60 GMT', now), 60_000);
});
