import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { OriginGaps } from './origin-gaps.ts';

/** The reference: one `set` per gap that is not empty. */
function fillBySet(
  out: Uint8Array,
  base: number,
  spacedAt: Uint32Array,
  start: number,
  end: number,
  piece: Uint8Array,
): void {
  for (let i = start; i < end; i++) {
    const gap = spacedAt[i] as number;
    if (gap !== spacedAt[i + 1]) out.set(piece, base + gap);
  }
}

/** Pieces of every length from 0 to 90 bytes: ASCII, and bytes that make NaN words. */
function pieces(random: () => number): Uint8Array[] {
  const list: Uint8Array[] = [];
  for (let length = 0; length <= 90; length++) {
    const ascii = new Uint8Array(length);
    for (let k = 0; k < length; k++) ascii[k] = 0x20 + Math.floor(random() * 0x5f);
    list.push(ascii);
    // 0xff bytes: every word is a NaN, so `set` must be used.
    list.push(new Uint8Array(length).fill(0xff));
    const mixed = new Uint8Array(length);
    for (let k = 0; k < length; k++) mixed[k] = Math.floor(random() * 256);
    list.push(mixed);
  }
  return list;
}

test('OriginGaps fills the gaps exactly as one set per gap does', () => {
  const random = seededRandom(14);
  let cases = 0;
  for (const piece of pieces(random)) {
    for (let round = 0; round < 4; round++) {
      const entries = 1 + Math.floor(random() * 40);
      const spacedAt = new Uint32Array(entries + 1);
      let at = 0;
      for (let i = 0; i < entries; i++) {
        spacedAt[i] = at;
        // One entry in five skipped (no gap, no rest), the others a gap and a rest of 0-20 bytes.
        if (random() >= 0.2) at += piece.byteLength + Math.floor(random() * 21);
      }
      spacedAt[entries] = at;
      const start = Math.floor(random() * entries);
      const end = start + Math.floor(random() * (entries - start + 1));
      const base = Math.floor(random() * 9);
      const size = base + at + 8;
      const expected = new Uint8Array(size).fill(7);
      const actual = new Uint8Array(new ArrayBuffer(size + 16), 5, size).fill(7);
      fillBySet(expected, base, spacedAt, start, end, piece);
      new OriginGaps(piece).fill(actual, base, spacedAt, start, end);
      assert.deepEqual(actual, expected, `piece of ${piece.byteLength} bytes`);
      cases++;
    }
  }
  assert.ok(cases > 1000);
});
