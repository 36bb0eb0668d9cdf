// readLoc takes plain locs as they are, without the URL parser: held here to the parser's
// reading of the same values (src/url/internal/plain-http-url.test.ts holds the shortcut
// itself to the parser over many more shapes).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readLoc, readLocByParser, trimXml } from './loc.ts';

const SEED = 20_260_915;

const LOCS = [
  'https://www.example.com/a/b?x=1&y=2#top',
  ' \n\thttps://example.com/products/oak-chair-100123\r\n ',
  'https://example.com',
  'https://example.com?q',
  'http://127.0.0.1:8080/a',
  'HTTPS://Example.COM/a',
  'https://example.com:443/a',
  'https://example.com/a/../b',
  'https://example.com/caf%C3%A9',
  'https://example.com/café',
  'https://example.com/a b',
  'https://bücher.example/',
  'https://[::1]/',
  'ftp://example.com/',
  '/relative',
  'not a url at all:',
  '',
  '   ',
];

describe('readLoc', () => {
  test('reads each loc as the URL parser does', () => {
    for (const loc of LOCS) assert.deepEqual(readLoc(loc), readLocByParser(trimXml(loc)), loc);
  });

  test('reads any URL as the URL parser does', () => {
    const urlArb = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.webUrl().map((url) => url.toUpperCase()),
      fc
        .tuple(fc.webUrl({ withQueryParameters: true }), fc.nat(), fc.string({ maxLength: 2 }))
        .map(([url, at, insert]) => {
          const i = at % (url.length + 1);
          return url.slice(0, i) + insert + url.slice(i + 1);
        }),
    );
    fc.assert(
      fc.property(urlArb, (loc) => {
        assert.deepEqual(readLoc(loc), readLocByParser(trimXml(loc)), JSON.stringify(loc));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});
