import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderListingPage } from './listing-page.ts';
import { assemblePage, isScriptUrl, renderMarkdownBody } from './render-markdown.ts';

const PARTS = { title: null, canonicalUrl: 'https://example.com/a', noindex: false };

/** The `<main>` of a rendered page (the document's own HTML), links kept as written. */
function body(markdown: string): string {
  const page = assemblePage(renderMarkdownBody(markdown), PARTS, () => undefined);
  return page.slice(page.indexOf('<main>') + 6, page.indexOf('</main>')).trim();
}

describe('renderMarkdownBody and assemblePage: Markdown link syntax never makes a script link', () => {
  const CASES: [markdown: string, html: string][] = [
    ['[a](javascript:alert(1))', '<p>a</p>'],
    ['[a](JaVaScRiPt:alert(1))', '<p>a</p>'],
    ['[a](<java\tscript:x>)', '<p>a</p>'],
    ['[a](vbscript:x)', '<p>a</p>'],
    ['[a](data:text/html,x)', '<p>a</p>'],
    ['[a][r]\n\n[r]: javascript:x', '<p>a</p>'],
    ['<javascript:alert(1)>', '<p>javascript:alert(1)</p>'],
    ['![i](javascript:x)', '<p>i</p>'],
    ['![i](data:image/svg+xml,x)', '<p>i</p>'],
    ['![i](data:image/png;base64,AA)', '<p><img src="data:image/png;base64,AA" alt="i"></p>'],
    // Entities are not decoded in a destination here, and the href is escaped: inert.
    ['[a](&#106;avascript:x)', '<p><a href="&amp;#106;avascript:x">a</a></p>'],
    [
      '[a](https://example.com/?q="x")',
      '<p><a href="https://example.com/?q=&quot;x&quot;">a</a></p>',
    ],
    ['[a](mailto:team@example.com)', '<p><a href="mailto:team@example.com">a</a></p>'],
    ['[a](#part)', '<p><a href="#part">a</a></p>'],
    // The site owner's own raw HTML stays as written.
    ['<b onclick="x()">raw</b>', '<p><b onclick="x()">raw</b></p>'],
  ];
  for (const [markdown, html] of CASES) {
    test(JSON.stringify(markdown), () => {
      assert.equal(body(markdown), html);
    });
  }

  const URLS: [href: string, image: boolean, script: boolean][] = [
    ['javascript:x', false, true],
    [' \n javascript:x', false, true],
    ['java\u0000script:x', false, true],
    ['data:image/png;base64,AA', true, false],
    ['data:image/png;base64,AA', false, true],
    ['DATA:IMAGE/SVG+XML,x', true, true],
    ['https://example.com/javascript:x', false, false],
    ['about/javascript', false, false],
  ];
  for (const [href, image, script] of URLS) {
    test(`isScriptUrl(${JSON.stringify(href)}, ${image})`, () => {
      assert.equal(isScriptUrl(href, image), script);
    });
  }
});

describe('assemblePage and renderListingPage escape what they write', () => {
  test('title, canonical URL and listing entries', () => {
    const page = assemblePage(
      renderMarkdownBody('# x'),
      { title: '</title><script>', canonicalUrl: 'https://example.com/"><x', noindex: true },
      () => undefined,
    );
    assert.ok(!page.includes('<script>') && !page.includes('"><x'), page);
    assert.match(page, /<meta name="robots" content="noindex">/);
    const listing = renderListingPage([{ path: '<b>/x.md', href: '/a"b', title: '<i>' }]);
    assert.match(listing, /<a href="\/a&quot;b">&lt;i&gt;<\/a>/);
    assert.match(listing, /<h2 class="folder">&lt;b&gt;\/<\/h2>/);
  });
});

describe('renderMarkdownBody and assemblePage: links decided per request', () => {
  test('one rendering, assembled with different link decisions', () => {
    const rendered = renderMarkdownBody('[doc](doc.md) and ![pic](pic.png "P")\n');
    const parts = { title: null, canonicalUrl: 'https://example.com/a', noindex: false };
    const kept = assemblePage(rendered, parts, (href) => (href === 'doc.md' ? '/doc' : undefined));
    assert.match(
      kept,
      /<p><a href="\/doc">doc<\/a> and <img src="pic\.png" alt="pic" title="P"><\/p>/,
    );
    const dropped = assemblePage(rendered, parts, () => null);
    assert.match(dropped, /<p>doc and pic<\/p>/);
  });

  test("a document cannot forge a link marker, not even with an earlier rendering's nonce", () => {
    // A marker as another rendering wrote it: a document that learnt it must not reuse it.
    const rendered = renderMarkdownBody('[doc](doc.md)\n');
    const forged = `\uE000${rendered.nonce}o0\uE001 text\uE000${rendered.nonce}c0\uE001`;
    const page = assemblePage(
      renderMarkdownBody(`${forged}\n\n[doc](doc.md)\n`),
      { title: null, canonicalUrl: 'https://example.com/a', noindex: false },
      () => '/doc',
    );
    // In the document's own HTML (the page adds its link back to `/` before it).
    const main = page.slice(page.indexOf('<main>'));
    assert.equal(main.match(/<a href/g)?.length, 1);
    assert.ok(page.includes(forged), 'the text stays as written');
  });
});
