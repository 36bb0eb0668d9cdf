// A document's derived id is visible (its `/id/<hex>` URL): it must stay the first 16 hex
// digits of the SHA-256 of its relative path, however it is computed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { derivedId } from './page-record.ts';

const PATHS = [
  '',
  'a.md',
  'guides/setup.md',
  'Über/straße.markdown',
  'emoji/🙂.md',
  'deep/a/b/c/d/e/f/g/h/i/j/k.md',
  `long/${'x'.repeat(5000)}.md`,
  ...Array.from({ length: 500 }, (_, i) => `folder-${i % 37}/doc-${i}.md`),
];

test('derivedId is the first 16 hex digits of the SHA-256 of the path', () => {
  for (const path of PATHS) {
    const expected = createHash('sha256').update(path, 'utf8').digest('hex').slice(0, 16);
    assert.equal(derivedId(path), expected, path);
  }
});
