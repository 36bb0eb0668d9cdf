// The listing at `/` and the names of pages, through the handler (the browser tests in
// site-pages-browser.test.ts check what a person sees of the same).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, type SiteHandler } from './index.ts';
import { makeContentRoot, siteRequest } from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

/** The listing's groups: folder heading ('' for the top) and link texts, in order. */
async function listing(handler: SiteHandler): Promise<[string, string[]][]> {
  const response = await handler(siteRequest('/'));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-robots-tag'), 'noindex');
  const html = await response.text();
  return [
    ...html.matchAll(
      /<section>\n(?:<h2 class="folder">([^<]*)<\/h2>\n)?<ul[^>]*>\n([\s\S]*?)\n<\/ul>/g,
    ),
  ].map((m) => [
    m[1] ?? '',
    [...(m[2] ?? '').matchAll(/<a href="[^"]*">([^<]*)<\/a>/g)].map((a) => a[1] ?? ''),
  ]);
}

async function titleOf(handler: SiteHandler, path: string): Promise<string> {
  const html = await (await handler(siteRequest(`/id/${idOf(path)}`))).text();
  return /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
}

describe('the listing at / of a served root', () => {
  for (const revalidate of ['watch', 'stat'] as const) {
    test(`names: sidecar title, first heading, file name; a new heading shows (${revalidate})`, async (t) => {
      const root = makeContentRoot({
        'b.md': '# Bravo\n',
        'a.md': 'Intro.\n\nAlpha *one*\n---\n',
        'titled.md': '# Heading loses\n',
        'titled.md.meta.yaml': `title: "Sidecar\\u0007\\t wins"\n`,
        'plain.markdown': 'No heading here.\n',
        'fm.md': '---\ntitle: Not this\n---\n# After the front matter\n',
        'docs/z/deep.md': '# Deep\n',
        'docs/guide.md': '# Guide\n',
        'Docs2/x.md': '# X\n',
        'hidden/quiet.md': '# Quiet\n',
        'hidden/quiet.md.meta.yaml': 'noindex: true\n',
        'hidden/staff.md': '# Staff\n',
        'hidden/staff.md.meta.yaml': 'access: restricted\n',
        'file.txt': 'not Markdown\n',
      });
      t.after(() => root.remove());
      const handler = createSiteHandler({ root: root.dir, serveDocuments: true, revalidate });
      try {
        assert.deepEqual(await listing(handler), [
          ['', ['After the front matter', 'Alpha one', 'Bravo', 'plain', 'Sidecar wins']],
          ['docs/', ['Guide']],
          ['docs/z/', ['Deep']],
          ['Docs2/', ['X']],
        ]);
        // Each page's <title> names it as the listing does.
        assert.equal(await titleOf(handler, 'plain.markdown'), 'plain');
        assert.equal(await titleOf(handler, 'a.md'), 'Alpha one');
        assert.equal(await titleOf(handler, 'titled.md'), 'Sidecar wins');
        assert.equal(await titleOf(handler, 'fm.md'), 'After the front matter');
        writeFileSync(root.path('b.md'), '# Charlie\n');
        const [top] = await listing(handler);
        assert.deepEqual(top?.[1], [
          'After the front matter',
          'Alpha one',
          'Charlie',
          'plain',
          'Sidecar wins',
        ]);
        const head = await handler(siteRequest('/', { method: 'HEAD' }));
        assert.equal(head.status, 200);
        assert.ok(Number(head.headers.get('content-length')) > 0);
      } finally {
        await handler.close();
      }
    });
  }

  test('an empty root says so; a heading written as markup stays text', async (t) => {
    const root = makeContentRoot({});
    t.after(() => root.remove());
    const handler = createSiteHandler({ root: root.dir, serveDocuments: true });
    try {
      assert.match(
        await (await handler(siteRequest('/'))).text(),
        /<p>No page is listed yet\.<\/p>/,
      );
      writeFileSync(root.path('x.md'), '# \\<img src=x onerror=alert(1)\\> &lt;b&gt; "q"\n');
      const html = await (await handler(siteRequest('/'))).text();
      assert.match(
        html,
        /<a href="\/id\/[0-9a-f]+">&lt;img src=x onerror=alert\(1\)&gt; &lt;b&gt; &quot;q&quot;<\/a>/,
      );
      assert.doesNotMatch(html, /<img|<b>/);
    } finally {
      await handler.close();
    }
  });
});
