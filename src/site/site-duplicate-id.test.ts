// An id claimed by several documents is given to none of them (each gets a diagnostic naming
// the others); documents with ids of their own are unaffected. Guards the grouping by id in
// buildSiteIndex, which keeps one entry per id and a list only once an id is shared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSiteHandler } from './index.ts';
import { makeContentRoot } from './test-support/content-root.ts';

test('a shared id is given to no document', async () => {
  const root = makeContentRoot({
    'a.md': '# A\n',
    'a.md.meta.yaml': 'id: 00ff00ff\n',
    'b.md': '# B\n',
    'b.md.meta.yaml': 'id: 00FF00FF\n',
    'c.md': '# C\n',
    'c.md.meta.yaml': 'id: 00ff00ff\n',
    'd.md': '# D\n',
    'd.md.meta.yaml': 'id: 0a0b0c0d\n',
  });
  const handler = createSiteHandler({ root: root.dir });
  try {
    const sitemap = await (await handler(new Request('http://a.co/sitemap.xml'))).text();
    assert.deepEqual(sitemap.match(/<loc>[^<]*<\/loc>/g), ['<loc>http://a.co/id/0a0b0c0d</loc>']);
    const duplicates = (await handler.diagnostics()).filter((d) => d.code === 'duplicate-id');
    assert.deepEqual(
      duplicates.map((d) => [d.path, d.message]),
      [
        ['a.md', 'id 00ff00ff is also used by "b.md", "c.md"'],
        ['b.md', 'id 00ff00ff is also used by "a.md", "c.md"'],
        ['c.md', 'id 00ff00ff is also used by "a.md", "b.md"'],
      ],
    );
  } finally {
    await handler.close();
    root.remove();
  }
});
