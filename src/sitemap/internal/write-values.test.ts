import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readLastmodByTheRules } from './lastmod.ts';
import { isNormalDatetime } from './normal-datetime.ts';
import { normalizeDatetime } from './write-values.ts';

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

// Datetimes in the normal shapes with every number near or past its range, so the normal
// form itself (not only near misses) is reached often.
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const nearNormal = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    time: fc.option(
      fc.record({
        hours: fc.integer({ min: 0, max: 25 }),
        minutes: fc.integer({ min: 0, max: 61 }),
        seconds: fc.integer({ min: 0, max: 61 }),
        zone: fc.oneof(
          fc.constant('Z'),
          fc
            .tuple(
              fc.constantFrom('+', '-'),
              fc.integer({ min: 0, max: 15 }),
              fc.integer({ min: 0, max: 61 }),
            )
            .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`),
        ),
      }),
    ),
  })
  .map(({ year, month, day, time }) => {
    const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    if (time === null) return date;
    return `${date}T${pad(time.hours, 2)}:${pad(time.minutes, 2)}:${pad(time.seconds, 2)}${time.zone}`;
  });
const anyDatetime = fc.oneof(datetime, nearNormal);

test('the hand-written check for normal datetimes agrees with the rules by the book', () => {
  fc.assert(
    fc.property(anyDatetime, (value) => {
      const normal = normalizeDatetime(value);
      assert.equal(isNormalDatetime(value), normal.problem === undefined && normal.value === value);
    }),
    { numRuns: 20_000 },
  );
});

test('a normal datetime is one the reader keeps as written, without a note, by its rules', () => {
  let normal = 0;
  fc.assert(
    fc.property(anyDatetime, (value) => {
      if (!isNormalDatetime(value)) return;
      normal++;
      assert.deepEqual(readLastmodByTheRules(value), { value, w3c: true, note: null });
    }),
    { numRuns: 20_000 },
  );
  // The generator must reach the normal form often enough for this to mean something.
  assert.ok(normal > 500, `only ${normal} normal datetimes generated`);
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
