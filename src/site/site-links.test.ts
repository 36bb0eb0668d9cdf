// Access belongs to the file, not to the name it is reached by: a link (or a hard link) to
// a denied or restricted document gets that document's access; a link to a file that is no
// document (hidden, a sidecar, the configuration) is nothing; and what is served is the
// file the index describes, checked after it is opened, even while the disk changes.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { linkSync, symlinkSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, startSiteServer } from './index.ts';
import { locs, makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

describe('links to documents', () => {
  test('a link gets the access of the file it leads to; links to non-documents are not documents', async (t) => {
    const root = makeContentRoot({
      'secret.md': '# TOPSECRET-DENIED\n',
      'secret.md.meta.yaml': 'access: deny\n',
      'staff.md': '# TOPSECRET-STAFF\n',
      'staff.md.meta.yaml': 'access: restricted\nroles: [staff]\n',
      'quiet.md': '# Quiet\n',
      'quiet.md.meta.yaml': 'noindex: true\n',
      'public.md': '# Public\n',
      '.env': 'TOKEN=TOPSECRET-ENV\n',
      'waymark.site.yaml': '# TOPSECRET-CONFIG\nadminPath: cms/\n',
    });
    t.after(() => root.remove());
    symlinkSync(root.path('secret.md'), root.path('to-secret.md'));
    symlinkSync('staff.md', root.path('to-staff.md'));
    symlinkSync(root.path('quiet.md'), root.path('to-quiet.md'));
    symlinkSync(root.path('public.md'), root.path('to-public.md'));
    symlinkSync(root.path('.env'), root.path('env.txt'));
    symlinkSync(root.path('waymark.site.yaml'), root.path('config.txt'));
    symlinkSync(root.path('staff.md.meta.yaml'), root.path('sidecar.txt'));
    linkSync(root.path('secret.md'), root.path('hard-secret.md'));
    for (const revalidate of ['watch', 'stat'] as const) {
      const handler = createSiteHandler({ root: root.dir, revalidate, serveDocuments: true });
      try {
        const sitemap = await (await handler(siteRequest('/sitemap.xml'))).text();
        assert.deepEqual(
          locs(sitemap).sort(),
          [`/id/${idOf('public.md')}`, `/id/${idOf('to-public.md')}`]
            .map((path) => `https://example.com${path}`)
            .sort(),
        );
        const STATUS: [path: string, status: number][] = [
          ['to-secret.md', 404],
          ['hard-secret.md', 404],
          ['to-staff.md', 403],
          ['env.txt', 404],
          ['config.txt', 404],
          ['sidecar.txt', 404],
          ['to-public.md', 200],
        ];
        for (const [path, status] of STATUS) {
          const response = await handler(siteRequest(`/id/${idOf(path)}`));
          assert.equal(response.status, status, `${revalidate}: ${path}`);
          assert.doesNotMatch(await response.text(), /TOPSECRET/, path);
        }
        const diagnostics = await handler.diagnostics();
        for (const path of ['to-secret.md', 'hard-secret.md', 'to-staff.md', 'to-quiet.md']) {
          const why = diagnostics.find((d) => d.path === path);
          assert.equal(why?.code, 'same-file', path);
        }
        assert.match(
          diagnostics.find((d) => d.path === 'to-secret.md')?.message ?? '',
          /the same file as "hard-secret\.md", "secret\.md": access deny applies here too/,
        );
        const quiet = await handler(siteRequest(`/id/${idOf('to-quiet.md')}`));
        assert.equal(quiet.headers.get('x-robots-tag'), 'noindex');
        assert.doesNotMatch(await (await handler(siteRequest('/'))).text(), /TOPSECRET/);
      } finally {
        await handler.close();
      }
    }
  });
});

/**
 * A child process that keeps swapping each of `names` in `root` for a link to `outside`
 * and back (both atomic renames, through hidden names that are no documents), until killed.
 */
function startSwapping(root: string, names: readonly string[], outside: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const [root, outside, ...names] = process.argv.slice(1);
    const originals = names.map((name) => fs.readFileSync(path.join(root, name)));
    for (;;) {
      names.forEach((name, i) => {
        const target = path.join(root, name);
        const link = path.join(root, '.swap-link-' + i);
        const copy = path.join(root, '.swap-copy-' + i);
        fs.rmSync(link, { force: true });
        fs.symlinkSync(outside, link);
        fs.renameSync(link, target);
        fs.writeFileSync(copy, originals[i]);
        fs.renameSync(copy, target);
      });
    }`;
  return spawn(process.execPath, ['-e', script, root, outside, ...names], { stdio: 'ignore' });
}

describe('a document swapped for a link out of the root while requests are in flight', () => {
  test('the outside file is never served', async (t) => {
    const outside = makeContentRoot({ 'outside.txt': '# OUTSIDE-SECRET\n' });
    t.after(() => outside.remove());
    const root = makeContentRoot({
      'doc.txt': 'public text\n',
      'page.md': '# Public page\n',
      'other.md': '# Other\n',
    });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0 });
    const swapper = startSwapping(root.dir, ['doc.txt', 'page.md'], outside.path('outside.txt'));
    const exited = new Promise((resolve) => swapper.once('exit', resolve));
    const seen = new Map<string, number>();
    try {
      const urls = ['doc.txt', 'page.md'].map((path) => `${server.origin}/id/${idOf(path)}`);
      let leaks = 0;
      let served = 0;
      let broken = 0;
      // 16 clients, 150 requests each.
      await Promise.all(
        Array.from({ length: 16 }, async (_, client) => {
          for (let i = 0; i < 150; i++) {
            let text: string;
            try {
              const response = await fetch(urls[(client + i) % 2] as string);
              text = await response.text();
              const key = String(response.status);
              seen.set(key, (seen.get(key) ?? 0) + 1);
              if (response.status === 200) served++;
            } catch {
              broken++;
              continue;
            }
            if (text.includes('OUTSIDE-SECRET')) leaks++;
          }
        }),
      );
      assert.equal(leaks, 0, `the outside file was served ${leaks} times`);
      // Served from the handle that was checked: no body cut off when the path changes.
      assert.equal(broken, 0, `${broken} responses broke off`);
      // The race was real: the documents were served between swaps (not just refused).
      assert.ok(served > 0, JSON.stringify([...seen]));
    } finally {
      swapper.kill();
      await exited;
      await server.close();
    }
  });
});
