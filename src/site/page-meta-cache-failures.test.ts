// When watching lets the cache down: an overflowed inotify queue, running out of watches,
// platforms whose events come late; and sidecars that cannot be trusted. Each must still
// show the disk as it is in the next response, and never make a page public by mistake.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { watch, writeFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { createSiteHandler, PageMetaCache, type WatchFolder } from './index.ts';
import { defaultRevalidateMode } from './page-meta-cache.ts';
import { locs, makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

describe('PageMetaCache when watching fails', () => {
  test('more changes at once than the inotify queue holds (events dropped by the kernel)', async () => {
    const root = makeContentRoot({ 'a.md': '# A\n', 'bulk/b.md': '# B\n' });
    const handler = createSiteHandler({ root: root.dir, revalidate: 'watch' });
    try {
      const count = async (): Promise<number> =>
        locs(await (await handler(siteRequest('/sitemap.xml'))).text()).length;
      assert.equal(await count(), 2);
      // Written into a watched folder while the event loop is blocked: two events a file,
      // 40,000 in all, against a queue of 16,384 (the default): most are lost, with an
      // overflow marker Node does not pass on.
      for (let i = 0; i < 20_000; i++) writeFileSync(root.path(`bulk/p-${i}.md`), '# P\n');
      assert.equal(await count(), 20_002);
      // And watching goes on afterwards.
      writeFileSync(root.path('bulk/after.md'), '# After\n');
      assert.equal(await count(), 20_003);
    } finally {
      await handler.close();
      root.remove();
    }
  });

  test('out of watches (ENOSPC) part-way: falls back to stat and misses nothing', async () => {
    let calls = 0;
    let limit = Number.POSITIVE_INFINITY;
    const watchSome: WatchFolder = (path, onEvent) => {
      if (++calls > limit) {
        throw Object.assign(new Error('ENOSPC: System limit for number of file watchers'), {
          code: 'ENOSPC',
        });
      }
      return watch(path, { persistent: false }, (_event, name) => onEvent(name));
    };
    for (const [name, failAfter] of [
      ['at the first scan', 2],
      ['for a folder created later', 4],
    ] as const) {
      const root = makeContentRoot({
        'a.md': '# A\n',
        'one/b.md': '# B\n',
        'two/c.md': '# C\n',
        'three/d.md': '# D\n',
      });
      calls = 0;
      limit = failAfter;
      const cache = new PageMetaCache({ root: root.dir, revalidate: 'watch', watch: watchSome });
      try {
        const paths = async (): Promise<string[]> =>
          (await cache.snapshot()).pages.map((p) => p.path).sort();
        assert.deepEqual(await paths(), ['a.md', 'one/b.md', 'three/d.md', 'two/c.md'], name);
        if (failAfter > 2) {
          assert.equal(cache.mode, 'watch', name);
          await mkdir(root.path('four'));
          await writeFile(root.path('four/e.md'), '# E\n');
          assert.ok((await paths()).includes('four/e.md'), name);
        }
        assert.equal(cache.mode, 'stat', name);
        assert.equal((await cache.snapshot()).mode, 'stat', name);
        // Changes anywhere, including folders whose watches were closed by the fallback.
        for (const dir of ['', 'one/', 'two/', 'three/']) {
          await writeFile(root.path(`${dir}new-${failAfter}.md`), '# New\n');
          assert.ok((await paths()).includes(`${dir}new-${failAfter}.md`), `${name}: ${dir}`);
        }
      } finally {
        await cache.close();
        root.remove();
      }
    }
  });

  const PLATFORMS: [platform: string, mode: string][] = [
    ['linux', 'watch'],
    ['darwin', 'stat'],
    ['win32', 'stat'],
    ['freebsd', 'stat'],
  ];
  for (const [platform, mode] of PLATFORMS) {
    test(`default mode on ${platform}: ${mode}`, () => {
      assert.equal(defaultRevalidateMode(platform), mode);
    });
  }
});

describe('sidecars that cannot be trusted make their document not public', () => {
  test('a sidecar that is a link (inside or outside the root) or a folder', async () => {
    const outside = makeContentRoot({ 'shared.meta.yaml': 'access: deny\n' });
    const root = makeContentRoot({
      'in.md': '# In\n',
      'out.md': '# Out\n',
      'dir.md': '# Dir\n',
      'shared.yaml': 'access: deny\n',
      'plain.md': '# Plain\n',
    });
    await symlink(root.path('shared.yaml'), root.path('in.md.meta.yaml'));
    await symlink(outside.path('shared.meta.yaml'), root.path('out.md.meta.yaml'));
    await mkdir(root.path('dir.md.meta.yaml'));
    for (const revalidate of ['watch', 'stat'] as const) {
      const handler = createSiteHandler({ root: root.dir, serveDocuments: true, revalidate });
      try {
        const first = await handler(siteRequest('/sitemap.xml'));
        assert.deepEqual(locs(await first.text()), [`https://example.com/id/${idOf('plain.md')}`]);
        // Refused the same way each time: nothing changed, so neither did the ETag.
        const again = await handler(siteRequest('/sitemap.xml'));
        assert.equal(again.headers.get('etag'), first.headers.get('etag'), revalidate);
        const diagnostics = await handler.diagnostics();
        for (const path of ['in.md', 'out.md', 'dir.md']) {
          assert.ok(
            diagnostics.some((d) => d.path === path && d.code === 'sidecar-not-a-file'),
            path,
          );
          const page = await handler(siteRequest(`/id/${idOf(path)}`));
          assert.equal(page.status, 404, path);
        }
      } finally {
        await handler.close();
      }
    }
    root.remove();
    outside.remove();
  });
});
