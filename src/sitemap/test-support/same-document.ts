import assert from 'node:assert/strict';
import type { SitemapDocument } from '../types.ts';

/**
 * `got` is `expected`, compared a part at a time: a failing deepEqual of two 20,000-entry
 * documents would have node:assert build a diff of them, which takes gigabytes.
 */
export function assertSameDocument(got: SitemapDocument, expected: SitemapDocument): void {
  assert.equal(got.kind, expected.kind, 'kind');
  assert.deepEqual(got.diagnostics, expected.diagnostics, 'diagnostics');
  assert.equal(got.entries.length, expected.entries.length, 'entries');
  for (const [i, entry] of expected.entries.entries()) {
    assert.deepEqual(got.entries[i], entry, `entry ${i}`);
  }
}
