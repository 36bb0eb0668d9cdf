// A first read of a sidecar (no earlier record) opens it at once instead of lstat first:
// for every kind of thing a sidecar path can be, the record must be the one the general
// (lstat-first, asynchronous) reading gives.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { makeContentRoot } from '../test-support/content-root.ts';
import { loadSidecar, loadSidecarSync, MAX_SIDECAR_BYTES, SIDECAR_SUFFIX } from './page-record.ts';

test('a first synchronous sidecar read gives the record the general reading gives', async () => {
  const root = makeContentRoot({
    'plain.md': '# a',
    [`plain.md${SIDECAR_SUFFIX}`]: 'id: 0123456789abcdef\ntitle: "A"\n',
    'yaml.md': '# b',
    [`yaml.md${SIDECAR_SUFFIX}`]: '# comment\nalias: about\naccess: restricted\nroles: [a, b]\n',
    'broken.md': '# c',
    [`broken.md${SIDECAR_SUFFIX}`]: 'access: [\n',
    'empty.md': '# d',
    [`empty.md${SIDECAR_SUFFIX}`]: '',
    'large.md': '# e',
    [`large.md${SIDECAR_SUFFIX}`]: `title: "${'x'.repeat(MAX_SIDECAR_BYTES)}"\n`,
    'linked.md': '# f',
    'none.md': '# g',
    'folder.md': '# h',
    'fifo.md': '# i',
    'target.yaml': 'access: public\n',
  });
  try {
    symlinkSync(root.path('target.yaml'), root.path(`linked.md${SIDECAR_SUFFIX}`));
    mkdirSync(root.path(`folder.md${SIDECAR_SUFFIX}`));
    execFileSync('mkfifo', [root.path(`fifo.md${SIDECAR_SUFFIX}`)]);
    writeFileSync(root.path('dangling.md'), '# j');
    symlinkSync(root.path('nowhere'), root.path(`dangling.md${SIDECAR_SUFFIX}`));
    const names = [
      'plain',
      'yaml',
      'broken',
      'empty',
      'large',
      'linked',
      'none',
      'folder',
      'fifo',
      'dangling',
    ];
    const kinds = new Set<string>();
    for (const name of names) {
      const doc = root.path(`${name}.md`);
      const general = await loadSidecar(doc, null);
      assert.deepEqual(loadSidecarSync(doc, null), general, name);
      kinds.add(general === null ? 'none' : (general.meta.diagnostics[0]?.code ?? 'ok'));
    }
    // Every outcome was met: read, absent, broken YAML, too large, not a file.
    for (const kind of ['ok', 'none', 'sidecar-not-a-file', 'sidecar-too-large']) {
      assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`);
    }
  } finally {
    root.remove();
  }
});
