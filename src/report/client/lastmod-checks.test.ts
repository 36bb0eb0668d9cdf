import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReportData, ReportPageRow } from '../report-data.ts';
import { SAMPLE_COUNTS, sampleReport } from '../test-support/sample-report-data.ts';
import { checkLastmods } from './lastmod-checks.ts';
import { COL } from './page-columns.ts';

function urlsOf(data: ReportData, indices: readonly number[]): string[] {
  return indices.map((index) => (data.pages[index] as ReportPageRow)[COL.url]);
}

test('the sample: each check finds exactly the rows made for it', () => {
  const data = sampleReport();
  const found = checkLastmods(data);
  assert.deepEqual(urlsOf(data, found.dateOnly), SAMPLE_COUNTS.lastmodDateOnly);
  assert.deepEqual(urlsOf(data, found.generationTime), SAMPLE_COUNTS.lastmodGenerationTime);
  assert.deepEqual(urlsOf(data, found.future), SAMPLE_COUNTS.lastmodFuture);
  assert.deepEqual(urlsOf(data, found.olderThanLastModified), SAMPLE_COUNTS.lastmodOlder);
  assert.deepEqual(urlsOf(data, found.invalid), SAMPLE_COUNTS.lastmodInvalid);
  assert.equal(found.allIdentical, false);
  assert.equal(found.withLastmod, 8);
  assert.equal(found.reference?.at, Date.parse('2026-03-01T11:58:07.000Z'));
});

/** A report with one row per (sitemapLastmod, lastModified) pair, sitemaps fetched at FETCHED. */
const FETCHED = '2026-03-01T12:00:00.000Z';
function withLastmods(pairs: readonly (readonly [string, string | null])[]): ReportData {
  const data = sampleReport();
  const template = data.pages[0] as ReportPageRow;
  return {
    ...data,
    sitemaps: data.sitemaps.map((sitemap) => ({ ...sitemap, fetchedAt: FETCHED })),
    pages: pairs.map(([lastmod, modified], index) => {
      const row = [...template] as unknown[];
      row[COL.url] = `https://example.com/${index}`;
      row[COL.sitemapLastmod] = lastmod;
      row[COL.lastModified] = modified;
      return row as unknown as ReportPageRow;
    }),
  };
}

test('each check at its edges', () => {
  type Check = 'generationTime' | 'future' | 'olderThanLastModified' | 'dateOnly' | 'invalid';
  const cases: [string, string | null, Check[]][] = [
    // Generation time: a time within 5 minutes of a sitemap fetch, either side.
    ['2026-03-01T12:04:59Z', null, ['generationTime']],
    ['2026-03-01T11:55:00Z', null, ['generationTime']],
    ['2026-03-01T11:54:59Z', null, []],
    ['2026-03-01T13:00:00+01:00', null, ['generationTime']],
    // Future: past the fetch by more than the skew; a day only once it has begun nowhere.
    ['2026-03-01T12:05:01Z', null, ['future']],
    ['2026-03-02', null, ['dateOnly']],
    ['2026-03-03', null, ['dateOnly', 'future']],
    // Older than Last-Modified: by a second or more; a day by more than its end anywhere.
    ['2026-02-01T10:00:00Z', '2026-02-01T10:00:00.999Z', []],
    ['2026-02-01T10:00:00Z', '2026-02-01T10:00:01.000Z', ['olderThanLastModified']],
    ['2026-02-01', '2026-02-02T11:59:59.000Z', ['dateOnly']],
    ['2026-02-01', '2026-02-02T12:00:00.000Z', ['dateOnly', 'olderThanLastModified']],
    ['2026-02-01T10:00:00Z', '2026-01-01T00:00:00.000Z', []],
    ['yesterday', '2026-02-02T12:00:00.000Z', ['invalid']],
  ];
  const found = checkLastmods(
    withLastmods(cases.map(([lastmod, modified]) => [lastmod, modified])),
  );
  const checks: Check[] = [
    'dateOnly',
    'generationTime',
    'future',
    'olderThanLastModified',
    'invalid',
  ];
  cases.forEach(([lastmod, modified, expected], index) => {
    const got = checks.filter((check) => found[check].includes(index));
    assert.deepEqual(got, expected, `${lastmod} / ${modified}`);
  });
});

test('all identical: enough values, all equal (the thresholds are the sitemap check’s)', () => {
  const times = (n: number, value: string) =>
    withLastmods(Array.from({ length: n }, () => [value, null] as const));
  const same = checkLastmods(times(3, '2026-01-01T08:00:00Z'));
  assert.equal(same.allIdentical, true);
  assert.deepEqual(same.commonest, { value: '2026-01-01T08:00:00Z', count: 3 });
  assert.equal(checkLastmods(times(2, '2026-01-01T08:00:00Z')).allIdentical, false);
  assert.equal(checkLastmods(times(9, '2026-01-01')).allIdentical, false);
  assert.equal(checkLastmods(times(10, '2026-01-01')).allIdentical, true);
  assert.equal(
    checkLastmods(
      withLastmods([
        ['2026-01-01T08:00:00Z', null],
        ['2026-01-01T08:00:00Z', null],
        ['2026-01-02T08:00:00Z', null],
      ]),
    ).allIdentical,
    false,
  );
});

test('rows without a lastmod are skipped, and indices stay row indices', () => {
  const data = withLastmods([
    ['2026-03-01T12:00:00Z', null],
    ['2026-03-01T12:00:00Z', null],
  ]);
  const rows = data.pages.map((row, index) => {
    const copy = [...row] as unknown[];
    if (index === 0) copy[COL.sitemapLastmod] = null;
    return copy as unknown as ReportPageRow;
  });
  const found = checkLastmods({ ...data, pages: rows });
  assert.equal(found.withLastmod, 1);
  assert.deepEqual(found.generationTime, [1]);
});
