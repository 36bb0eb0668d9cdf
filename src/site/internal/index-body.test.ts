// The sitemap index joined from pieces made once per layout must be the very text the index
// writer makes per request for the same origin, for origins that need escaping or are long.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexBody, writeIndexBody } from './index-body.ts';
import type { PageMeta } from './page-record.ts';
import type { SiteEntry } from './site-index.ts';
import { buildSitemapLines, newRestMemo, originPiece, sitemapLayout } from './sitemap-lines.ts';

const entries: SiteEntry[] = Array.from({ length: 120 }, (_, i) => ({
  page: { path: `p${i}.md`, lastModified: Date.UTC(2025, 0, 1) + i * 86_400_000 } as PageMeta,
  idPath: `/id/${i}`,
  aliasPath: null,
  canonicalPath: `/id/${String(i).padStart(4, '0')}`,
  listed: true,
}));

const ORIGINS = [
  'http://a.co',
  'https://www.example.com:8443',
  'http://[::1]:8080',
  'https://xn--bcher-kva.example',
  `https://${'a'.repeat(1880)}.example`,
  `https://${'a'.repeat(1990)}.example`,
];

test('indexBody is the index writer text for every origin', () => {
  const lines = buildSitemapLines(entries, newRestMemo());
  for (const origin of ORIGINS) {
    const piece = originPiece(origin);
    assert.ok(piece !== null, origin);
    const layout = sitemapLayout(lines, piece, { maxUrls: 7, maxBytes: 50 * 1024 * 1024 });
    assert.ok(layout.parts.length > 10);
    const modifiedAt = Date.UTC(2026, 1, 2, 3, 4, 5);
    let expected: string | Error;
    try {
      expected = writeIndexBody(layout, modifiedAt, origin);
    } catch (error) {
      expected = error as Error;
    }
    if (expected instanceof Error) {
      assert.throws(() => indexBody(layout, modifiedAt, origin, piece), origin.slice(0, 40));
    } else {
      assert.equal(indexBody(layout, modifiedAt, origin, piece), expected, origin.slice(0, 40));
      // Twice: the second time from the pieces kept for the layout.
      assert.equal(indexBody(layout, modifiedAt, origin, piece), expected);
    }
  }
});
