import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { SitemapUrl } from '../types.ts';
import {
  CHANGEFREQS,
  elementMarkup,
  type UrlElementOptions,
  urlElement,
  urlMarkup,
} from './write-url.ts';
import type { Fail } from './write-values.ts';

const fail: Fail = (message) => {
  throw new Error(message);
};

/** What a writer makes of an entry: its markup, or the message it refuses it with. */
function outcome(write: () => string): string {
  try {
    return write();
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

const plainEntry = fc.record(
  {
    loc: fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom(
        'https://example.com/a?b=1&c=<2>',
        'https://exämple.com/ü',
        'ftp://x.example/',
        '/relative',
      ),
    ),
    lastmod: fc.oneof(
      fc.constantFrom(
        '2024-05-01',
        '2024-05-01T10:00:00+02:00',
        '2024-05-01T10:00Z',
        '2024-13-01',
        'soon',
      ),
      fc
        .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
        .map((d) => d.toISOString()),
    ),
    changefreq: fc.constantFrom(...CHANGEFREQS, 'sometimes'),
    priority: fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.constant(0.5)),
  },
  { requiredKeys: ['loc'] },
);

test('the direct writer for plain entries gives exactly the element-tree markup', () => {
  fc.assert(
    fc.property(
      plainEntry,
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom(null, '  ', '\t'),
      (entry, includeChangefreq, includePriority, indent) => {
        const options: UrlElementOptions = {
          includeChangefreq,
          includePriority,
          extensions: new Set(),
        };
        const direct = outcome(() => urlMarkup(entry as SitemapUrl, options, fail, indent));
        const tree = outcome(() =>
          elementMarkup(urlElement(entry as SitemapUrl, options, fail), indent),
        );
        assert.equal(direct, tree);
      },
    ),
    { numRuns: 3_000 },
  );
});
