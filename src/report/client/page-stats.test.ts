import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReportPageRow } from '../report-data.ts';
import { sampleReport } from '../test-support/sample-report-data.ts';
import { COL } from './page-columns.ts';
import {
  contentTypeCounts,
  depthCounts,
  indexabilityCounts,
  responseTimeHistogram,
  slowestRows,
  statusCounts,
} from './page-stats.ts';

const pages = sampleReport().pages;

test('indexability: listed first, then reasons by count, errors named by cause', () => {
  const counts = indexabilityCounts(pages);
  assert.deepEqual(counts[0], { label: 'listed', value: 8 });
  assert.deepEqual(counts.slice(1, 3), [
    { label: 'redirect', value: 2 },
    { label: 'robots-disallowed', value: 2 },
  ]);
  assert.ok(counts.some((count) => count.label === 'error: timeout' && count.value === 1));
  assert.equal(
    counts.reduce((sum, count) => sum + count.value, 0),
    pages.length,
  );
});

test('depth, status and content type counts', () => {
  assert.deepEqual(depthCounts(pages), [
    { label: '0', value: 2 },
    { label: '1', value: 11 },
    { label: '2', value: 8 },
  ]);
  assert.deepEqual(depthCounts(pages, 1), [
    { label: '0', value: 2 },
    { label: '1+', value: 19 },
  ]);
  assert.deepEqual(statusCounts(pages), [
    { label: '200', value: 12 },
    { label: '301', value: 2 },
    { label: '302', value: 1 },
    { label: '404', value: 1 },
    { label: '500', value: 1 },
    { label: 'none', value: 4 },
  ]);
  assert.deepEqual(contentTypeCounts(pages, 1), [
    { label: 'text/html', value: 13 },
    { label: 'other', value: 8 },
  ]);
});

test('response-time histogram: every bucket, each time in the bucket whose low edge it reaches', () => {
  const at = (ms: number) => {
    const row = [...(pages[0] as ReportPageRow)] as unknown[];
    row[COL.ms] = ms;
    return row as unknown as ReportPageRow;
  };
  const histogram = responseTimeHistogram([99, 100, 249, 250, 9999, 10_000, 60_000].map(at));
  assert.deepEqual(histogram, [
    { label: '0 ms – 100 ms', value: 1 },
    { label: '100 ms – 250 ms', value: 2 },
    { label: '250 ms – 500 ms', value: 1 },
    { label: '500 ms – 1 s', value: 0 },
    { label: '1 s – 2 s', value: 0 },
    { label: '2 s – 5 s', value: 0 },
    { label: '5 s – 10 s', value: 1 },
    { label: '≥ 10 s', value: 2 },
  ]);
});

test('slowest rows, slowest first', () => {
  const slowest = slowestRows(pages, 3).map((index) => pages[index]?.[COL.url]);
  assert.deepEqual(slowest, [
    'https://example.com/api',
    'https://example.com/brochure.pdf',
    'https://example.com/products',
  ]);
});
