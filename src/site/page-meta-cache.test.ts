// The PageMetaCache guarantee: a change on disk shows in the very next response. Each
// step changes files, awaits the change, and requests at once: no sleeps, many rounds,
// in both revalidation modes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { stat, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import {
  createSiteHandler,
  PageMetaCache,
  type RevalidateMode,
  type SiteHandler,
} from './index.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

const ORIGIN = 'https://example.com';
const ROUNDS = 25;

function idOf(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 16);
}

function iso(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

/** The sitemap as loc -> lastmod. */
async function sitemap(handler: SiteHandler): Promise<Map<string, string>> {
  const response = await handler(siteRequest('/sitemap.xml'));
  assert.equal(response.status, 200);
  const xml = await response.text();
  const entries = [...xml.matchAll(/<url><loc>([^<]*)<\/loc><lastmod>([^<]*)<\/lastmod><\/url>/g)];
  return new Map(entries.map((m) => [m[1] ?? '', m[2] ?? '']));
}

async function expectListed(handler: SiteHandler, loc: string, lastmod?: string): Promise<void> {
  const map = await sitemap(handler);
  assert.ok(map.has(ORIGIN + loc), `${loc} should be listed; got ${[...map.keys()].join(' ')}`);
  if (lastmod !== undefined) assert.equal(map.get(ORIGIN + loc), lastmod, `lastmod of ${loc}`);
}

async function expectAbsent(handler: SiteHandler, loc: string): Promise<void> {
  const map = await sitemap(handler);
  assert.ok(!map.has(ORIGIN + loc), `${loc} should not be listed`);
}

for (const mode of ['watch', 'stat'] as const satisfies readonly RevalidateMode[]) {
  describe(`PageMetaCache revalidation (${mode})`, () => {
    const root = makeContentRoot({ 'home.md': '# Home\n' });
    const handler = createSiteHandler({ root: root.dir, revalidate: mode });
    after(async () => {
      await handler.close();
      root.remove();
    });

    test('the first request sees the root without waiting', async () => {
      await expectListed(handler, `/id/${idOf('home.md')}`);
    });

    test('documents and sidecars added, changed, retimed, renamed and removed', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const doc = root.path(`new-${i}.md`);
        const sidecar = `${doc}.meta.yaml`;
        const t = 1_600_000_000 + i * 1000;

        await writeFile(sidecar, `alias: new/p${i}\n`);
        await writeFile(doc, `# New ${i}\n`);
        await utimes(sidecar, t - 500, t - 500);
        await utimes(doc, t, t);
        await expectListed(handler, `/new/p${i}`, iso(t));

        // lastmod is the later of the two mtimes, whichever file it is.
        await utimes(sidecar, t + 7, t + 7);
        await expectListed(handler, `/new/p${i}`, iso(t + 7));
        await utimes(doc, t + 9, t + 9);
        await expectListed(handler, `/new/p${i}`, iso(t + 9));

        await writeFile(sidecar, `alias: renamed/p${i}\n`);
        await utimes(sidecar, t, t);
        await expectListed(handler, `/renamed/p${i}`, iso(t + 9));
        await expectAbsent(handler, `/new/p${i}`);

        await writeFile(sidecar, `alias: renamed/p${i}\nnoindex: true\n`);
        await expectAbsent(handler, `/renamed/p${i}`);

        await writeFile(sidecar, 'alias: [broken\n');
        await expectAbsent(handler, `/id/${idOf(`new-${i}.md`)}`);
        assert.ok(
          (await handler.diagnostics()).some(
            (d) => d.path === `new-${i}.md` && d.severity === 'error',
          ),
        );

        await unlink(sidecar);
        await expectListed(handler, `/id/${idOf(`new-${i}.md`)}`);

        await rename(doc, root.path(`moved-${i}.md`));
        await expectListed(handler, `/id/${idOf(`moved-${i}.md`)}`);
        await expectAbsent(handler, `/id/${idOf(`new-${i}.md`)}`);

        // A sidecar arriving after its document, and an id that survives a rename.
        await writeFile(
          root.path(`moved-${i}.md.meta.yaml`),
          `id: abcd${String(i).padStart(4, '0')}\n`,
        );
        await expectListed(handler, `/id/abcd${String(i).padStart(4, '0')}`);
        await rename(root.path(`moved-${i}.md`), root.path(`gone-${i}.md`));
        await rename(root.path(`moved-${i}.md.meta.yaml`), root.path(`gone-${i}.md.meta.yaml`));
        await expectListed(handler, `/id/abcd${String(i).padStart(4, '0')}`);

        await unlink(root.path(`gone-${i}.md`));
        await expectAbsent(handler, `/id/abcd${String(i).padStart(4, '0')}`);
        await unlink(root.path(`gone-${i}.md.meta.yaml`));
      }
    });

    test('new, renamed and removed directories, nested at once', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        await mkdir(root.path(`dir-${i}/a/b`), { recursive: true });
        await writeFile(root.path(`dir-${i}/a/b/deep.md`), '# Deep\n');
        await writeFile(root.path(`dir-${i}/top.md`), '# Top\n');
        await expectListed(handler, `/id/${idOf(`dir-${i}/a/b/deep.md`)}`);
        await expectListed(handler, `/id/${idOf(`dir-${i}/top.md`)}`);

        // A file added to a directory created a moment ago.
        await writeFile(root.path(`dir-${i}/a/later.md`), '# Later\n');
        await expectListed(handler, `/id/${idOf(`dir-${i}/a/later.md`)}`);

        await rename(root.path(`dir-${i}`), root.path(`ren-${i}`));
        await expectListed(handler, `/id/${idOf(`ren-${i}/a/b/deep.md`)}`);
        await expectAbsent(handler, `/id/${idOf(`dir-${i}/a/b/deep.md`)}`);

        // The renamed directory is watched under its new name.
        await writeFile(root.path(`ren-${i}/a/b/after-rename.md`), '# After\n');
        await expectListed(handler, `/id/${idOf(`ren-${i}/a/b/after-rename.md`)}`);

        await rm(root.path(`ren-${i}`), { recursive: true });
        await expectAbsent(handler, `/id/${idOf(`ren-${i}/a/b/deep.md`)}`);
        await expectAbsent(handler, `/id/${idOf(`ren-${i}/top.md`)}`);

        // The same name again, as a new directory.
        await mkdir(root.path(`ren-${i}`));
        await writeFile(root.path(`ren-${i}/again.md`), '# Again\n');
        await expectListed(handler, `/id/${idOf(`ren-${i}/again.md`)}`);

        // Removed and created again between two requests (the inode may well be reused).
        await rm(root.path(`ren-${i}`), { recursive: true });
        await mkdir(root.path(`ren-${i}/x`), { recursive: true });
        await writeFile(root.path(`ren-${i}/x/third.md`), '# Third\n');
        await expectListed(handler, `/id/${idOf(`ren-${i}/x/third.md`)}`);
        await expectAbsent(handler, `/id/${idOf(`ren-${i}/again.md`)}`);
        await writeFile(root.path(`ren-${i}/x/fourth.md`), '# Fourth\n');
        await expectListed(handler, `/id/${idOf(`ren-${i}/x/fourth.md`)}`);
        await rm(root.path(`ren-${i}`), { recursive: true });
        await expectAbsent(handler, `/id/${idOf(`ren-${i}/x/fourth.md`)}`);
      }
    });

    test('a change made synchronously inside a poll-phase callback shows', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const path = `sync-${i}.md`;
        // fs callbacks run in the poll phase: the watcher's event for this write is not
        // read until the next poll phase, which the request must wait for.
        const response = await new Promise<Response>((resolve) => {
          stat(root.dir, () => {
            writeFileSync(root.path(path), '# Sync\n');
            resolve(handler(siteRequest('/sitemap.xml')));
          });
        });
        assert.ok((await response.text()).includes(`/id/${idOf(path)}<`), path);
        unlinkSync(root.path(path));
      }
    });

    test('hidden files and links leading outside the root are not documents', async () => {
      const outside = makeContentRoot({ 'secret.md': '# Outside\n' });
      try {
        await writeFile(root.path('.hidden.md'), '# Hidden\n');
        await mkdir(root.path('.git'), { recursive: true });
        await writeFile(root.path('.git/x.md'), '# In a hidden folder\n');
        await symlink(outside.path('secret.md'), root.path('escape.md'));
        await symlink(root.path('home.md'), root.path('inside-link.md'));
        const map = await sitemap(handler);
        for (const path of ['.hidden.md', '.git/x.md', 'escape.md']) {
          assert.ok(!map.has(`${ORIGIN}/id/${idOf(path)}`), path);
        }
        assert.ok(map.has(`${ORIGIN}/id/${idOf('inside-link.md')}`));
        // A write through the link's target shows under the link too.
        await utimes(root.path('home.md'), 1_700_000_000, 1_700_000_000);
        await expectListed(handler, `/id/${idOf('inside-link.md')}`, iso(1_700_000_000));
      } finally {
        outside.remove();
      }
    });
  });
}

describe('PageMetaCache', () => {
  test('holds the metadata of every document', async () => {
    const root = makeContentRoot({
      'a.md': '# A\n',
      'a.md.meta.yaml': 'id: BEEF01\nalias: a\naccess: restricted\nroles: [staff]\ntitle: A page\n',
      'files/logo.svg': '<svg/>',
      'b.markdown': 'B',
      'waymark.site.yaml': 'trailingSlash: always\n',
    });
    const cache = new PageMetaCache({ root: root.dir });
    try {
      const { pages } = await cache.snapshot();
      const byPath = new Map(pages.map((p) => [p.path, p]));
      assert.deepEqual([...byPath.keys()].sort(), ['a.md', 'b.markdown', 'files/logo.svg']);
      const a = byPath.get('a.md');
      assert.equal(a?.id, 'beef01');
      assert.equal(a?.access, 'restricted');
      assert.deepEqual(a?.roles, ['staff']);
      assert.equal(a?.title, 'A page');
      assert.equal(byPath.get('b.markdown')?.markdown, true);
      assert.equal(byPath.get('files/logo.svg')?.markdown, false);
      assert.equal(byPath.get('files/logo.svg')?.id, idOf('files/logo.svg'));
    } finally {
      await cache.close();
      root.remove();
    }
  });

  test('a root that does not exist is an io-failed error', () => {
    assert.throws(() => new PageMetaCache({ root: '/nonexistent/waymark-root' }), {
      name: 'WaymarkError',
      code: 'io-failed',
    });
  });
});
