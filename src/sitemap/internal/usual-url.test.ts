// The reader takes a URL set's entries in their usual form at once (USUAL_URL in
// xml-sitemap-reader.ts), when a whole entry is in the text it is given; fed one byte at a
// time it never can, and reads every entry the general way. Random URL sets of usual and
// unusual entries, under every kind of root, must read the same whole, byte by byte and at
// random splits: same entries, same diagnostics, same positions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type Outcome, pushParse, randomSplit } from '../test-support/feedings.ts';
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
);

const document = fc
  .tuple(
    fc.constantFrom(...ROOTS),
    fc.array(fc.tuple(fc.oneof({ weight: 3, arbitrary: usualEntry }, unusualEntry), space), {
      maxLength: 14,
    }),
    fc.constantFrom('', '\n', '<url><loc>https://a.example/after-root</loc></url>'),
  )
  .map(
    ([[open, close], entries, after]) =>
      `${open}${entries.map(([entry, s]) => entry + s).join('')}${close}${after}`,
  );

const options = fc.constantFrom(
  {},
  { url: 'https://a.example/sitemap.xml' },
  { maxEntries: 3 },
  { maxBytes: 300 },
);

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const byteByByte = (bytes: Uint8Array): Uint8Array[] =>
  Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));

function sameOutcome(got: Outcome, expected: Outcome, how: string): void {
  assert.deepEqual(got, expected, how);
}

test('entries in the usual form read the same at once as the general way', () => {
  fc.assert(
    fc.property(document, options, fc.integer({ min: 1, max: 1_000 }), (text, opts, seed) => {
      const bytes = bytesOf(text);
      const general = pushParse(byteByByte(bytes), opts);
      sameOutcome(pushParse([bytes], opts), general, 'whole');
      sameOutcome(pushParse(randomSplit(bytes, seed, 200), opts), general, 'random splits');
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
    assert.ok(
      general.diagnostics.some((d) => d.code === 'value-too-long'),
      'the general way reports it',
    );
    sameOutcome(pushParse([bytes], {}), general, 'whole');
  }
});
