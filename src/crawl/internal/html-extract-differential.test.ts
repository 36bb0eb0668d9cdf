// HtmlExtractor (htmlparser2's Tokenizer driven by HtmlTagScanner, only the attributes it
// needs read) against its slow twin, the Parser-based extractor it replaced
// (test-support/html-extract-reference.ts): the same facts, deep-equal, on the bench site's
// pages, on the extractor's fixture documents, on seeded random mutations of both (broken
// tags, odd quotes, case, entities, duplicate attributes, comments, CDATA, raw-text and
// foreign elements, implied closes), and split into two chunks at every position.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildSite } from '../../../bench/lib/crawl-site.ts';
import { renderPage } from '../../../bench/lib/crawl-site-html.ts';
import { trimAscii } from '../../shared/html/html-values.ts';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { HtmlExtractor, type PageFacts } from './html-extract.ts';
import { ReferenceHtmlExtractor } from './test-support/html-extract-reference.ts';

const SEED = 20_261_123;
const ORIGIN = 'http://127.0.0.1:8080';
const DIR = new URL('../testdata/html/', import.meta.url);
const encoder = new TextEncoder();

interface Page {
  readonly about: string;
  readonly url: string;
  readonly bytes: Uint8Array;
  readonly contentType?: string;
}

type Extractor = new (options: {
  url: string;
  contentType?: string;
}) => { write(chunk: Uint8Array): void; end(): PageFacts };

function facts(kind: Extractor, page: Page, pieces: readonly Uint8Array[]): PageFacts {
  const options =
    page.contentType === undefined
      ? { url: page.url }
      : { url: page.url, contentType: page.contentType };
  const extractor = new kind(options);
  for (const piece of pieces) extractor.write(piece);
  return extractor.end();
}

/** Both extractors, the same pieces: the same facts. */
function assertSame(page: Page, pieces: readonly Uint8Array[], where: string): void {
  const expected = facts(ReferenceHtmlExtractor, page, pieces);
  const actual = facts(HtmlExtractor, page, pieces);
  assert.deepEqual(actual, expected, `${page.about} (${where})`);
}

function benchPages(count: number): Page[] {
  const site = buildSite(count);
  const pages: Page[] = [];
  for (const node of site.nodes.values()) {
    if (pages.length >= count) break;
    const url = ORIGIN + node.key;
    pages.push({ about: node.key, url, bytes: encoder.encode(renderPage(node, site, ORIGIN)) });
  }
  return pages;
}

function fixturePages(): Page[] {
  const { cases } = JSON.parse(readFileSync(new URL('cases.json', DIR), 'utf8')) as {
    cases: { file: string; url?: string; contentType?: string }[];
  };
  const byFile = new Map(cases.map((c) => [c.file, c]));
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.html'))
    .map((file) => {
      const c = byFile.get(file);
      const bytes = new Uint8Array(readFileSync(new URL(file, DIR)));
      const url = c?.url ?? 'https://example.com/dir/page.html';
      return c?.contentType === undefined
        ? { about: file, url, bytes }
        : { about: file, url, bytes, contentType: c.contentType };
    });
}

// Pieces of markup a mutation inserts: each one a way the tokenizer or the element stack can
// go differently.
const SNIPPETS = [
  '<a href="/x">',
  '<A HREF=/Y REL=NOFOLLOW>',
  "<a href='/q?a=1&amp;b=2&copy' href=/dup rel='nofollow' rel=x>",
  '<a href=/unquoted&lt;x&gt rel=nofollow>',
  '<a href="/a&#x2F;b&#47;c&notanentity;">',
  '<a hReF="  /trim  ">',
  '<area href="/area" rel="nofollow">',
  '<img src="/i.png" alt=" Alt  text " title=T>',
  '<image src="/image.png">',
  '<img src=/dup.png src=/second.png alt>',
  '<link rel="canonical" href="/canon">',
  '<link REL="Alternate" hreflang=" de " href="/de">',
  '<link rel=alternate type="application/rss+xml" title="Feed &amp; more" href="/feed">',
  '<meta name=robots content="noindex">',
  '<META NAME="GoogleBot" CONTENT="nofollow">',
  '<meta name="robots" content="none" name="x">',
  '<base href="/base/">',
  '<base href="mailto:x">',
  '<title>T &amp; t</title>',
  '<title>',
  '</title>',
  '<title/>x &amp; <b>y</b>&lt;z',
  '<&amp;',
  '<textarea>&amp;<a href=/t></textarea>',
  '<svg>',
  '</svg>',
  '<svg><title>in svg</title><a href="/svg-a"/><link rel=canonical href=/svg-canon>',
  '<svg><foreignObject><image src=/fo.png><title>x</title></foreignObject></svg>',
  '<math><mi><a href=/mi>',
  '</math>',
  '<template>',
  '</template>',
  '<template><a href="/inert"></template>',
  '<script>',
  '<script><a href="/in-script"></script>',
  '<style><a href="/in-style"></style>',
  '<textarea><a href="/in-textarea"></textarea>',
  '<xmp><a href=/in-xmp></xmp>',
  '<noscript><a href="/noscript"></noscript>',
  '<!-- <a href="/commented"> -->',
  '<!--',
  '-->',
  '<![CDATA[<a href="/cdata">]]>',
  '<!DOCTYPE html>',
  '<?xml version="1.0"?>',
  '<p>',
  '</p>',
  '<div>',
  '</div>',
  '<li>',
  '</li>',
  '<table><tr><td>',
  '<form><form action=/x>',
  '<form><form></form><template></form><a href=/after-nested-form>',
  '</br>',
  '<br/>',
  '<a/>',
  '</a>',
  '&amp;',
  '&lt;',
  '<',
  '>',
  '"',
  "'",
  '=',
  '/',
  ' ',
  '\n',
  '</',
  '<a href="',
  "<a href='",
  '<a href=',
];

/** `text` with a few seeded edits: a snippet inserted, a slice cut or doubled, case flipped. */
function mutate(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 6);
  for (let edit = 0; edit < edits; edit++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = Math.floor(next() * 5);
    if (kind <= 1) {
      const snippet = SNIPPETS[Math.floor(next() * SNIPPETS.length)] as string;
      out = out.slice(0, at) + snippet + out.slice(at);
    } else if (kind === 2) {
      out = out.slice(0, at) + out.slice(at + Math.floor(next() * 40));
    } else if (kind === 3) {
      const end = at + Math.floor(next() * 60);
      out = out.slice(0, end) + out.slice(at, end) + out.slice(end);
    } else {
      const end = at + Math.floor(next() * 80);
      out = out.slice(0, at) + out.slice(at, end).toUpperCase() + out.slice(end);
    }
  }
  return out;
}

/** Random pieces of `bytes`, from one byte to a few hundred. */
function randomPieces(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(next() * (next() < 0.3 ? 8 : 400));
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

const BENCH = benchPages(60);
const FIXTURES = fixturePages();

describe('HtmlExtractor gives exactly the facts of the Parser-based extractor', () => {
  test('the bench site pages, whole and in random pieces', () => {
    const next = seededRandom(SEED);
    for (const page of BENCH) {
      assertSame(page, [page.bytes], 'whole');
      assertSame(page, randomPieces(page.bytes, next), 'random pieces');
    }
  });

  test('the fixture documents, whole, byte by byte and in random pieces', () => {
    const next = seededRandom(SEED + 1);
    for (const page of FIXTURES) {
      assertSame(page, [page.bytes], 'whole');
      const bytes = Array.from({ length: page.bytes.length }, (_, i) =>
        page.bytes.subarray(i, i + 1),
      );
      assertSame(page, bytes, 'byte by byte');
      assertSame(page, randomPieces(page.bytes, next), 'random pieces');
    }
  });

  test('seeded mutations of the bench pages and the fixtures', () => {
    const next = seededRandom(SEED + 2);
    const sources = [...BENCH.slice(0, 20), ...FIXTURES];
    const decoder = new TextDecoder();
    let checked = 0;
    for (let round = 0; round < 40; round++) {
      for (const source of sources) {
        const text = mutate(decoder.decode(source.bytes), next);
        const page = {
          ...source,
          about: `${source.about} mutation ${round}`,
          bytes: encoder.encode(text),
        };
        assertSame(page, [page.bytes], 'whole');
        assertSame(page, randomPieces(page.bytes, next), 'random pieces');
        checked++;
      }
    }
    assert.ok(checked > 2_000);
  });

  test('markup made only of snippets', () => {
    const next = seededRandom(SEED + 3);
    for (let round = 0; round < 3_000; round++) {
      let text = '';
      const count = 1 + Math.floor(next() * 30);
      for (let i = 0; i < count; i++) text += SNIPPETS[Math.floor(next() * SNIPPETS.length)];
      const page = {
        about: JSON.stringify(text),
        url: 'https://example.com/d/p',
        bytes: encoder.encode(text),
      };
      assertSame(page, [page.bytes], 'whole');
      assertSame(page, randomPieces(page.bytes, next), 'random pieces');
    }
  });

  test('two chunks, split at every position', () => {
    const next = seededRandom(SEED + 4);
    const decoder = new TextDecoder();
    const pages = [
      ...BENCH.slice(0, 2).map((p) => ({ ...p, bytes: p.bytes.subarray(0, 6_000) })),
      ...FIXTURES.filter((p) => /broken|title-svg|images|feeds|base-late/.test(p.about)),
      ...Array.from({ length: 4 }, (_, i) => {
        const source = FIXTURES[i * 7] as Page;
        const text = mutate(decoder.decode(source.bytes), next);
        return { ...source, about: `${source.about} mutated`, bytes: encoder.encode(text) };
      }),
    ];
    for (const page of pages) {
      const expected = facts(ReferenceHtmlExtractor, page, [page.bytes]);
      for (let at = 0; at <= page.bytes.length; at++) {
        const pieces = [page.bytes.subarray(0, at), page.bytes.subarray(at)];
        assert.deepEqual(facts(HtmlExtractor, page, pieces), expected, `${page.about} at ${at}`);
      }
    }
  });
});

// trimAscii skips its regex when neither end is a space; both extractors use it, so it is
// held to the plain regex here.
test('trimAscii is the regex trim', () => {
  const next = seededRandom(SEED + 5);
  const alphabet = ['a', '/', ' ', '\t', '\n', '\f', '\r', '\u00a0', '\v', 'é'];
  for (let round = 0; round < 20_000; round++) {
    let value = '';
    const length = Math.floor(next() * 6);
    for (let i = 0; i < length; i++) value += alphabet[Math.floor(next() * alphabet.length)];
    assert.equal(trimAscii(value), value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, ''));
  }
});
