// A small file is read whole (to its end, within the limit), synchronously or not: sizes
// around the read buffer's edges, the limit, and multi-byte text cut at any byte.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
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

// Files whose size is not known to stat (procfs reports 0, some FUSE mounts too little) and
// whose reads come back short, record by record: read to the end all the same. procfs is the
// one such file system every Linux machine has; the memory map of a sleeping child process
// does not change once it has settled.
test('a file whose stat size is 0 and whose reads come back short is read to its end', async (t) => {
  if (process.platform !== 'linux') {
    t.skip('procfs is Linux only');
    return;
  }
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await once(child, 'spawn');
    try {
      readFileSync(`/proc/${child.pid}/smaps`);
    } catch (error) {
      // Hardened kernels may keep another process's memory map from us.
      t.skip(`cannot read another process's smaps here: ${(error as Error).message}`);
      return;
    }
    for (const file of [`/proc/${child.pid}/smaps`, `/proc/${child.pid}/maps`]) {
      // Compared once the file reads the same before and after (the child may still be
      // settling in just after it started).
      for (let attempt = 0; ; attempt++) {
        const before = readFileSync(file, 'utf8');
        const results = [
          ['async', await readSmallFile(file, 10_000_000, true)],
          ['sync', readSmallFileSync(file, 10_000_000, true)],
        ] as const;
        if (readFileSync(file, 'utf8') !== before) {
          assert.ok(attempt < 100, `${file} never read the same twice`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        for (const [name, result] of results) {
          assert.equal(result.ok ? result.text : result.reason, before, `${file} ${name}`);
        }
        break;
      }
    }
  } finally {
    child.kill();
  }
});
