import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReportSitemap } from '../report-data.ts';
import { SAMPLE_COUNTS, sampleReport } from '../test-support/sample-report-data.ts';
import { COL } from './page-columns.ts';
import { checkSitemaps, overProtocolLimits } from './sitemap-checks.ts';

test('the sample: each sitemap-vs-crawl list holds exactly the rows made for it', () => {
  const data = sampleReport();
  const found = checkSitemaps(data);
  const urls = (indices: readonly number[]) => indices.map((index) => data.pages[index]?.[COL.url]);
  const cases: [readonly number[], readonly string[]][] = [
    [found.listedNotIndexable, SAMPLE_COUNTS.listedNotIndexable],
    [found.listedRedirectOr4xx, SAMPLE_COUNTS.listedRedirectOr4xx],
    [found.orphans, SAMPLE_COUNTS.orphans],
    [found.missingFromSitemap, SAMPLE_COUNTS.missingFromSitemap],
    [found.inSeveralSitemaps, SAMPLE_COUNTS.inSeveralSitemaps],
  ];
  for (const [got, expected] of cases) assert.deepEqual(urls(got), expected);
  assert.deepEqual(
    found.overLimits.map((index) => data.sitemaps[index]?.url),
    SAMPLE_COUNTS.sitemapsOverLimits,
  );
  assert.deepEqual(
    found.withDiagnostics.map((index) => data.sitemaps[index]?.url),
    ['https://example.com/sitemap-pages.xml', 'https://example.com/sitemap-blog.xml'],
  );
  assert.equal(found.read, 3);
  assert.equal(found.notRead, 1);
});

test('a file is over the limits past 50,000 entries, or when the reader said it was too big', () => {
  const base: ReportSitemap = {
    url: 'https://example.com/s.xml',
    parent: null,
    status: 200,
    kind: 'urlset',
    entries: 50_000,
    skipped: null,
    diagnostics: [],
    diagnosticsDropped: 0,
    fetchedAt: null,
  };
  const size = {
    code: 'over-protocol-size',
    severity: 'warning',
    message: '',
    line: 1,
    column: 1,
  } as const;
  const cases: [ReportSitemap, boolean][] = [
    [base, false],
    [{ ...base, entries: 50_001 }, true],
    [{ ...base, entries: 10, diagnostics: [size] }, true],
    [{ ...base, entries: 10, diagnostics: [{ ...size, code: 'invalid-loc' }] }, false],
  ];
  for (const [sitemap, expected] of cases) assert.equal(overProtocolLimits(sitemap), expected);
});
