import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { needsFixtures, readFixtureJson } from '../../test-support/fixtures.ts';
import type { LastmodReading } from './lastmod.ts';
import { readLastmod } from './lastmod.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_260_716;

interface LastmodCase {
  raw: string;
  value: string | null;
  w3c: boolean;
}

interface FixtureRow {
  loc: string;
  lastmod_raw: string;
  w3c_valid: boolean;
}

interface FixtureCase {
  id: string;
  lastmod_table?: FixtureRow[];
}

/** What every reading must satisfy, whatever the input. */
function checkReading(raw: string, got: LastmodReading): void {
  const where = JSON.stringify(raw);
  if (got.w3c) {
    assert.equal(got.value, raw.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ''), where);
    assert.equal(got.note, null, where);
  } else {
    assert.ok(typeof got.note === 'string' && got.note.length > 0, `note for ${where}`);
  }
  if (got.value !== null) {
    assert.ok(Number.isFinite(Date.parse(got.value)), `Date.parse(${got.value}) for ${where}`);
    // Every value is itself W3C Datetime, so reading it again changes nothing.
    assert.deepEqual(readLastmod(got.value), { value: got.value, w3c: true, note: null }, where);
  }
}

describe('readLastmod table', () => {
  const { cases } = JSON.parse(
    readFileSync(new URL('../testdata/lastmod.json', import.meta.url), 'utf8'),
  ) as { cases: LastmodCase[] };
  for (const c of cases) {
    test(JSON.stringify(c.raw), () => {
      const got = readLastmod(c.raw);
      assert.deepEqual({ value: got.value, w3c: got.w3c }, { value: c.value, w3c: c.w3c });
      checkReading(c.raw, got);
    });
  }
});

const CASES = 'sitemaps/cases/cases.json';
describe('readLastmod on the shared own-lastmod-forms fixture', needsFixtures(CASES), () => {
  const { cases } = readFixtureJson<{ cases: FixtureCase[] }>(CASES);
  const rows = cases.find((c) => c.id === 'own-lastmod-forms')?.lastmod_table ?? [];

  // The fixture marks these W3C-invalid; this is what our policy reads them as.
  const readAs = new Map<string, string | null>([
    ['2005-07-16T19:20:30', '2005-07-16T19:20:30Z'],
    ['2005-07-16+02:00', '2005-07-16'],
    ['2005-02-30', null],
    ['2005-13-01', null],
    ['2005-07-16T24:00:00Z', '2005-07-17T00:00:00Z'],
    ['1997-07-16T19:20:30.45+0100', '1997-07-16T19:20:30.45+01:00'],
    ['2024-05-08 08:53:11 AM', '2024-05-08T08:53:11Z'],
    ['Thu, 17 Dec 2009 12:04:56 +0200', '2009-12-17T12:04:56+02:00'],
    ['2021-06-18T112:13:04+00:00', null],
    ['2015-10-08T07:18:53.846344Z 2015-06-15T15:33:55.288302Z', null],
    ['20050716', '2005-07-16'],
    ['1700000000', null],
    ['not a date', null],
    ['', null],
  ]);

  test('has its 26 rows', () => assert.equal(rows.length, 26));
  for (const row of rows) {
    test(`${row.loc} ${JSON.stringify(row.lastmod_raw)}`, () => {
      const got = readLastmod(row.lastmod_raw);
      assert.equal(got.w3c, row.w3c_valid);
      if (row.w3c_valid) {
        assert.equal(got.value, row.lastmod_raw.trim());
      } else {
        assert.ok(readAs.has(row.lastmod_raw), 'every invalid row has an expectation here');
        assert.equal(got.value, readAs.get(row.lastmod_raw));
      }
      checkReading(row.lastmod_raw, got);
    });
  }
});

describe('readLastmod notes', () => {
  test('say why, briefly', () => {
    assert.equal(readLastmod(' \n').note, 'empty');
    assert.equal(readLastmod('2005-02-30').note, 'day out of range for the month');
    assert.equal(readLastmod('2005-07-16T23:59:60Z').note, 'leap second 60 is not accepted');
    assert.equal(readLastmod('1700000000').note, 'a bare number (unix timestamp?) is ambiguous');
    assert.equal(
      readLastmod('2015-10-08T07:18:53Z 2015-06-15T15:33:55Z').note,
      'more than one date in one element',
    );
    assert.equal(readLastmod('2005-07-16T19:20:30').note, 'no timezone, read as UTC');
    assert.equal(
      readLastmod('2024-05-08 08:53:11 PM').note,
      'space read as T; 12-hour clock read as 24-hour; no timezone, read as UTC',
    );
  });
});

// ---------------------------------------------------------------------------------------
// Properties.

const pad = (n: number, width: number): string => `${n}`.padStart(width, '0');

/** Days in a month by the Date object, an oracle independent of the code under test. */
function oracleDaysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

const dateArb = fc
  .record({ y: fc.integer({ min: 0, max: 9999 }), m: fc.integer({ min: 1, max: 12 }) })
  .chain(({ y, m }) =>
    fc.integer({ min: 1, max: oracleDaysInMonth(y, m) }).map((d) => ({ y, m, d })),
  );

const offsetArb = fc.record({
  sign: fc.constantFrom('+', '-'),
  hh: fc.integer({ min: 0, max: 23 }),
  mm: fc.integer({ min: 0, max: 59 }),
});

/** A W3C Datetime with a time, in pieces, so the tests can respell it. */
const dateTimeArb = fc.record({
  date: dateArb,
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined }),
  fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
  offset: fc.option(offsetArb, { nil: undefined }),
});

type DateTime = typeof dateTimeArb extends fc.Arbitrary<infer T> ? T : never;

function spell(t: DateTime, sep: string, colon: boolean): { body: string; zone: string } {
  const { y, m, d } = t.date;
  let body = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${sep}${pad(t.hour, 2)}:${pad(t.minute, 2)}`;
  if (t.second !== undefined) {
    body += `:${pad(t.second, 2)}${t.fraction === undefined ? '' : `.${t.fraction}`}`;
  }
  const o = t.offset;
  const zone = o === undefined ? 'Z' : `${o.sign}${pad(o.hh, 2)}${colon ? ':' : ''}${pad(o.mm, 2)}`;
  return { body, zone };
}

// Pieces of real and broken dates, so random strings often come close to a valid one.
const fragmentArb = fc.constantFrom(
  '2005',
  '1900',
  '2000',
  '-',
  '07',
  '02',
  '16',
  '29',
  '31',
  '00',
  '24',
  '12',
  '60',
  'T',
  't',
  ' ',
  ':',
  '.',
  '45',
  'Z',
  '+',
  '01:00',
  '0100',
  'AM',
  'pm',
  'Thu, ',
  'Dec',
  'GMT',
  'EST',
  '\t',
  '\n',
  '9',
);
const nearDateArb = fc.array(fragmentArb, { maxLength: 14 }).map((parts) => parts.join(''));

describe('readLastmod properties', () => {
  test('never throws, and any value is W3C Datetime that Date.parse accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), nearDateArb), (raw) => {
        checkReading(raw, readLastmod(raw));
      }),
      { seed: SEED, numRuns: 10_000 },
    );
  });

  test('a calendar date is W3C exactly when the month and day exist', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (y, m, d) => {
          const raw = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          const exists = m >= 1 && m <= 12 && d >= 1 && d <= oracleDaysInMonth(y, m);
          const got = readLastmod(raw);
          assert.equal(got.w3c, exists, raw);
          assert.equal(got.value, exists ? raw : null, raw);
        },
      ),
      { seed: SEED, numRuns: 5_000 },
    );
  });

  test('W3C date-times come back as written; respellings read as the W3C form', () => {
    fc.assert(
      fc.property(dateTimeArb, (t) => {
        const { body, zone } = spell(t, 'T', true);
        const w3c = `${body}${zone}`;
        assert.deepEqual(readLastmod(w3c), { value: w3c, w3c: true, note: null });
        assert.ok(Number.isFinite(Date.parse(w3c)), w3c);
        const colonless = spell(t, ' ', false);
        for (const raw of [`${colonless.body}${colonless.zone}`, `${colonless.body} ${zone}`]) {
          const got = readLastmod(raw);
          assert.equal(got.w3c, false, raw);
          assert.equal(got.value, w3c, raw);
        }
        if (t.offset === undefined) assert.equal(readLastmod(body).value, w3c, body);
      }),
      { seed: SEED, numRuns: 5_000 },
    );
  });

  test('RFC 822 dates read as the same instant as V8 reads them', () => {
    const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
    const zoneArb = fc.oneof(
      fc.constantFrom('GMT', 'UT', 'EST', 'EDT', 'CST', 'CDT', 'MST', 'MDT', 'PST', 'PDT'),
      offsetArb.map((o) => `${o.sign}${pad(o.hh, 2)}${pad(o.mm, 2)}`),
    );
    fc.assert(
      fc.property(
        dateArb.filter(({ y }) => y >= 1970),
        fc.integer({ min: 0, max: 86_399 }),
        zoneArb,
        ({ y, m, d }, secs, zone) => {
          const weekday = days[new Date(Date.UTC(y, m - 1, d)).getUTCDay()] ?? '';
          const time = `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}`;
          const raw = `${weekday}, ${d} ${months[m - 1] ?? ''} ${y} ${time} ${zone}`;
          const got = readLastmod(raw);
          assert.equal(got.w3c, false, raw);
          assert.ok(got.value !== null, raw);
          assert.equal(Date.parse(got.value), Date.parse(raw), raw);
        },
      ),
      { seed: SEED, numRuns: 3_000 },
    );
  });
});
