// The documents of ../testdata/html/, each checked against cases.json, then fed whole, byte
// by byte and at random splits, which must all give the same facts. Then the caps, misuse,
// and two properties: random bytes never throw, and random markup does not depend on where
// it is split.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import {
  HtmlExtractor,
  MAX_LIST_ITEMS,
  MAX_PAGE_EXTRAS,
  MAX_TITLE_CHARS,
  type PageFacts,
} from './html-extract.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_261_122;
const PAGE_URL = 'https://example.com/dir/page.html';
const DIR = new URL('../testdata/html/', import.meta.url);

interface HtmlCase {
  file: string;
  about: string;
  url?: string;
  contentType?: string;
  expected: Partial<PageFacts>;
}

const { cases } = JSON.parse(readFileSync(new URL('cases.json', DIR), 'utf8')) as {
  cases: HtmlCase[];
};

/** The facts of a page with nothing in it: what an expectation leaves out. */
const NOTHING: PageFacts = {
  links: [],
  nofollowLinks: [],
  alternates: [],
  feeds: [],
  canonical: null,
  robots: { noindex: false, nofollow: false },
  images: [],
  charset: 'utf-8',
  charsetSource: 'default',
  title: null,
  invalidLinks: 0,
  truncated: false,
};

const encoder = new TextEncoder();

function bytesOf(c: HtmlCase): Uint8Array {
  return new Uint8Array(readFileSync(new URL(c.file, DIR)));
}

function extract(pieces: Iterable<Uint8Array>, url = PAGE_URL, contentType?: string): PageFacts {
  const extractor = new HtmlExtractor(contentType === undefined ? { url } : { url, contentType });
  for (const piece of pieces) extractor.write(piece);
  return extractor.end();
}

function extractCase(c: HtmlCase, pieces: Iterable<Uint8Array>): PageFacts {
  return extract(pieces, c.url ?? PAGE_URL, c.contentType);
}

function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/** Pieces of 1 to `max` bytes, the same for the same seed. */
function randomSplits(bytes: Uint8Array, seed: number, max = 97): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let state = seed * 7919;
  for (let at = 0; at < bytes.length; ) {
    state = (state * 48_271) % 2_147_483_647;
    const size = 1 + (state % max);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

describe('html documents: the facts in cases.json', () => {
  test('every document has a case', () => {
    const files = readdirSync(DIR).filter((name) => name.endsWith('.html'));
    assert.deepEqual(cases.map((c) => c.file).sort(), files.sort());
  });
  for (const c of cases) {
    test(`${c.file}: ${c.about}`, () => {
      assert.deepEqual(extractCase(c, [bytesOf(c)]), { ...NOTHING, ...c.expected });
    });
  }
});

describe('chunk boundaries: whole, byte by byte and random splits give the same facts', () => {
  for (const c of cases) {
    test(c.file, () => {
      const bytes = bytesOf(c);
      const whole = extractCase(c, [bytes]);
      assert.deepEqual(extractCase(c, byteByByte(bytes)), whole, 'byte by byte');
      for (let seed = 1; seed <= 5; seed++) {
        assert.deepEqual(extractCase(c, randomSplits(bytes, seed)), whole, `seed ${seed}`);
      }
    });
  }

  test('a chunk reused by the caller after write() does not change the result', () => {
    const bytes = bytesOf({ file: 'shift-jis.html', about: '', expected: {} });
    const whole = extract([bytes]);
    const buffer = new Uint8Array(7);
    const extractor = new HtmlExtractor({ url: PAGE_URL });
    for (let at = 0; at < bytes.length; at += buffer.length) {
      const piece = bytes.subarray(at, at + buffer.length);
      buffer.set(piece);
      extractor.write(buffer.subarray(0, piece.length));
      buffer.fill(0x3c);
    }
    assert.deepEqual(extractor.end(), whole);
  });
});

describe('limits', () => {
  test(`links stop at ${MAX_LIST_ITEMS}, images and alternates at ${MAX_PAGE_EXTRAS}; truncated says so`, () => {
    const count = MAX_LIST_ITEMS + 50;
    const html = Array.from(
      { length: count },
      (_, i) =>
        `<a href="/p/${i}"><img src="/i/${i}"><link rel="alternate" hreflang="x${i}" href="/l/${i}">`,
    );
    const facts = extract(randomSplits(encoder.encode(html.join('\n')), 1, 65_536));
    assert.equal(facts.links.length, MAX_LIST_ITEMS);
    assert.equal(facts.images.length, MAX_PAGE_EXTRAS);
    assert.equal(facts.alternates.length, MAX_PAGE_EXTRAS);
    assert.equal(facts.links.at(-1), `https://example.com/p/${MAX_LIST_ITEMS - 1}`);
    assert.equal(facts.truncated, true);
  });

  test('a link seen again after the cap is still marked followed', () => {
    const html = [
      '<a rel="nofollow" href="/first">',
      ...Array.from({ length: MAX_LIST_ITEMS }, (_, i) => `<a href="/p/${i}">`),
      '<a href="/first">',
    ].join('');
    const facts = extract([encoder.encode(html)]);
    assert.equal(facts.links[0], 'https://example.com/first');
    assert.deepEqual(facts.nofollowLinks, []);
  });

  test(`the title keeps its first ${MAX_TITLE_CHARS} characters`, () => {
    const html = `<title>${'x'.repeat(MAX_TITLE_CHARS * 3)}</title>`;
    const whole = extract([encoder.encode(html)]);
    assert.equal(whole.title, 'x'.repeat(MAX_TITLE_CHARS));
    assert.deepEqual(extract(byteByByte(encoder.encode(html))), whole);
  });

  test('a large page streams through in chunks', () => {
    const row = '<tr><td><a href="/row">row</a> &amp; text <b>bold</b></td></tr>\n';
    const html = `<title>Big</title><table>${row.repeat(80_000)}</table><a href="/last">`;
    const facts = extract(randomSplits(encoder.encode(html), 3, 65_536));
    assert.deepEqual(facts.links, ['https://example.com/row', 'https://example.com/last']);
    assert.equal(facts.title, 'Big');
  });
});

describe('misuse', () => {
  const table: { name: string; run: () => unknown; code: string }[] = [
    {
      name: 'a relative page URL',
      run: () => new HtmlExtractor({ url: '/relative' }),
      code: 'invalid-argument',
    },
    {
      name: 'write() after end()',
      run: () => {
        const extractor = new HtmlExtractor({ url: PAGE_URL });
        extractor.end();
        extractor.write(new Uint8Array([0x3c]));
      },
      code: 'usage',
    },
  ];
  for (const { name, run, code } of table) {
    test(name, () => assert.throws(run, (e) => isWaymarkError(e) && e.code === code));
  }

  test('end() again returns the same facts', () => {
    const extractor = new HtmlExtractor({ url: PAGE_URL });
    extractor.write(encoder.encode('<a href=x>'));
    assert.equal(extractor.end(), extractor.end());
  });
});

/** Every URL in the facts is an absolute http(s) URL in WHATWG URL's spelling. */
function checkUrls(facts: PageFacts): void {
  const urls = [
    ...facts.links,
    ...facts.nofollowLinks,
    ...facts.alternates.map((a) => a.href),
    ...facts.feeds.map((f) => f.href),
    ...facts.images.map((i) => i.loc),
    ...(facts.canonical === null ? [] : [facts.canonical]),
  ];
  for (const url of urls) {
    assert.match(url, /^https?:\/\//);
    assert.equal(URL.parse(url)?.href, url);
  }
  assert.equal(new Set(facts.links).size, facts.links.length, 'links are distinct');
}

const contentTypeArb = fc.option(
  fc.constantFrom(
    'text/html',
    'text/html; charset=utf-8',
    'text/html; charset=shift_jis',
    'text/html; charset=utf-16be',
    'text/html; charset=x-user-defined',
    'text/html; charset=iso-2022-kr',
    'text/html; charset="',
    'garbage;;charset=;',
  ),
  { nil: undefined },
);

/** Whole elements and loose fragments (tags, quotes, entities, charsets) to split. */
const markupArb = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '<meta charset="shift_jis">',
        '<meta charset=windows-1251>',
        '<meta http-equiv=Content-Type content="text/html;charset=euc-kr">',
        '<a href="/x">x</a>',
        '<a href="rel/y" rel=nofollow>y</a>',
        '<title> T  t </title>',
        '<base href="/base/">',
        '<img src="i.png" alt="i">',
        '<link rel=alternate hreflang=fr href=/fr>',
        '<link rel=canonical href=/c>',
        '<meta name=robots content=none>',
      ),
      fc.constantFrom(
        '<a href="',
        '<a rel="nofollow" href=',
        '<area href=',
        '"',
        "'",
        '>',
        '/>',
        '<template>',
        '</template>',
        '<script>',
        '</script>',
        '<title>',
        '</title>',
        '<svg>',
        '</svg>',
        '<noscript>',
        '<base href="',
        '<link rel="canonical alternate" hreflang="de" type="application/atom+xml" href="',
        '<meta name="robots" content="',
        '<meta charset="',
        '<meta http-equiv="content-type" content="text/html; charset=',
        'noindex',
        'none',
        'shift_jis',
        'utf-16le',
        'windows-1251',
        '<img alt="x" src="',
        '/path',
        '../up',
        '#frag',
        'javascript:',
        'http://exa mple.com/',
        'https://other.example/',
        '&amp;',
        '&#x1F600;',
        '&',
        '<!--',
        '-->',
        '<!',
        '<?',
        '</',
        '<',
        ' ',
        '\n',
        'é',
        '表ソ',
        '😀',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 200, size: 'max' },
  )
  .map((parts) => encoder.encode(parts.join('')));

const splitsArb = fc.array(fc.nat(), { maxLength: 20, size: 'max' });

/** `bytes` cut at the given offsets (taken modulo its length). */
function cut(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => (bytes.length === 0 ? 0 : o % bytes.length)))];
  points.sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(at, point));
    at = point;
  }
  pieces.push(bytes.subarray(at));
  return pieces;
}

describe('properties', () => {
  test('random bytes never throw, however they are split', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000, size: 'max' }),
        splitsArb,
        contentTypeArb,
        (bytes, at, ct) => {
          checkUrls(extract(cut(bytes, at), PAGE_URL, ct));
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  test('random markup gives the same facts whole and split', () => {
    fc.assert(
      fc.property(markupArb, splitsArb, contentTypeArb, (bytes, at, ct) => {
        const whole = extract([bytes], PAGE_URL, ct);
        checkUrls(whole);
        assert.deepEqual(extract(cut(bytes, at), PAGE_URL, ct), whole);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
