import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { type LastmodPeriod, lastmodPeriod } from './internal/lastmod-period.ts';
import {
  checkLastmodSanity,
  type LastmodEntry,
  type LastmodFindingCode,
  LastmodSanityCheck,
  type LastmodSanityOptions,
} from './lastmod-sanity.ts';

const SITE = 'https://example.com';

interface SanityCase {
  readonly name: string;
  readonly readAt?: readonly string[];
  readonly generatedAt?: readonly string[];
  readonly now?: string;
  readonly entries?: readonly {
    readonly loc: string;
    readonly lastmod?: string;
    readonly lastModified?: string | number;
  }[];
  readonly repeat?: { readonly count: number; readonly lastmod: string };
  readonly expect: Partial<Record<LastmodFindingCode, readonly string[]>>;
  readonly severity?: Partial<Record<LastmodFindingCode, 'warning' | 'info'>>;
}

const { cases } = JSON.parse(
  readFileSync(new URL('./testdata/lastmod-sanity.json', import.meta.url), 'utf8'),
) as { cases: SanityCase[] };

function entriesOf(c: SanityCase): LastmodEntry[] {
  if (c.repeat !== undefined) {
    const { count, lastmod } = c.repeat;
    return Array.from({ length: count }, (_, i) => ({ loc: `${SITE}/${i}`, lastmod }));
  }
  return (c.entries ?? []).map((e) => ({ ...e, loc: SITE + e.loc }));
}

function optionsOf(c: SanityCase): LastmodSanityOptions {
  return {
    examples: Number.POSITIVE_INFINITY,
    ...(c.readAt === undefined ? {} : { readAt: c.readAt.map(Date.parse) }),
    ...(c.generatedAt === undefined ? {} : { generatedAt: c.generatedAt.map(Date.parse) }),
    ...(c.now === undefined ? {} : { now: Date.parse(c.now) }),
  };
}

describe('checkLastmodSanity: the table in testdata/lastmod-sanity.json', () => {
  for (const c of cases) {
    test(c.name, () => {
      const entries = entriesOf(c);
      const result = checkLastmodSanity(entries, optionsOf(c));
      const got = Object.fromEntries(
        result.findings.map((f) => [f.code, f.examples.map((e) => e.loc.slice(SITE.length))]),
      );
      assert.deepEqual(got, c.expect);
      for (const [code, severity] of Object.entries(c.severity ?? {})) {
        assert.equal(result.findings.find((f) => f.code === code)?.severity, severity, code);
      }
      const severities = result.findings.map((f) => f.severity);
      assert.deepEqual(severities, [...severities].sort().reverse(), 'warnings first');
      for (const finding of result.findings) {
        // Every example is counted, points at its entry, and shows its value as given.
        assert.ok(finding.count >= finding.examples.length, finding.code);
        for (const example of finding.examples) {
          const entry = entries[example.index];
          assert.equal(example.loc, entry?.loc);
          assert.equal(example.lastmod, entry?.lastmod);
        }
        assert.match(finding.message, /\d/, 'the message says how many');
      }
      assert.equal(result.entries, entries.length);
    });
  }
});

test('severities: a date alone is a note, everything else a warning, warnings first', () => {
  const result = checkLastmodSanity(
    [
      { loc: `${SITE}/a`, lastmod: '2026-01-01' },
      { loc: `${SITE}/b`, lastmod: 'soon' },
      { loc: `${SITE}/c`, lastmod: '2099-01-01T00:00:00Z' },
      { loc: `${SITE}/d`, lastmod: '2026-03-01T12:00:00Z', lastModified: '2026-03-01T13:00:00Z' },
    ],
    { readAt: Date.parse('2026-03-01T12:01:00Z') },
  );
  assert.deepEqual(
    result.findings.map((f) => [f.code, f.severity, f.count]),
    [
      ['lastmod-invalid', 'warning', 1],
      ['lastmod-future', 'warning', 1],
      ['lastmod-generation-time', 'warning', 1],
      ['lastmod-older-than-page', 'warning', 1],
      ['lastmod-date-only', 'info', 1],
    ],
  );
  // One value in three "now": a note, after the warnings.
  const few = checkLastmodSanity(
    [
      { loc: `${SITE}/a`, lastmod: '2026-03-01T12:00:00Z' },
      { loc: `${SITE}/b`, lastmod: '2099-01-01T00:00:00Z' },
      { loc: `${SITE}/c`, lastmod: '2026-01-01T00:00:00Z' },
    ],
    { readAt: Date.parse('2026-03-01T12:01:00Z') },
  );
  assert.deepEqual(
    few.findings.map((f) => [f.code, f.severity]),
    [
      ['lastmod-future', 'warning'],
      ['lastmod-generation-time', 'info'],
    ],
  );
  assert.deepEqual(
    { withLastmod: result.withLastmod, withTime: result.withTime, dateOnly: result.dateOnly },
    { withLastmod: 4, withTime: 2, dateOnly: 1 },
  );
  assert.equal(result.now, Date.parse('2026-03-01T12:01:00Z'));
});

test('examples: the first five by default, the count is all of them', () => {
  const entries = Array.from({ length: 12 }, (_, i) => ({
    loc: `${SITE}/${i}`,
    lastmod: `2099-01-${String(i + 1).padStart(2, '0')}`,
  }));
  const [future] = checkLastmodSanity(entries, { readAt: 0 }).findings;
  assert.equal(future?.code, 'lastmod-future');
  assert.equal(future?.count, 12);
  assert.deepEqual(
    future?.examples.map((e) => e.index),
    [0, 1, 2, 3, 4],
  );
  const two = checkLastmodSanity(entries, { readAt: 0, examples: 2 }).findings[0];
  assert.equal(two?.examples.length, 2);
});

test('the stream check and the list check agree, entry by entry', () => {
  const c = cases.find((x) => x.name.startsWith('invalid')) as SanityCase;
  const check = new LastmodSanityCheck(optionsOf(c));
  for (const entry of entriesOf(c)) check.add(entry);
  assert.deepEqual(check.result(), checkLastmodSanity(entriesOf(c), optionsOf(c)));
});

test('one pass over the entries: an iterable is read once, a million entries fit a test', () => {
  let reads = 0;
  const many = function* (): Generator<LastmodEntry> {
    reads++;
    for (let i = 0; i < 1_000_000; i++) {
      yield { loc: `${SITE}/${i}`, lastmod: '2026-01-01T08:00:00Z' };
    }
  };
  const result = checkLastmodSanity(many(), { readAt: Date.parse('2026-01-01T08:00:30Z') });
  assert.equal(reads, 1);
  assert.deepEqual(
    result.findings.map((f) => [f.code, f.count, f.examples.length]),
    [
      ['lastmod-generation-time', 1_000_000, 5],
      ['lastmod-all-identical', 1_000_000, 5],
    ],
  );
});

test('lastmodPeriod: every W3C Datetime precision, and what the reader makes of other forms', () => {
  const day = Date.UTC(2026, 1, 3);
  const timed = (at: number, w3c = true): LastmodPeriod => ({
    start: at,
    end: at,
    dateOnly: false,
    w3c,
  });
  const cases: [string, LastmodPeriod | null][] = [
    ['2026', { start: Date.UTC(2026, 0, 1), end: Date.UTC(2027, 0, 1), dateOnly: true, w3c: true }],
    [
      '2026-02',
      { start: Date.UTC(2026, 1, 1), end: Date.UTC(2026, 2, 1), dateOnly: true, w3c: true },
    ],
    ['2026-02-03', { start: day, end: day + 86_400_000, dateOnly: true, w3c: true }],
    ['0050-01-01', { start: -60589296000000, end: -60589209600000, dateOnly: true, w3c: true }],
    ['2026-02-03T10:20Z', timed(Date.UTC(2026, 1, 3, 10, 20))],
    ['2026-02-03T10:20:30+01:00', timed(Date.UTC(2026, 1, 3, 9, 20, 30))],
    ['2026-02-03T10:20:30.5-02:30', timed(Date.UTC(2026, 1, 3, 12, 50, 30, 500))],
    // Not W3C Datetime (no zone), read as UTC as the sitemap reader reads it.
    ['2026-02-03T10:20:30', timed(Date.UTC(2026, 1, 3, 10, 20, 30), false)],
    ['2026-02-30', null],
    ['2026-13-01', null],
    ['2026-02-03T25:00Z', null],
    ['not-a-date', null],
    ['03/02/2026', null],
    ['', null],
  ];
  for (const [value, expected] of cases) assert.deepEqual(lastmodPeriod(value), expected, value);
});
