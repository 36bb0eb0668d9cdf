import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isNormalDatetime, normalizeDatetime } from './write-values.ts';

// Datetimes shaped like the normal forms, with every field free to be out of range, a
// non-digit, or a wrong separator, so both paths see edge cases and near misses.
const twoDigits = fc.oneof(
  fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')),
  fc.constantFrom('1a', ' 1', '+1', '-1', '1.', '٠١'),
);
const datetime = fc
  .record({
    year: fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
      fc.constantFrom('20x4', '-202', '2024'),
    ),
    month: twoDigits,
    day: twoDigits,
    dateDash: fc.constantFrom('-', '-', '-', '/'),
    time: fc.option(
      fc.record({
        t: fc.constantFrom('T', 'T', 't', ' '),
        hours: twoDigits,
        minutes: twoDigits,
        seconds: twoDigits,
        colon: fc.constantFrom(':', ':', ':', '.'),
        zone: fc.oneof(
          fc.constantFrom('Z', 'z', '', 'UTC'),
          fc
            .tuple(
              fc.constantFrom('+', '-', '−'),
              twoDigits,
              fc.constantFrom(':', ':', ''),
              twoDigits,
            )
            .map((parts) => parts.join('')),
        ),
      }),
    ),
  })
  .map(({ year, month, day, dateDash, time }) => {
    const date = `${year}${dateDash}${month}-${day}`;
    if (time === null) return date;
    const { t, hours, minutes, seconds, colon, zone } = time;
    return `${date}${t}${hours}${colon}${minutes}:${seconds}${zone}`;
  });

test('the hand-written check for normal datetimes agrees with the rules by the book', () => {
  fc.assert(
    fc.property(datetime, (value) => {
      const normal = normalizeDatetime(value);
      assert.equal(isNormalDatetime(value), normal.problem === undefined && normal.value === value);
    }),
    { numRuns: 20_000 },
  );
});

test('calendar edge cases take the same answer on both paths', () => {
  const cases = [
    '2024-02-29',
    '2023-02-29',
    '1900-02-29',
    '2000-02-29',
    '0000-01-01',
    '2024-04-31',
    '2024-12-31T23:59:59Z',
    '2024-12-31T24:00:00Z',
    '2024-12-31T23:59:60Z',
    '2024-01-01T00:00:00+14:00',
    '2024-01-01T00:00:00+14:01',
    '2024-01-01T00:00:00-13:59',
    '2024-01-01T00:00:00+05:60',
    '2024-01-01T00:00:00z',
  ];
  for (const value of cases) {
    const normal = normalizeDatetime(value);
    assert.equal(
      isNormalDatetime(value),
      normal.problem === undefined && normal.value === value,
      value,
    );
  }
});
