import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { marked, type Token } from 'marked';
import { firstHeading, headingText, MAX_HEADING_LENGTH } from './first-heading.ts';
import { splitFrontMatter } from './front-matter.ts';
import { assemblePage, renderMarkdownBody } from './render-markdown.ts';

/** Markdown, and the first heading a reader sees in it (null: none). */
const HEADINGS: [markdown: string, heading: string | null][] = [
  ['# Title\n', 'Title'],
  ['Intro\n\n## The *first* one\n', 'The first one'],
  ['Title\n=====\n', 'Title'],
  ['Two\nlines\n---\n', 'Two lines'],
  ['text\n-\n', 'text'],
  ['```\n# not\n```\n# Yes\n', 'Yes'],
  ['~~~~\n# not\n~~~\n# still code\n~~~~\n# Yes', 'Yes'],
  ['``` js\n# not\n```\n\nYes\n===\n', 'Yes'],
  ['    # code\n\n# Yes\n', 'Yes'],
  ['\t# code\n\n# Yes\n', 'Yes'],
  ['   # three spaces\n', 'three spaces'],
  ['> # quoted\n\n# Yes\n', 'Yes'],
  ['> quote\nlazy\n---\n\n# Yes\n', 'Yes'],
  ['- # item\n\n# Yes\n', 'Yes'],
  ['- a\n\n  # in the item\n\n# Yes\n', 'Yes'],
  ['- a\n---\n\n# Yes\n', 'Yes'],
  ['1. one\n2. two\n\nPara\n===\n', 'Para'],
  ['<!--\n# hidden\n-->\n# Yes\n', 'Yes'],
  ['<!-- one line -->\n# Yes\n', 'Yes'],
  ['<div>\n# inside\n</div>\n\n# Yes\n', 'Yes'],
  ['<script>\n# x\n\n# y\n</script>\n# Yes\n', 'Yes'],
  ['<custom-tag>\n# inside\n\n# Yes\n', 'Yes'],
  ['| a | b |\n|---|---|\n| c | d |\n\n# Yes\n', 'Yes'],
  ['---\n\ntext\n', null],
  ['#hashtag\n', null],
  ['#\n\n# Real\n', 'Real'],
  ['# Title #\n', 'Title'],
  ['# Title ##   \n', 'Title'],
  ['\r\n# CRLF\r\n', 'CRLF'],
  ['', null],
  ['Just text.\n', null],
  ['# [Link](https://x.example) and ![img](y.png) `code` \\*star\\*\n', 'Link and img code *star*'],
  ['# a &amp; b &#65; &#x42; &bogus;\n', 'a & b A B &bogus;'],
  ['# snake_case_name __bold__ ~~gone~~\n', 'snake_case_name bold gone'],
  ['# <b>bold</b> <https://example.com>\n', 'bold https://example.com'],
  ['# a\u0001b\u009bc\n', 'a b c'],
  ['# <script>alert(1)</script>\n', 'alert(1)'],
  ['# 1 < 2 > 0\n', '1 < 2 > 0'],
  ['# See [Foo](https://en.wikipedia.org/wiki/Foo_(bar)) now\n', 'See Foo now'],
  ['# Foo_(bar) and _emphasis_ and ___all___\n', 'Foo_(bar) and emphasis and all'],
  ['# _ a lone mark_ and file_name_\n', '_ a lone mark_ and file_name_'],
];

/** What marked itself makes the first top-level heading (the page's own structure). */
function markedHeading(markdown: string): string | null {
  for (const token of marked.lexer(markdown) as Token[]) {
    if (token.type === 'heading') {
      const text = headingText(token.text as string);
      if (text !== '') return text;
    }
  }
  return null;
}

describe('firstHeading: the first top-level heading, as marked renders it', () => {
  for (const [markdown, heading] of HEADINGS) {
    test(JSON.stringify(markdown), () => {
      assert.equal(firstHeading(markdown), heading);
      assert.equal(markedHeading(markdown), heading, 'marked agrees');
    });
  }

  test('a long heading is cut to MAX_HEADING_LENGTH code points, ending in an ellipsis', () => {
    const heading = firstHeading(`# ${'\u{1F600}'.repeat(500)}\n`) ?? '';
    assert.equal(Array.from(heading).length, MAX_HEADING_LENGTH);
    assert.ok(heading.endsWith('\u{1F600}…'));
  });

  test('linear: megabytes of lines that make regular expressions backtrack', {
    timeout: 30_000,
  }, () => {
    const MB = 1024 * 1024;
    const shapes = [
      `# ${'[a'.repeat(2 * MB)}\n`,
      `# ${'[a](b'.repeat(MB)}\n`,
      `# ${'_a'.repeat(2 * MB)}\n`,
      `# ${'<a '.repeat(MB)}\n`,
      `${'* '.repeat(2 * MB)}x\n`,
      `<a ${'>'.repeat(4 * MB)}\n`,
      '- a\n'.repeat(MB),
      '> a\n'.repeat(MB),
      `${'x'.repeat(4 * MB)}\n---\n`,
      '<!--\n'.repeat(MB),
    ];
    for (const markdown of shapes) firstHeading(markdown);
  });

  test('the page title takes no time on a heading of 400 KB of link syntax', {
    timeout: 30_000,
  }, () => {
    // The title is made on the main thread per request: the former cleaner took time
    // quadratic in the heading's length (minutes for this one; marked itself needs 0.2 s).
    const rendered = renderMarkdownBody(`# ${'[a'.repeat(200_000)}\n`);
    const page = assemblePage(
      rendered,
      { title: null, canonicalUrl: 'https://example.com/', noindex: false },
      () => undefined,
    );
    assert.match(page, /<title>(?:\[a){99}\[…<\/title>/);
  });
});

/** Text, and the front matter and body it splits into. */
const FRONT_MATTER: [text: string, frontMatter: string | null, body: string][] = [
  ['---\ntitle: x\n---\n# Hello\n', 'title: x\n', '# Hello\n'],
  ['\uFEFF---\r\ntitle: x\r\n---\r\n# Hi', 'title: x\r\n', '# Hi'],
  ['---\ntitle: x\n...\nbody', 'title: x\n', 'body'],
  ['---\n---\nbody', '', 'body'],
  ['---\na: b\n---', 'a: b\n', ''],
  ['---   \na: b\n---\t\nbody', 'a: b\n', 'body'],
  ['---\n\ntext\n---\n', null, '---\n\ntext\n---\n'],
  ['---\ntitle: x\n# no end\n', null, '---\ntitle: x\n# no end\n'],
  ['text\n---\na: b\n---\n', null, 'text\n---\na: b\n---\n'],
  [' ---\na: b\n---\n', null, ' ---\na: b\n---\n'],
  ['----\na: b\n----\n', null, '----\na: b\n----\n'],
  ['---', null, '---'],
  ['\uFEFF# Title\n', null, '# Title\n'],
];

describe('splitFrontMatter: YAML front matter at the top is not part of the page', () => {
  for (const [text, frontMatter, body] of FRONT_MATTER) {
    test(JSON.stringify(text), () => {
      assert.deepEqual(splitFrontMatter(text), { frontMatter, body });
    });
  }

  test('a byte order mark does not hide the heading', () => {
    const rendered = renderMarkdownBody('\uFEFF# Title\n');
    assert.equal(rendered.heading, 'Title');
    assert.equal(rendered.body, '<h1>Title</h1>\n');
  });

  test('renderMarkdownBody leaves it out, and the heading comes after it', () => {
    const rendered = renderMarkdownBody('---\ntitle: Secret draft\ntags: [a]\n---\n# Hello\n');
    assert.equal(rendered.heading, 'Hello');
    assert.equal(rendered.body, '<h1>Hello</h1>\n');
  });
});
