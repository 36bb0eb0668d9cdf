// XmlTokenizer against htmlparser2 (XML mode, the options the sitemap reader used): the same
// events, the same attributes, the same decoded text and the same startIndex for every open,
// close and declaration, on every sample document, on hostile snippets and on random markup
// soup - fed whole, one character at a time and at random splits, against htmlparser2 fed
// the whole document. Where XmlTokenizer departs from htmlparser2 on purpose (a DOCTYPE is
// read to its real end, the depth limit), the expected events are written out here.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { fixturePath, needsFixtures } from '../../test-support/fixtures.ts';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { type XmlTokenHandler, XmlTokenizer } from './xml-tokenizer.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_260_722;

type Event =
  | ['open', string, [string, string][], number]
  | ['close', string, boolean, number]
  | ['text', string]
  | ['instruction', string, string, number]
  | ['comment', string]
  | ['too deep', string, number];

interface Tokenizer {
  startIndex: number;
  write(text: string): void;
  end(): void;
}

/**
 * The events as the reader sees them. Text is one event per run between other events (the
 * reader concatenates the pieces), but a run of only empty text still counts: it tells the
 * reader that something stood between an open and an implied close. Comments (htmlparser2
 * only; XmlTokenizer reports none) are markers that `withoutComments` takes out again.
 */
function events(
  make: (handler: XmlTokenHandler & { oncomment(data: string): void }) => Tokenizer,
  chunks: string[],
): Event[] {
  const out: Event[] = [];
  let text: string | null = null;
  const flush = (): void => {
    if (text !== null) out.push(['text', text]);
    text = null;
  };
  const tokenizer = make({
    oncomment: (data: string) => {
      flush();
      out.push(['comment', data]);
    },
    ondepthlimit: (name: string) => {
      flush();
      out.push(['too deep', name, tokenizer.startIndex]);
    },
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

/** Events without comment markers, text on both sides of one joined as the reader sees it. */
function withoutComments(list: Event[]): Event[] {
  const out: Event[] = [];
  for (const event of list) {
    const last = out.at(-1);
    if (event[0] === 'comment') continue;
    if (event[0] === 'text' && last?.[0] === 'text')
      out[out.length - 1] = ['text', last[1] + event[1]];
    else out.push(event);
  }
  return out;
}

function reference(text: string): Event[] {
  return withoutComments(events((handler) => new Parser(handler, OPTIONS), [text]));
}

function tokenized(chunks: string[], maxDepth?: number): Event[] {
  const options = maxDepth === undefined ? {} : { maxDepth };
  return events((handler) => new XmlTokenizer(handler, options), chunks);
}

/** A DOCTYPE with an internal subset, which htmlparser2 ends at its first `>`. */
const DOCTYPE_WITH_SUBSET = /<!DOCTYPE[^[>]*\[[\s\S]*?\]\s*>/i;
const BLANK_MARK = '@doctype@';

/**
 * What XmlTokenizer gives for a document with a DOCTYPE and an internal subset: htmlparser2's
 * events for the document with that declaration blanked out by a comment of the same length
 * (so every offset stays), with one `!DOCTYPE` declaration where the comment was.
 */
function referenceWithDoctype(text: string): Event[] {
  const match = DOCTYPE_WITH_SUBSET.exec(text);
  if (match === null) return reference(text);
  const declaration = match[0];
  const blank = `<!--${BLANK_MARK}${' '.repeat(declaration.length - BLANK_MARK.length - 7)}-->`;
  const blanked = text.slice(0, match.index) + blank + text.slice(match.index + blank.length);
  const data = declaration.slice(1, declaration.indexOf('[') + 1);
  const list = events((handler) => new Parser(handler, OPTIONS), [blanked]).map(
    (event): Event =>
      event[0] === 'comment' && event[1].startsWith(BLANK_MARK)
        ? ['instruction', '!DOCTYPE', data, match.index]
        : event,
  );
  return withoutComments(list);
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
  const next = seededRandom(seed);
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

function checkEverywhere(
  text: string,
  seed: number,
  label: string,
  expected = reference(text),
): void {
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
  const CASES = 'sitemaps/cases/';
  test(
    'on every sample document, fed whole, by character and at random splits',
    needsFixtures(CASES),
    () => {
      const directory = fixturePath(CASES);
      const files = readdirSync(directory).filter((name) => name !== 'cases.json');
      assert.ok(files.length > 60, `only ${files.length} sample files`);
      files.forEach((name, index) => {
        const text = decode(readFileSync(`${directory}${name}`));
        checkEverywhere(text, SEED + index, name, referenceWithDoctype(text));
      });
    },
  );

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
    declarations: '<!DOCTYPE urlset SYSTEM "urlset.dtd"><!ENTITY xxe SYSTEM "x"><a>&xxe;</a>',
    'DOCTYPE names that are not quite': '<!DOCTYPEx [a>]><!DOCTYP [b>]><!doctype>c<!DOC>',
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
        // A DOCTYPE is read to its real end on purpose: there, only chunking must not matter.
        const expected = /<!doctype/i.test(text) ? tokenized([text]) : reference(text);
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
    assert.deepEqual(tokenized([text]), [
      ['instruction', '!DOCTYPE', '!DOCTYPE a [', 0],
      ['open', 'a', [], 33],
      ['text', '&b;&'],
      ['close', 'a', false, 44],
    ]);
  });
});

/** Every way of feeding `text`: whole, by character, at random splits, and at every cut point. */
function checkAllSplits(text: string, expected: Event[], label: string, maxDepth?: number): void {
  for (const [how, chunks] of feedings(text, SEED)) {
    assertSame(tokenized(chunks, maxDepth), expected, `${label}, ${how}`);
  }
  for (let i = 0; i <= text.length; i++) {
    const parts = [text.slice(0, i), text.slice(i)];
    assertSame(tokenized(parts, maxDepth), expected, `${label}, split at ${i}`);
  }
}

describe('XmlTokenizer reads a DOCTYPE to its real end', () => {
  const at = (text: string, part: string): number => text.indexOf(part);
  const cases: [string, string, (text: string) => Event[]][] = [
    [
      'an internal subset with an external entity',
      '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><a>&xxe;</a>',
      (t) => [
        ['instruction', '!DOCTYPE', '!DOCTYPE urlset [', 0],
        ['open', 'a', [], at(t, '<a>')],
        ['text', '&xxe;'],
        ['close', 'a', false, at(t, '</a>')],
      ],
    ],
    [
      'entity values holding >, < and ]',
      `<!DOCTYPE u [<!ENTITY x "a>b<c>d]>"><!ENTITY y '<e/>'>]>\n<u>t</u>`,
      (t) => [
        ['instruction', '!DOCTYPE', '!DOCTYPE u [', 0],
        ['text', '\n'],
        ['open', 'u', [], at(t, '<u>')],
        ['text', 't'],
        ['close', 'u', false, at(t, '</u>')],
      ],
    ],
    [
      'comments and instructions in the subset, with quotes and brackets',
      `<!DOCTYPE u [ <!-- it's ]> "x --> <?pi a ]> ' ?> %pe; ]  ><u/>`,
      (t) => [
        ['instruction', '!DOCTYPE', '!DOCTYPE u [', 0],
        ['open', 'u', [], at(t, '<u/>')],
        ['close', 'u', true, at(t, '<u/>')],
      ],
    ],
    [
      'a > inside an external identifier',
      `<!DOCTYPE u SYSTEM "a>b" 'c>d'><u/>`,
      (t) => [
        ['instruction', '!DOCTYPE', `!DOCTYPE u SYSTEM "a>b" 'c>d'`, 0],
        ['open', 'u', [], at(t, '<u/>')],
        ['close', 'u', true, at(t, '<u/>')],
      ],
    ],
    [
      'lower case, with the subset right after the name',
      '<!doctype[<!ENTITY a "<b>">]><u/>',
      (t) => [
        ['instruction', '!doctype', '!doctype[', 0],
        ['open', 'u', [], at(t, '<u/>')],
        ['close', 'u', true, at(t, '<u/>')],
      ],
    ],
    [
      'a subset never closed runs into the root: cut before its start tag',
      '<!DOCTYPE u [<!ENTITY a "b">\n<u><v>t</v></u>',
      (t) => [
        ['instruction', '!DOCTYPE', '!DOCTYPE u [', 0],
        ['open', 'u', [], at(t, '<u>')],
        ['open', 'v', [], at(t, '<v>')],
        ['text', 't'],
        ['close', 'v', false, at(t, '</v>')],
        ['close', 'u', false, at(t, '</u>')],
      ],
    ],
    [
      'a declaration never closed runs into an end tag',
      '<a><!DOCTYPE u SYSTEM "x" </a>z',
      (t) => [
        ['open', 'a', [], 0],
        ['instruction', '!DOCTYPE', '!DOCTYPE u SYSTEM "x" ', 3],
        ['close', 'a', false, at(t, '</a>')],
        ['text', 'z'],
      ],
    ],
    [
      'the document ends inside the subset',
      '<!DOCTYPE u [<!ENTITY a "',
      () => [['instruction', '!DOCTYPE', '!DOCTYPE u [', 0]],
    ],
    [
      'the document ends before the subset: text, as htmlparser2 has it',
      '<u><!DOCTYPE u SYSTEM "x',
      () => [
        ['open', 'u', [], 0],
        ['text', 'DOCTYPE u SYSTEM "x'],
        ['close', 'u', true, 24],
      ],
    ],
  ];
  for (const [label, text, expected] of cases)
    test(label, () => checkAllSplits(text, expected(text), label));

  test('random DOCTYPE soup: the same events however the text is split', () => {
    const piece = fc.constantFrom(
      ...['<!DOCTYPE ', '<!doctype', ' u ', '[', ']', '>', '<', '<!ENTITY a ', '"', "'", 'x'],
      ...['<!--', '-->', '-', '<?', '?>', '?', '<u>', '</u>', '<v/>', ' ', '\n', 'SYSTEM '],
    );
    const soup = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(soup, fc.array(fc.nat(), { maxLength: 6 }), (text, points) => {
        const expected = tokenized([text]);
        const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, k) => text.slice(from, at[k] ?? text.length));
        assertSame(tokenized(chunks), expected, `chunks ${JSON.stringify(chunks)}`);
        assertSame(tokenized(text.split('')), expected, 'one character at a time');
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe('XmlTokenizer with maxDepth', () => {
  test('counts deeper elements instead of keeping them; each end tag closes one', () => {
    const text = '<a><b><c x="1"><d>t</d><e/></c></b>u</a>';
    checkAllSplits(
      text,
      [
        ['open', 'a', [], 0],
        ['open', 'b', [], 3],
        ['too deep', 'c', 6],
        ['too deep', 'd', 15],
        ['text', 't'],
        ['too deep', 'e', 23],
        ['close', 'b', false, text.indexOf('</b>')],
        ['text', 'u'],
        ['close', 'a', false, text.indexOf('</a>')],
      ],
      'maxDepth 2',
      2,
    );
  });

  test('an end tag below the limit closes a skipped element, whatever its name', () => {
    assert.deepEqual(tokenized(['<a><b></a>x</a>'], 1), [
      ['open', 'a', [], 0],
      ['too deep', 'b', 3],
      ['text', 'x'],
      ['close', 'a', false, 11],
    ]);
  });

  test('elements still open at the end close as before; skipped ones silently', () => {
    assert.deepEqual(tokenized(['<a><b><c>'], 2), [
      ['open', 'a', [], 0],
      ['open', 'b', [], 3],
      ['too deep', 'c', 6],
      ['close', 'b', true, 9],
      ['close', 'a', true, 9],
    ]);
  });
});

describe('XmlTokenizer costs time in proportion to its input', () => {
  // Each of these took minutes: a chunk was searched again from every `&` in it, and the
  // whole stack from every stray end tag. Fed in 1 MiB chunks with a turn of the event loop
  // between them, so a slow run is stopped by the timeout rather than waited for.
  const MB = 1024 * 1024;
  const shapes: [string, string][] = [
    ['a run of & in text', `<a>${'&'.repeat(8 * MB)}</a>`],
    ['a run of & in an attribute value', `<a b="${'&'.repeat(8 * MB)}"/>`],
    ['stray end tags under deep nesting', `${'<a>'.repeat(20_000)}${'</b>'.repeat(2 * MB)}`],
  ];
  for (const [label, text] of shapes) {
    test(label, { timeout: 20_000 }, async () => {
      let events = 0;
      const tokenizer = new XmlTokenizer({
        onopentag: () => events++,
        onclosetag: () => events++,
        ontext: () => {},
        onprocessinginstruction: () => {},
      });
      for (let at = 0; at < text.length; at += MB) {
        tokenizer.write(text.slice(at, at + MB));
        await new Promise((resolve) => setImmediate(resolve));
      }
      tokenizer.end();
      assert.ok(events > 0);
    });
  }
});
