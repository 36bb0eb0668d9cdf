// Markdown rendering is bounded: it runs in worker threads, so robots.txt and the sitemap
// answer while a costly page renders; each version of a file is rendered once; and a page
// past the time limit is stopped and answered 503 instead of holding a core for minutes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, startSiteServer } from './index.ts';
import { renderCounter } from './internal/render-pool.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

/** How many open file descriptors of this process lead to `path` (Linux). */
function openDescriptorsOf(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // Closed since the listing.
    }
  }
  return count;
}

/** Waits for `condition`, checking every 20 ms; fails after 20 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) assert.fail('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `*a` repeated: marked takes time quadratic in its length (100 KB: seconds). */
const pathological = (bytes: number): string => '*a'.repeat(bytes / 2);

describe('rendering Markdown', () => {
  test('robots.txt and the sitemap answer while a page renders for minutes', async (t) => {
    // 300 KB of `*a` keeps marked busy for minutes: whatever the machine, it cannot finish
    // before ten small requests do, unless it blocks them (as it did on the main thread).
    const root = makeContentRoot({ 'slow.md': pathological(300_000) });
    t.after(() => root.remove());
    const server = await startSiteServer({ root: root.dir, port: 0, renderTimeoutMs: 600_000 });
    try {
      let done = false;
      const page = fetch(`${server.origin}/id/${idOf('slow.md')}`)
        .then((response) => response.arrayBuffer())
        .catch(() => undefined)
        .finally(() => {
          done = true;
        });
      for (let i = 0; i < 5; i++) {
        for (const path of ['/robots.txt', '/sitemap.xml']) {
          const response = await fetch(server.origin + path);
          assert.equal(response.status, 200);
          await response.arrayBuffer();
        }
      }
      assert.equal(done, false, 'ten answers came while the page was still rendering');
      await server.close();
      await page;
    } finally {
      await server.close();
    }
  });

  test('requests waiting on a rendering hold no open file each', async (t) => {
    const root = makeContentRoot({ 'slow.md': pathological(300_000) });
    t.after(() => root.remove());
    const failures: { path: string; message: string }[] = [];
    const handler = createSiteHandler({
      root: root.dir,
      serveDocuments: true,
      renderTimeoutMs: 600_000,
      onRenderFailure: (failure) => failures.push(failure),
    });
    try {
      const url = `/id/${idOf('slow.md')}`;
      const before = renderCounter.started;
      const first = handler(siteRequest(url));
      await until(() => renderCounter.started > before);
      // Fifty more requests for the page: they join the rendering under way, and none keeps
      // the file open while it waits (nor does the first, once it has read the text).
      const joined = renderCounter.joined;
      const waiting = Array.from({ length: 50 }, () => handler(siteRequest(url)));
      await until(() => renderCounter.joined - joined === 50);
      await until(() => openDescriptorsOf(root.path('slow.md')) === 0);
      assert.equal(renderCounter.started - before, 1, 'one rendering for all of them');
      await handler.close();
      for (const response of await Promise.all([first, ...waiting])) {
        assert.equal(response.status, 500);
        // What failed inside is the operator's to read, never the client's.
        assert.equal(
          await response.text(),
          'The page cannot be shown: the page could not be rendered\n',
        );
      }
      // The cause is the operator's: told through the hook, once per answer.
      assert.equal(failures.length, 51);
      assert.deepEqual(failures[0], { path: 'slow.md', message: 'the site handler is closed' });
    } finally {
      await handler.close();
    }
  });

  test('each version of a file is rendered once; links are decided per request', async (t) => {
    const root = makeContentRoot({
      'page.md': '# Page\n\n*one*\n',
      'plain.md': '# Plain\n\nSee [page](page.md).\n',
    });
    t.after(() => root.remove());
    const handler = createSiteHandler({ root: root.dir, serveDocuments: true });
    try {
      const url = `/id/${idOf('page.md')}`;
      const before = renderCounter.started;
      const first = await (await handler(siteRequest(url))).text();
      assert.match(first, /<em>one<\/em>/);
      // The same version of the file: from the cache, not rendered again.
      assert.equal(await (await handler(siteRequest(url))).text(), first);
      assert.equal(renderCounter.started - before, 1);
      // A new version is rendered anew.
      writeFileSync(root.path('page.md'), '# Changed\n');
      assert.match(await (await handler(siteRequest(url))).text(), /<h1>Changed<\/h1>/);
      assert.equal(renderCounter.started - before, 2);
      // plain.md is rendered once; its link to page.md is decided per request.
      const plain = `/id/${idOf('plain.md')}`;
      assert.match(
        await (await handler(siteRequest(plain))).text(),
        /<a href="\/id\/[0-9a-f]+">page<\/a>/,
      );
      writeFileSync(root.path('page.md.meta.yaml'), 'access: deny\n');
      assert.match(await (await handler(siteRequest(plain))).text(), /<p>See page\.<\/p>/);
      assert.equal(renderCounter.started - before, 3, 'plain.md itself was rendered once');
    } finally {
      await handler.close();
    }
  });

  test('past the time limit: 503, the worker is stopped, and the failure is kept until the file changes', async (t) => {
    const root = makeContentRoot({
      // Minutes of work for marked: only the time limit ends it.
      'slow.md': pathological(300_000),
      'plain.md': '# Plain\n',
    });
    t.after(() => root.remove());
    const handler = createSiteHandler({
      root: root.dir,
      serveDocuments: true,
      renderTimeoutMs: 1000,
    });
    try {
      const before = renderCounter.started;
      const slow = siteRequest(`/id/${idOf('slow.md')}`);
      const stopped = await handler(slow);
      assert.equal(stopped.status, 503);
      assert.match(await stopped.text(), /longer than 1000 ms/);
      const again = await handler(siteRequest(`/id/${idOf('slow.md')}`));
      assert.equal(again.status, 503);
      assert.equal(renderCounter.started - before, 1, 'not rendered a second time');
      // Other pages still render (in a new worker), and robots.txt never waited.
      const plain = await handler(siteRequest(`/id/${idOf('plain.md')}`));
      assert.equal(plain.status, 200);
      writeFileSync(root.path('slow.md'), '# Fixed\n');
      const fixed = await handler(siteRequest(`/id/${idOf('slow.md')}`));
      assert.equal(fixed.status, 200);
      assert.match(await fixed.text(), /<h1>Fixed<\/h1>/);
    } finally {
      await handler.close();
    }
  });

  test('renderTimeoutMs must be a positive number', (t) => {
    const root = makeContentRoot({});
    t.after(() => root.remove());
    for (const renderTimeoutMs of [0, -1, Number.NaN]) {
      assert.throws(() => createSiteHandler({ root: root.dir, renderTimeoutMs }), {
        code: 'invalid-argument',
      });
    }
  });
});
