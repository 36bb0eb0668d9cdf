// A scan reads folders synchronously while the reads answer from the cache, asynchronously
// (several at once) once they are slow, and gives the event loop a turn between slices of
// synchronous work. Whichever way the folders were read, the tree must hold the same thing.
import assert from 'node:assert/strict';
import { realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeContentRoot } from '../test-support/content-root.ts';
import { ContentTree } from './content-tree.ts';
import { FolderWatchers } from './folder-watchers.ts';
import { SIDECAR_SUFFIX } from './page-record.ts';
import { DEFAULT_SCAN_PACE, type ScanPace } from './scan-pacer.ts';

const PACES: Readonly<Record<string, ScanPace>> = {
  default: DEFAULT_SCAN_PACE,
  // Slower than allowed from the first read on: every folder after the first is read async.
  'async at once': { folderMs: 0, entryMs: 0, slackMs: -1, sliceMs: 20 },
  // Never slow, and a turn of the event loop before every folder read.
  'sync, a turn per folder': { folderMs: 0, entryMs: 0, slackMs: Infinity, sliceMs: 0 },
};

function files(): Record<string, string> {
  const out: Record<string, string> = {
    'index.md': '# home',
    'waymark.site.yaml': 'trailingSlash: never\n',
    '.hidden.md': '# hidden',
    'notes.txt': 'not a document',
  };
  for (let a = 0; a < 6; a++) {
    for (let b = 0; b < 5; b++) {
      for (let c = 0; c < 4; c++) {
        const doc = `s${a}/t${b}/page-${c}.md`;
        out[doc] = `# ${a}${b}${c}`;
        if (c % 2 === 0) out[doc + SIDECAR_SUFFIX] = `title: "P ${a}${b}${c}"\n`;
        if (c === 3) out[doc + SIDECAR_SUFFIX] = 'access: [\n';
      }
      out[`s${a}/t${b}/.draft/secret.md`] = '# draft';
    }
  }
  return out;
}

interface Seen {
  readonly records: Map<string, unknown>;
  readonly symlinks: string[];
  readonly configStamp: string | null;
  readonly watched: string[];
  readonly turns: number;
}

async function scan(rootDir: string, pace: ScanPace): Promise<Seen> {
  const root = realpathSync(rootDir);
  const watched: string[] = [];
  const watchers = new FolderWatchers(
    (dir) => (dir === '' ? root : join(root, dir)),
    () => {},
    (path) => {
      watched.push(path);
      return { close() {}, on: () => undefined };
    },
  );
  const tree = new ContentTree(
    root,
    watchers,
    () => true,
    () => {},
    pace,
  );
  let turns = 0;
  let counting = true;
  const count = (): void => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  await tree.reconcile('');
  counting = false;
  watchers.closeAll();
  const records = new Map([...tree.records].sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    records,
    symlinks: [...tree.symlinks].sort(),
    configStamp: tree.configStamp,
    watched: watched.sort(),
    turns,
  };
}

test('the tree is the same whether folders were read synchronously or not', async () => {
  const root = makeContentRoot(files());
  try {
    symlinkSync(root.path('s1/t1/page-0.md'), root.path('s2/linked.md'));
    symlinkSync(root.path('s3'), root.path('s4/folder-link'));
    const results = new Map<string, Seen>();
    for (const [name, pace] of Object.entries(PACES)) results.set(name, await scan(root.dir, pace));
    const reference = results.get('default') as Seen;
    // The tree was really read: documents (any file), sidecars (broken ones too), links, the
    // config.
    assert.equal(reference.records.size, 6 * 5 * 4 + 3);
    assert.deepEqual(reference.symlinks, ['s2/linked.md']);
    assert.notEqual(reference.configStamp, null);
    assert.equal(reference.watched.length, 1 + 6 + 6 * 5);
    for (const [name, seen] of results) {
      assert.deepEqual(seen.records, reference.records, name);
      assert.deepEqual(seen.symlinks, reference.symlinks, name);
      assert.deepEqual(seen.watched, reference.watched, name);
      assert.equal(seen.configStamp !== null, true, name);
    }
    // With a slice of 0 ms the event loop had a turn before the folder reads of each level
    // (the root, its 6 folders, their 30: the folders of one level wait for the same turn);
    // synchronous reads without those turns would finish in one chain of microtasks.
    assert.ok((results.get('sync, a turn per folder') as Seen).turns >= 3);
  } finally {
    root.remove();
  }
});
