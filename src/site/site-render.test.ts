// Markdown rendering is bounded: it runs in worker threads, so robots.txt and the sitemap
// answer while a costly page renders; each version of a file is rendered once; and a page
// past the time limit is stopped and answered 503 instead of holding a core for minutes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, startSiteServer } from './index.ts';
import { renderCounter } from './internal/render-pool.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

/** `*a` repeated: marked takes time quadratic in its length (100 KB: seconds). */
const pathological = (bytes: number): string => '*a'.repeat(bytes / 2);

describe('rendering Markdown', () => {
  test('robots.txt and the sitemap answer while a costly page renders; the page is rendered once', async (t) => {
    const root = makeContentRoot({
      'slow.md': pathological(100_000),
      'plain.md': '# Plain\n\nSee [slow](slow.md).\n',
    });
    t.after(() => root.remove());
    // A limit far above what the page needs: this test is about waiting, not stopping.
    const server = await startSiteServer({ root: root.dir, port: 0, renderTimeoutMs: 600_000 });
    try {
      const url = `${server.origin}/id/${idOf('slow.md')}`;
      const before = renderCounter.started;
      let done = false;
      const page = fetch(url).then(async (response) => {
        const text = await response.text();
        done = true;
        return { status: response.status, text };
      });
      // Until the page is done, robots.txt and the sitemap one after the other. Were the
      // rendering on the main thread, none could answer while it runs.
      let answered = 0;
      while (!done) {
        for (const path of ['/robots.txt', '/sitemap.xml']) {
          const response = await fetch(server.origin + path);
          assert.equal(response.status, 200);
          await response.arrayBuffer();
          if (!done) answered++;
        }
      }
      const first = await page;
      assert.equal(first.status, 200);
      assert.match(first.text, /<em>a/);
      assert.ok(answered >= 20, `only ${answered} answers while the page rendered`);
      assert.equal(renderCounter.started - before, 1);
      // The same version of the file: from the cache, not rendered again.
      const again = await fetch(url);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), first.text);
      assert.equal(renderCounter.started - before, 1);
      // A new version is rendered anew, and links are decided per request from the cache.
      writeFileSync(root.path('slow.md'), '# Fast now\n');
      assert.match(await (await fetch(url)).text(), /<h1>Fast now<\/h1>/);
      assert.equal(renderCounter.started - before, 2);
      const plain = `${server.origin}/id/${idOf('plain.md')}`;
      assert.match(await (await fetch(plain)).text(), /<a href="\/id\/[0-9a-f]+">slow<\/a>/);
      writeFileSync(root.path('slow.md.meta.yaml'), 'access: deny\n');
      assert.match(await (await fetch(plain)).text(), /<p>See slow\.<\/p>/);
      assert.equal(renderCounter.started - before, 3, 'plain.md itself was rendered once');
    } finally {
      await server.close();
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
