import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../shared/diagnostic.ts';
import type { SitemapReport } from '../../sitemap/index.ts';
import { SITEMAP_FILE_DIAGNOSTICS } from '../crawl-state.ts';
import { fileRecord } from './site-sitemaps.ts';

const diagnostic = (code: string, line: number): Diagnostic => ({
  code,
  severity: 'warning',
  message: code,
  line,
  column: 1,
});

test('a sitemap file keeps its first diagnostics, and always those over the protocol limits', () => {
  const many = Array.from({ length: 500 }, (_, i) => diagnostic('invalid-lastmod', i + 1));
  const report: SitemapReport = {
    url: 'https://a.test/sitemap.xml',
    finalUrl: null,
    parent: null,
    depth: 0,
    status: 200,
    kind: 'urlset',
    entries: 60_000,
    diagnostics: [...many, diagnostic('over-protocol-urls', 50_002)],
    skipped: null,
    skipCode: null,
  };
  const record = fileRecord(report, 1234);
  assert.equal(record.diagnostics.length, SITEMAP_FILE_DIAGNOSTICS);
  assert.equal(record.diagnosticsDropped, 501 - SITEMAP_FILE_DIAGNOSTICS);
  assert.deepEqual(record.diagnostics[0], diagnostic('over-protocol-urls', 50_002));
  assert.deepEqual(record.diagnostics[1], many[0]);
  assert.equal(record.readAt, 1234);
  assert.equal(record.entries, 60_000);
});
