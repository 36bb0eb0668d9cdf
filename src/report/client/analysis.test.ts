import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SAMPLE_COUNTS, sampleReport } from '../test-support/sample-report-data.ts';
import { analyseReport, verdicts } from './analysis.ts';

test('the sample: the analysis counts and one verdict line per problem class', () => {
  const data = sampleReport();
  const analysis = analyseReport(data);
  assert.equal(analysis.blocked.length, SAMPLE_COUNTS.blocked.length);
  assert.equal(analysis.clientErrors, SAMPLE_COUNTS.status4xx);
  assert.equal(analysis.serverErrors, SAMPLE_COUNTS.status5xx);
  assert.equal(analysis.chains.length, SAMPLE_COUNTS.chains);
  const lines = verdicts(data, analysis).map((v) => `${v.level} #${v.target} ${v.text}`);
  assert.deepEqual(lines, [
    'ok #overview The site could be crawled.',
    'problem #robots Origins whose robots.txt was unreachable, so nothing there was fetched: 1',
    'problem #indexability Pages answering 4xx: 1',
    'problem #indexability Pages answering 5xx: 1',
    'problem #indexability Pages that could not be fetched (network errors): 1',
    'ok #sitemap-files Sitemaps were found.',
    'problem #sitemap-not-indexable URLs in the sitemap that are not indexable: 2',
    'problem #sitemap-redirect-4xx URLs in the sitemap that redirect or answer 4xx: 2',
    'problem #sitemap-orphans Orphans (in the sitemap, linked from no crawled page): 1',
    'problem #sitemap-missing Indexable pages missing from the sitemap: 2',
    'problem #sitemap-several URLs in more than one sitemap file: 1',
    'problem #sitemap-limits Sitemap files over the protocol limits (50,000 URLs, 50 MiB): 1',
    'problem #sitemap-diagnostics Sitemap files with reading errors: 1',
    'ok #lastmod-identical lastmod values differ between URLs.',
    'problem #lastmod-generation lastmod values equal to the time the sitemap was fetched: 1',
    'problem #lastmod-future lastmod values in the future: 1',
    'problem #lastmod-older lastmod values older than the page’s Last-Modified: 2',
    'problem #lastmod-invalid lastmod values that are not W3C Datetime: 1',
    'note #lastmod-date-only lastmod values that are dates without a time: 1',
    'note #robots-blocked URLs blocked by robots.txt: 3',
    'problem #structure-redirects URLs redirecting through more than one hop: 1',
  ]);
});

test('a site with no sitemap and an unreachable start says so', () => {
  const data = { ...sampleReport(), sitemaps: [] };
  const crawl = { ...data.crawl, unreachable: 'the start page answered 503' };
  const lines = verdicts({ ...data, crawl }, analyseReport(data)).filter((v) => v.level !== 'ok');
  assert.equal(lines[0]?.text, 'The site could not be crawled: the start page answered 503');
  assert.ok(
    lines.some((v) => v.target === 'sitemap-files' && v.text.startsWith('No sitemap was found')),
  );
});
