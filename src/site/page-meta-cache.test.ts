// The PageMetaCache guarantee: a change on disk shows in the very next response. Each
// step changes files, awaits the change, and requests at once: no sleeps, many rounds,
// in both revalidation modes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  stat,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, rename, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  createSiteHandler,
  PageMetaCache,
  type RevalidateMode,
  type SiteHandler,
  toNodeListener,
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

    test('a folder renamed away and back, with changes made inside it meanwhile', async () => {
      for (let i = 0; i < ROUNDS; i++) {
        await mkdir(root.path(`round-${i}/sub`), { recursive: true });
        await writeFile(root.path(`round-${i}/sub/a.md`), '# A\n');
        await expectListed(handler, `/id/${idOf(`round-${i}/sub/a.md`)}`);
        // Away, edited and added to under the other name, and back, between two requests.
        await rename(root.path(`round-${i}`), root.path(`away-${i}`));
        await writeFile(root.path(`away-${i}/sub/b.md`), '# B\n');
        await utimes(root.path(`away-${i}/sub/a.md`), 1_500_000_000 + i, 1_500_000_000 + i);
        await rename(root.path(`away-${i}`), root.path(`round-${i}`));
        await expectListed(handler, `/id/${idOf(`round-${i}/sub/a.md`)}`, iso(1_500_000_000 + i));
        await expectListed(handler, `/id/${idOf(`round-${i}/sub/b.md`)}`);
        await expectAbsent(handler, `/id/${idOf(`away-${i}/sub/b.md`)}`);
        // Still watched under its own name after the round trip.
        await writeFile(root.path(`round-${i}/sub/c.md`), '# C\n');
        await expectListed(handler, `/id/${idOf(`round-${i}/sub/c.md`)}`);
        await rm(root.path(`round-${i}`), { recursive: true });
        await expectAbsent(handler, `/id/${idOf(`round-${i}/sub/c.md`)}`);
      }
    });

    test("an editor's atomic save (temp file renamed over) of a document and a sidecar", async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const doc = root.path(`saved-${i}.md`);
        await writeFile(doc, '# One\n');
        await writeFile(`${doc}.meta.yaml`, `alias: saved/a${i}\n`);
        await expectListed(handler, `/saved/a${i}`);
        const t = 1_650_000_000 + i;
        await utimes(`${doc}.meta.yaml`, t - 100, t - 100);
        // Temp files beside the target, as editors write them: a hidden one and a plain one.
        await writeFile(root.path(`.saved-${i}.md.swp`), '# Two\n');
        await utimes(root.path(`.saved-${i}.md.swp`), t, t);
        await rename(root.path(`.saved-${i}.md.swp`), doc);
        await expectListed(handler, `/saved/a${i}`, iso(t));
        await writeFile(root.path(`saved-${i}.md.meta.yaml.tmp`), `alias: saved/b${i}\n`);
        await rename(root.path(`saved-${i}.md.meta.yaml.tmp`), `${doc}.meta.yaml`);
        await expectListed(handler, `/saved/b${i}`);
        await expectAbsent(handler, `/saved/a${i}`);
        const response = await handler(siteRequest(`/id/${idOf(`saved-${i}.md.meta.yaml.tmp`)}`));
        assert.equal(response.status, 404, 'the temp file is gone from the index too');
        await unlink(doc);
        await unlink(`${doc}.meta.yaml`);
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

/** A copy of the folder `from` at `to`, every file a hard link (as `cp -al` and rsync's --link-dest deploy). */
function linkCopy(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) linkCopy(join(from, entry.name), join(to, entry.name));
    else linkSync(join(from, entry.name), join(to, entry.name));
  }
}

for (const mode of ['watch', 'stat'] as const satisfies readonly RevalidateMode[]) {
  describe(`a deploy that puts another folder at the root's path (${mode})`, () => {
    test('a new tree renamed into place, files hard-linked: its access and documents count at once', async () => {
      const base = makeContentRoot({
        'site/about.md': '# About\n',
        'site/about.md.meta.yaml': 'alias: about\n',
      });
      const site = base.path('site');
      const handler = createSiteHandler({ root: site, revalidate: mode, serveDocuments: true });
      try {
        assert.equal((await handler(siteRequest('/about'))).status, 200);
        for (let i = 0; i < 3; i++) {
          const next = base.path(`site.new-${i}`);
          linkCopy(site, next);
          // The sidecar is replaced, not edited: its old inode stays with the old tree.
          rmSync(join(next, 'about.md.meta.yaml'));
          writeFileSync(
            join(next, 'about.md.meta.yaml'),
            `alias: about\n${i % 2 === 0 ? 'access: deny\n' : ''}`,
          );
          writeFileSync(join(next, `new-${i}.md`), '# New\n');
          await rename(site, base.path(`site.old-${i}`));
          await rename(next, site);
          const denied = i % 2 === 0;
          assert.equal(
            (await handler(siteRequest('/about'))).status,
            denied ? 404 : 200,
            `round ${i}`,
          );
          const map = await sitemap(handler);
          assert.equal(map.has(`${ORIGIN}/about`), !denied, `round ${i}: /about listed`);
          assert.ok(
            map.has(`${ORIGIN}/id/${idOf(`new-${i}.md`)}`),
            `round ${i}: new-${i}.md listed`,
          );
          // The old tree changing no longer matters.
          writeFileSync(base.path(`site.old-${i}/old-only.md`), '# Old\n');
          assert.ok(!(await sitemap(handler)).has(`${ORIGIN}/id/${idOf('old-only.md')}`));
        }
      } finally {
        await handler.close();
        base.remove();
      }
    });

    test('a root given as a link switched to another release', async () => {
      const base = makeContentRoot({
        'releases/v1/about.md': '# About\n',
        'releases/v1/about.md.meta.yaml': 'alias: about\n',
        'releases/v2/about.md': '# About\n',
        'releases/v2/about.md.meta.yaml': 'alias: about\naccess: deny\n',
        'releases/v2/v2-only.md': '# Two\n',
      });
      const current = base.path('current');
      symlinkSync('releases/v1', current);
      const handler = createSiteHandler({ root: current, revalidate: mode, serveDocuments: true });
      try {
        assert.equal((await handler(siteRequest('/about'))).status, 200);
        for (const [release, status] of [
          ['v2', 404],
          ['v1', 200],
          ['v2', 404],
        ] as const) {
          symlinkSync(`releases/${release}`, base.path('current.tmp'));
          await rename(base.path('current.tmp'), current);
          assert.equal((await handler(siteRequest('/about'))).status, status, release);
          const listed = (await sitemap(handler)).has(`${ORIGIN}/id/${idOf('v2-only.md')}`);
          assert.equal(listed, release === 'v2', release);
        }
        // Between the two renames of a deploy the root may be gone: nothing is answered
        // from the index of a folder that is no longer the root.
        await unlink(current);
        assert.equal((await handler(siteRequest('/about'))).status, 500);
        assert.equal((await handler(siteRequest('/sitemap.xml'))).status, 500);
        symlinkSync('releases/v1', current);
        assert.equal((await handler(siteRequest('/about'))).status, 200);
      } finally {
        await handler.close();
        base.remove();
      }
    });
  });
}

describe('a root replaced while a read of the old one is under way', () => {
  for (const mode of ['watch', 'stat'] as const satisfies readonly RevalidateMode[]) {
    test(`no read ever sees a half-read new root (${mode})`, async () => {
      const base = makeContentRoot();
      const release = (name: string) => {
        mkdirSync(base.path(name));
        for (let i = 0; i < 300; i++) writeFileSync(base.path(`${name}/p${i}.md`), `# ${i}\n`);
      };
      release('v0');
      symlinkSync('v0', base.path('current'));
      const cache = new PageMetaCache({ root: base.path('current'), revalidate: mode });
      try {
        assert.equal((await cache.snapshot()).pages.length, 300);
        for (let round = 1; round <= 5; round++) {
          // A read with work to do on the old release, then the switch (atomic: a link
          // renamed over the root's), then another read.
          writeFileSync(base.path(`v${round - 1}/p0.md`), `# changed ${round}\n`);
          const during = cache.snapshot();
          await new Promise((resolve) => setImmediate(resolve));
          await new Promise((resolve) => setImmediate(resolve));
          release(`v${round}`);
          symlinkSync(`v${round}`, base.path('next'));
          await rename(base.path('next'), base.path('current'));
          const after = cache.snapshot();
          for (const snapshot of await Promise.all([during, after])) {
            assert.equal(snapshot.pages.length, 300, `round ${round}: a whole release`);
          }
          assert.equal((await cache.snapshot()).pages.length, 300);
        }
      } finally {
        await cache.close();
        base.remove();
      }
    });
  }
});

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

describe('a change made by another process right before its request', () => {
  test('shows in that response, every time, over HTTP on 127.0.0.1', async () => {
    const root = makeContentRoot({ 'home.md': '# Home\n' });
    const handler = createSiteHandler({ root: root.dir, revalidate: 'watch' });
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The child writes, edits, renames and removes, each followed at once by a request.
    const child = `
      const { writeFileSync, renameSync, unlinkSync, utimesSync } = require('node:fs');
      const { join } = require('node:path');
      const { createHash } = require('node:crypto');
      const [root, port] = process.argv.slice(1);
      const id = (p) => createHash('sha256').update(p).digest('hex').slice(0, 16);
      const sitemap = async () => (await fetch('http://127.0.0.1:' + port + '/sitemap.xml')).text();
      (async () => {
        for (let i = 0; i < ${ROUNDS}; i++) {
          writeFileSync(join(root, 'p-' + i + '.md'), '# P');
          if (!(await sitemap()).includes('/id/' + id('p-' + i + '.md') + '<')) throw new Error('add ' + i);
          utimesSync(join(root, 'p-' + i + '.md'), 1e9 + i, 1e9 + i);
          const stamp = new Date((1e9 + i) * 1000).toISOString().slice(0, 19) + 'Z';
          if (!(await sitemap()).includes(stamp)) throw new Error('utimes ' + i);
          renameSync(join(root, 'p-' + i + '.md'), join(root, 'q-' + i + '.md'));
          const renamed = await sitemap();
          if (!renamed.includes(id('q-' + i + '.md')) || renamed.includes(id('p-' + i + '.md'))) throw new Error('rename ' + i);
          unlinkSync(join(root, 'q-' + i + '.md'));
          if ((await sitemap()).includes(id('q-' + i + '.md'))) throw new Error('remove ' + i);
        }
        process.stdout.write('ok');
      })().catch((e) => { process.stdout.write(String(e)); process.exitCode = 1; });
    `;
    try {
      const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const proc = spawn(process.execPath, ['-e', child, root.dir, String(port)]);
        let out = '';
        proc.stdout.on('data', (chunk) => {
          out += chunk;
        });
        proc.on('close', (code) => resolve({ code, out }));
      });
      assert.deepEqual(result, { code: 0, out: 'ok' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
      root.remove();
    }
  });
});
