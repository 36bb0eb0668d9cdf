// XmlTokenizer against htmlparser2 (XML mode, the options the sitemap reader used): the same
// events, the same attributes, the same decoded text and the same startIndex for every open,
// close and declaration, on every sample document, on hostile snippets and on random markup
// soup - fed whole, one character at a time and at random splits, against htmlparser2 fed
// the whole document.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { fixturePath } from '../../test-support/fixtures.ts';
import { type XmlTokenHandler, XmlTokenizer } from './xml-tokenizer.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_260_722;

type Event =
  | ['open', string, [string, string][], number]
  | ['close', string, boolean, number]
  | ['text', string]
  | ['instruction', string, string, number];

interface Tokenizer {
  startIndex: number;
  write(text: string): void;
  end(): void;
}

/**
 * The events as the reader sees them. Text is one event per run between other events (the
 * reader concatenates the pieces), but a run of only empty text still counts: it tells the
 * reader that something stood between an open and an implied close.
 */
function events(make: (handler: XmlTokenHandler) => Tokenizer, chunks: string[]): Event[] {
  const out: Event[] = [];
  let text: string | null = null;
  const flush = (): void => {
    if (text !== null) out.push(['text', text]);
    text = null;
  };
  const tokenizer = make({
    onopentag: (name, attributes) => {
      flush();
      out.push(['open', name, Object.entries(attributes), tokenizer.startIndex]);
    },
    onclosetag: (name, implied) => {
      flush();
      out.push(['close', name, implied, tokenizer.startIndex]);
    },
    ontext: (piece) => {
      text = (text ?? '') + piece;
    },
    onprocessinginstruction: (name, data) => {
      flush();
      out.push(['instruction', name, data, tokenizer.startIndex]);
    },
  });
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  flush();
  return out;
}

const OPTIONS = {
  xmlMode: true,
  decodeEntities: true,
  recognizeCDATA: true,
  recognizeSelfClosing: true,
};

function reference(text: string): Event[] {
  return events((handler) => new Parser(handler, OPTIONS), [text]);
}

function tokenized(chunks: string[]): Event[] {
  return events((handler) => new XmlTokenizer(handler), chunks);
}

/** A small seeded generator, so the random splits are the same every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomSplit(text: string, next: () => number, maxLength: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; ) {
    const length = 1 + Math.floor(next() * maxLength);
    chunks.push(text.slice(i, i + length));
    i += length;
  }
  return chunks;
}

/** Whole, one UTF-16 unit at a time (splitting surrogate pairs too), and random splits. */
function feedings(text: string, seed: number): [string, string[]][] {
  const next = random(seed);
  return [
    ['whole', [text]],
    ['one character at a time', text.split('')],
    ['random splits of 1-8', randomSplit(text, next, 8)],
    ['random splits of 1-100', randomSplit(text, next, 100)],
    ['random splits of 1-5000', randomSplit(text, next, 5000)],
  ];
}

/** deepEqual, but a long event list fails with the first difference, not the whole list. */
function assertSame(actual: Event[], expected: Event[], label: string): void {
  const length = Math.max(actual.length, expected.length);
  for (let i = 0; i < length; i++) {
    if (JSON.stringify(actual[i]) !== JSON.stringify(expected[i])) {
      assert.deepEqual(
        actual.slice(Math.max(0, i - 2), i + 3),
        expected.slice(Math.max(0, i - 2), i + 3),
        `${label}: first difference at event ${i}`,
      );
    }
  }
}

function checkEverywhere(text: string, seed: number, label: string): void {
  const expected = reference(text);
  for (const [how, chunks] of feedings(text, seed)) {
    assertSame(tokenized(chunks), expected, `${label}, ${how}`);
  }
}

function decode(bytes: Uint8Array): string {
  const data = bytes[0] === 0x1f && bytes[1] === 0x8b ? new Uint8Array(gunzipSync(bytes)) : bytes;
  const utf16 = data[0] === 0xff && data[1] === 0xfe;
  return new TextDecoder(utf16 ? 'utf-16le' : 'utf-8').decode(data);
}

describe('XmlTokenizer gives the events htmlparser2 gives', () => {
  const directory = fixturePath('sitemaps/cases/');
  const files = readdirSync(directory).filter((name) => name !== 'cases.json');

  test('on every sample document, fed whole, by character and at random splits', () => {
    assert.ok(files.length > 60, `only ${files.length} sample files`);
    files.forEach((name, index) => {
      checkEverywhere(decode(readFileSync(`${directory}${name}`)), SEED + index, name);
    });
  });

  const snippets: Record<string, string> = {
    'unclosed tags': '<urlset><url><loc>https://a.example/</loc><url><loc>b',
    'mismatched close tags': '<a><b><c></a>d</c><x></X>',
    'a close tag with nothing open': '</x>text<a></x></a></a>',
    '<< and raw <': '<url><loc>a << b < c <<<d <</loc><</url>',
    'a tag name that is a raw <': 'x<<',
    'attributes with > inside quotes': `<a href="x>y" t='>' u="'" v='"'>z</a>`,
    'attribute forms': '<a b c= d=e f = "g" h=i/j k=&amp; l="&#65;&lt" m=x&amp>y</a>',
    'repeated and odd attribute names': `<a b="1" b="2" __proto__="p" constructor="c" "q"='r'>`,
    'self-closing forms': '<a/><b / ><c d="1"/><e f=g/><h/ i><j //>',
    entities: '<loc>a&amp;b&lt;&gt;&quot;&apos;&#65;&#x41;&#X42;&#0065;</loc>',
    'entities that are not': '&amp &ampx; &AMP; &nbsp; &xxe; &; &#; &#x; &#65 &#xZ; &&amp;',
    'numeric references out of range':
      '&#0;&#xD800;&#xDFFF;&#x10FFFF;&#x110000;&#99999999999999999999999;&#128;&#x9F;',
    CDATA: '<loc><![CDATA[a]]b]]]>&amp;<![CDATA[]]><![CDATA[<x>&amp;]]></loc>',
    'not quite CDATA': '<![CDAT><![cdata[x]]><![CDATA x>',
    'comments with -- and >': '<!-- a -- b > c --->x<!-- --!> y<!---->z<!-->-->w<!--->-->v',
    'comments that do not end as they seem': '<!-- a --!-> b ---!> c -- ! > -->d',
    'comments ending in odd ways': '<!-- a --!-->b<!-- --!--!>c<!-- ---->d<!-- --!!>-->e',
    declarations: '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>',
    'odd declarations': '<!>a<!->b<!-x>c<!x y/z>d<!--x',
    'processing instructions': '<?xml version="1.0"?><?xml?><??><?>?><?a/b c?><?x ? >?>',
    'a late XML declaration': '  <?xml version="1.0"?><urlset/>',
    'bogus end tags': '<//x>a</>b</ >c</ a>d<a></a ><b></b\n>',
    'whitespace in tags': '<a\fb\r\n=\t"1"\n>x</a\t>',
    'upper-case names': '<URLSET><Url><LOC>x</LOC></url></URLSET>',
    'non-ASCII': '<lo\u00e9>\u00e9\u{1f600}</lo\u00e9><\u{1f600} a="\u{1f600}"/>',
    'a truncated document': '<?xml version="1.0"?>\n<urlset><url><loc>https://a.example/</lo',
  };
  const truncations = [
    '<a b="c',
    '<a b=c&am',
    '<a b',
    '<a b ',
    '<a/',
    '<a /  ',
    '</a',
    '</a x',
    '</',
    '</  ',
    'x<',
    'x&am',
    'x&#6',
    '<!',
    '<!-',
    '<!--',
    '<!-- x --',
    '<![',
    '<![CDA',
    '<![CDATA[',
    '<![CDATA[x]]',
    '<!DOCTYPE x',
    '<?',
    '<?xml ver',
    '<?xml ?',
    '<//x',
  ];
  for (const ending of truncations) snippets[`cut short: ${ending}`] = `<u><v>t${ending}`;

  test('on hostile snippets, split at every one and two places', () => {
    for (const [label, text] of Object.entries(snippets)) {
      checkEverywhere(text, SEED, label);
      const expected = reference(text);
      for (let i = 0; i <= text.length; i++) {
        const head = text.slice(0, i);
        assertSame(tokenized([head, text.slice(i)]), expected, `${label}, split at ${i}`);
        for (let j = i + 1; j < text.length && text.length <= 80; j++) {
          const parts = [head, text.slice(i, j), text.slice(j)];
          assertSame(tokenized(parts), expected, `${label}, split at ${i} and ${j}`);
        }
      }
    }
  });

  test('on random markup soup, at random splits', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        ...['<', '>', '/', '!', '?', '-', '[', ']', '=', '"', "'", '&', ';', '#', 'x', ' ', '\n'],
        ...['a', 'b', 'A', 'url', 'loc', 'é', '\u{1f600}', '\t', '\f', '\r', 'CDATA[', '--'],
        ...['<!--', '-->', '--!>', '--!', '<![CDATA[', ']]>', '<?', '?>', '<!', '</', '/>', '<<'],
        ...['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&amp', '&#65;', '&#x41;', '&#'],
        ...['&#0;', '&#xD800;', '&#1114112;', '&xxe;', 'DOCTYPE', '<?xml ', ' a="b"', "'c'"],
      ),
      fc.string({ maxLength: 3 }),
    );
    const soup = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
    const cuts = fc.array(fc.nat(), { maxLength: 6 });
    fc.assert(
      fc.property(soup, cuts, (text, points) => {
        const expected = reference(text);
        const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, k) => text.slice(from, at[k] ?? text.length));
        assertSame(tokenized([text]), expected, 'whole');
        assertSame(tokenized(chunks), expected, `chunks ${JSON.stringify(chunks)}`);
        assertSame(tokenized(text.split('')), expected, 'one character at a time');
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('XmlTokenizer', () => {
  test('reports a self-closing tag as an open and an implied close at the same offset', () => {
    assert.deepEqual(tokenized(['<a>\n  <b c="1"/></a>']), [
      ['open', 'a', [], 0],
      ['text', '\n  '],
      ['open', 'b', [['c', '1']], 6],
      ['close', 'b', true, 6],
      ['close', 'a', false, 16],
    ]);
  });

  test('never expands an entity it does not know', () => {
    const text = '<!DOCTYPE a [<!ENTITY b "boom">]><a>&b;&amp;</a>';
    assert.deepEqual(tokenized([text]).slice(0, 2), [
      ['instruction', '!DOCTYPE', '!DOCTYPE a [<!ENTITY b "boom"', 0],
      ['text', ']>'],
    ]);
    assert.deepEqual(tokenized([text]).at(-2), ['text', '&b;&']);
  });
});
