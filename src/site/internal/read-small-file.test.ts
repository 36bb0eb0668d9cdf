// A small file is read whole (to its end, within the limit), synchronously or not: sizes
// around the read buffer's edges, the limit, and multi-byte text cut at any byte.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { makeContentRoot } from '../test-support/content-root.ts';
import { readSmallFile, readSmallFileSync } from './read-small-file.ts';

const MAX = 5000;
const SIZES = [0, 1, 2, 7, 4095, 4096, 4097, 4999, 5000, 5001, 9000];

test('readSmallFile and readSmallFileSync read every size to its end, within the limit', async () => {
  const root = makeContentRoot();
  try {
    for (const size of SIZES) {
      // Multi-byte characters, so a read that stopped early would also break a character.
      const text = 'é'.repeat(size).slice(0, size);
      const bytes = Buffer.from(text).subarray(0, size);
      const file = root.path(`f-${size}`);
      writeFileSync(file, bytes);
      for (const [name, read] of [
        ['async', () => readSmallFile(file, MAX, false)],
        ['sync', async () => readSmallFileSync(file, MAX, false)],
      ] as const) {
        const got = await read();
        if (size > MAX) {
          assert.equal(got.ok, false, `${name} ${size}`);
          assert.equal(got.ok ? '' : got.reason, 'too-large', `${name} ${size}`);
        } else {
          assert.equal(got.ok, true, `${name} ${size}`);
          assert.equal(got.ok ? got.text : '', bytes.toString('utf8'), `${name} ${size}`);
        }
      }
    }
  } finally {
    root.remove();
  }
});
