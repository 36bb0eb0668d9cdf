// A record keeps the document's mtime only when a newer sidecar makes `lastModified` differ
// from it: whether a file changed must be decided exactly as comparing all four numbers did.
import assert from 'node:assert/strict';
import type { Stats } from 'node:fs';
import { test } from 'node:test';
import { pageRecord, type SidecarRecord, unchangedFile } from './page-record.ts';
import { NO_SIDECAR } from './sidecar.ts';

const stat = (mtimeMs: number, ctimeMs = 5_000.25, ino = 7, size = 100): Stats =>
  ({ dev: 1, ino, size, mtimeMs, ctimeMs }) as Stats;

const sidecarAt = (mtimeMs: number): SidecarRecord => ({ stamp: 's', mtimeMs, meta: NO_SIDECAR });

test('unchangedFile compares inode, size, mtime and ctime, whatever the sidecar', () => {
  const times = [-1_000.5, 0, 1_000.125, 1_795_581_089_478.3367];
  for (const docTime of times) {
    for (const sidecar of [null, ...times.map(sidecarAt)]) {
      const record = pageRecord('a.md', stat(docTime), sidecar, false);
      assert.equal(unchangedFile(record, stat(docTime)), true);
      for (const other of times) {
        if (other !== docTime) assert.equal(unchangedFile(record, stat(other)), false);
      }
      assert.equal(unchangedFile(record, stat(docTime, 5_000.5)), false);
      assert.equal(unchangedFile(record, stat(docTime, 5_000.25, 8)), false);
      assert.equal(unchangedFile(record, stat(docTime, 5_000.25, 7, 101)), false);
      // Only a newer sidecar makes the record keep the document's own mtime.
      const newer = sidecar !== null && sidecar.mtimeMs > Math.max(docTime, 0);
      assert.equal(record.mtimeMs === null, !newer && record.meta.lastModified === docTime);
    }
  }
});
