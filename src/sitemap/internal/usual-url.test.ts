// The reader takes a URL set's entries in their usual form at once (USUAL_URL in
// xml-sitemap-reader.ts), when a whole entry is in the text it is given; given the text one
// character at a time it never can, and reads every entry the general way. Random URL sets
// of usual and unusual entries, under every kind of root, must read the same whole (as text
// and as bytes), one character at a time and at random splits: same entries, same
// diagnostics, same positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { ReadSitemapOptions } from '../read-sitemap.ts';
import { SitemapParser } from '../sitemap-parser.ts';
import { type Outcome, outcomeOf, pushParse, randomSplit } from '../test-support/feedings.ts';
import type { SitemapEntry } from '../types.ts';
import { SITEMAP_NS } from './namespaces.ts';
import { MAX_VALUE_CHARS } from './reader-limits.ts';

const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';

const ROOTS: readonly [string, string][] = [
  [`<urlset xmlns="${SITEMAP_NS}">`, '</urlset>'],
  ['<urlset>', '</urlset>'],
  ['<urlset xmlns="https://wrong.example/ns">', '</urlset>'],
  [`<urlset xmlns="${IMAGE_NS}">`, '</urlset>'],
  [`<sm:urlset xmlns:sm="${SITEMAP_NS}">`, '</sm:urlset>'],
  [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">`, '</urlset>'],
  // A second root, not well-formed but read, binding another default namespace.
  [`<urlset xmlns="${SITEMAP_NS}"></urlset><urlset xmlns="${IMAGE_NS}">`, '</urlset>'],
  [`<URLSET xmlns="${SITEMAP_NS}">`, '</URLSET>'],
];

const LOCS = [
  'https://a.example/',
  'https://a.example/path?q=1',
  ' https://a.example/padded ',
  '\n  https://a.example/lines\n',
  '',
  '/relative',
  'https://b.example/other-host',
  'https://a.example/caf\u00e9/\u6f22',
  'HTTPS://A.EXAMPLE/Upper',
  'https://a.example/a b',
  'javascript:alert(1)',
  'https://a.example/x>y',
];
const LASTMODS = ['2024-05-06', '2024-05-06T07:08:09+00:00', '', ' ', 'yesterday', '2024-13-01'];
const CHANGEFREQS = ['daily', 'Weekly', 'sometimes', ''];
const PRIORITIES = ['0.5', '1.0', '1.5', 'abc', ''];
const SPACES = ['', ' ', '\n', '\r\n', '\t', '\n  '];

const space = fc.constantFrom(...SPACES);
const optional = (values: readonly string[], name: string) =>
  fc.option(
    fc.tuple(fc.constantFrom(...values), space).map(([v, s]) => `<${name}>${v}</${name}>${s}`),
    { nil: '' },
  );

/** An entry in the usual form, which the reader may take at once. */
const usualEntry = fc
  .tuple(
    space,
    fc.constantFrom(...LOCS),
    space,
    optional(LASTMODS, 'lastmod'),
    optional(CHANGEFREQS, 'changefreq'),
    optional(PRIORITIES, 'priority'),
  )
  .map(
    ([s1, loc, s2, lastmod, changefreq, priority]) =>
      `<url>${s1}<loc>${loc}</loc>${s2}${lastmod}${changefreq}${priority}</url>`,
  );

/** Entries in other forms, read the general way wherever they are. */
const unusualEntry = fc.constantFrom(
  '<URL><LOC>https://a.example/upper</LOC></URL>',
  '<url ><loc>https://a.example/space</loc></url >',
  '<url id="1"><loc>https://a.example/attribute</loc></url>',
  '<url><loc>https://a.example/?a=1&amp;b=2</loc></url>',
  '<url><!-- c --><loc>https://a.example/comment</loc></url>',
  '<url><loc><![CDATA[https://a.example/cdata]]></loc></url>',
  `<url><loc>https://a.example/image</loc><image:image xmlns:image="${IMAGE_NS}"><image:loc>https://a.example/i.png</image:loc></image:image></url>`,
  '<url><lastmod>2024-05-06</lastmod><loc>https://a.example/order</loc></url>',
  '<url><loc>https://a.example/1</loc><loc>https://a.example/2</loc></url>',
  '<url><loc/></url>',
  '<url>stray<loc>https://a.example/stray</loc></url>',
  '<url><loc>https://a.example/unclosed</loc>',
  '<url><foo>x</foo><loc>https://a.example/foo</loc></url>',
  '<url><loc>https://a.example/pri</loc><priority>0.5</priority><changefreq>daily</changefreq></url>',
  '<foo/>',
  'text between',
  '<url/>',
  // After these the tokenizer's offset is not the next `<` (htmlparser2's offsets).
  '<?pi?>',
  '<a></a >',
  '<a></a\n>',
  '<!-- comment -->',
  '</urlset><urlset>',
);

const document = fc
  .tuple(
    fc.constantFrom(...ROOTS),
    fc.array(fc.tuple(fc.oneof({ weight: 3, arbitrary: usualEntry }, unusualEntry), space), {
      maxLength: 30,
    }),
    fc.constantFrom('', '\n', '<url><loc>https://a.example/after-root</loc></url>'),
  )
  .map(
    ([[open, close], entries, after]) =>
      `${open}${entries.map(([entry, s]) => entry + s).join('')}${close}${after}`,
  );

const options = fc.constantFrom<ReadSitemapOptions>(
  {},
  { url: 'https://a.example/sitemap.xml' },
  { maxEntries: 3 },
  { maxBytes: 300 },
  { maxEntries: 2, maxBytes: 400 },
);

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * The push parser given text in `pieces`. Text goes straight to the reader (bytes are held
 * until 1,024 have come, to find their encoding), so one character a piece is the general way.
 */
function pushText(pieces: readonly string[], options: ReadSitemapOptions): Outcome {
  const entries: SitemapEntry[] = [];
  const parser = new SitemapParser(options, (entry) => entries.push(entry));
  for (const piece of pieces) parser.write(piece);
  parser.end();
  return outcomeOf(parser.kind, entries, parser.diagnostics);
}

function sameOutcome(got: Outcome, expected: Outcome, how: string): void {
  assert.deepEqual(got, expected, how);
}

test('entries in the usual form read the same at once as the general way', () => {
  fc.assert(
    fc.property(document, options, fc.integer({ min: 1, max: 1_000 }), (text, opts, seed) => {
      const general = pushText([...text], opts);
      sameOutcome(pushText([text], opts), general, 'whole text');
      sameOutcome(pushParse([bytesOf(text)], opts), general, 'whole bytes');
      sameOutcome(pushText(randomSplit(text, seed, 300), opts), general, 'random splits');
    }),
    { numRuns: 400 },
  );
});

test('a value over the length cap is left to the general way', () => {
  const long = `https://a.example/${'x'.repeat(MAX_VALUE_CHARS)}`;
  for (const entry of [
    `<url><loc>${long}</loc></url>`,
    `<url><loc>https://a.example/</loc><lastmod>${' '.repeat(MAX_VALUE_CHARS + 1)}</lastmod></url>`,
  ]) {
    const bytes = bytesOf(
      `<urlset xmlns="${SITEMAP_NS}">${entry}<url><loc>https://a.example/next</loc></url></urlset>`,
    );
    const general = pushParse(randomSplit(bytes, 7, 50), {});
    assert.ok(bytes.length > (2 * MAX_VALUE_CHARS) / 2, 'past the bytes held to find the encoding');
    assert.ok(
      general.diagnostics.some((d) => d.code === 'value-too-long'),
      'the general way reports it',
    );
    sameOutcome(pushParse([bytes], {}), general, 'whole');
  }
});

test('maxEntries: what follows the stop in the same text is not read', () => {
  const NS = `xmlns="${SITEMAP_NS}"`;
  const cases: [string, string, ReadSitemapOptions][] = [
    [
      'a bad value after the stop',
      `<urlset ${NS}><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><url><loc>/relative</loc><changefreq>sometimes</changefreq></url></urlset>`,
      { maxEntries: 1 },
    ],
    [
      'the document cut short after the stop',
      `<urlset ${NS}><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><url><loc>https://a.example/3`,
      { maxEntries: 1 },
    ],
    [
      'the byte cap past the stop',
      `<urlset ${NS}><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><!--${'x'.repeat(100)}--></urlset>`,
      { maxEntries: 1, maxBytes: 150 },
    ],
    [
      'a text sitemap, the byte cap past the stop',
      `https://a.example/1\nhttps://a.example/2\n${'x'.repeat(100)}`,
      { maxEntries: 1, maxBytes: 80 },
    ],
  ];
  for (const [name, text, opts] of cases) {
    const whole = pushText([text], opts);
    assert.deepEqual(
      whole.diagnostics.map((d) => d.code),
      ['too-many-entries'],
      name,
    );
    assert.deepEqual(pushText([...text], opts), whole, `${name}: one character at a time`);
  }
});
