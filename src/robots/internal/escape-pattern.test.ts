// Differential test: escapePattern (copies unchanged runs whole) against its slow twin, the
// version that appended one char at a time, on seeded random values of every kind of char.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { referenceEscapePattern } from '../test-support/escape-pattern-reference.ts';
import { escapePattern } from './escape-pattern.ts';

// biome-ignore format: a table
const PARTS = ['/', 'a', 'Z', '*', '$', '%', '%2f', '%2F', '%aB', '%c3%a9', '%g1', '%4', 'é', '😀', '\uD800', '\uDC00', '\u00ff', '\u0080', 'x'.repeat(40), 'y'.repeat(300)];

test('escapePattern writes what the char-by-char version wrote', () => {
  const next = seededRandom(5);
  for (let round = 0; round < 20_000; round++) {
    let value = '';
    for (let n = Math.floor(next() * 10); n > 0; n--) {
      value += PARTS[Math.floor(next() * PARTS.length)];
    }
    const bytes = [...value].map((c) => String.fromCharCode(c.charCodeAt(0) & 0xff)).join('');
    assert.equal(escapePattern(value), referenceEscapePattern(value), JSON.stringify(value));
    assert.equal(
      escapePattern(bytes, true),
      referenceEscapePattern(bytes, true),
      JSON.stringify(bytes),
    );
  }
});
