// Property tests for normalizeUrl over URLs assembled from a vocabulary of awkward pieces
// (escapes, dot segments, IDN and IPv6 hosts, tracking names, stray `%`), over
// fast-check's own web URLs, and over arbitrary strings: it never throws, and what it
// returns is a fixed point that the WHATWG parser serialises unchanged.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { NormalizeOptions } from './index.ts';
import { isTrackingParam, normalizeUrl } from './index.ts';

// Fixed, so a failure seen once is seen again; fast-check prints the counterexample.
const SEED = 20_260_802;

/** Vocabulary lists written as one space-separated string: shorter than an array literal. */
const words = (text: string): string[] => text.split(' ');
const joined = (pieces: fc.Arbitrary<string>, maxLength: number) =>
  fc.array(pieces, { maxLength }).map((parts) => parts.join(''));

/** Usually `usual`, sometimes one of the odd variants, so most URLs still parse. */
const mostly = (usual: string, odd: string[]) =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 5 }, fc.constantFrom(...odd));

const schemeArb = fc.oneof(
  { arbitrary: fc.constantFrom(...words('http https HTTP HtTpS')), weight: 6 },
  fc.constantFrom(...words('ftp javascript mailto')),
);
const afterSchemeArb = mostly('://', [':', ':///', ':\\\\', '//']);
const userInfoArb = fc.constantFrom('', '', '', 'user@', 'u%65r:p%7e@', ':@', '@', 'a:b%zz@');
const hostArb = fc.constantFrom(
  ...words(
    'example.com example.com WWW.Example.COM www.example.com Bücher.example 例え.テスト [::1] [2001:DB8::1] [::ffff:192.168.0.1] 127.0.0.1 0x7f.1 example.com. xn--bcher-kva.example ex%61mple.com www.com',
  ),
);
const portArb = fc.constantFrom('', '', '', ':80', ':443', ':8080', ':', ':0080');
const PATH_PIECES = words(
  '/ / / / // a B index.html . .. %2e %2E .%2e %7e %7E %2f %2F % %% %4 %zz %25 %34 %31 %41 é 😀 ~ + ; = : @ | ^ { } ` " %00 %C3%A9 %c3 \\ ? &',
).concat([' ', '\t', '\n']);
const pathArb = joined(fc.constantFrom(...PATH_PIECES), 10);
const NAMES = words(
  'utm_source UTM_Medium utm_ gclid FBCLID msclkid a b sid SID utm%5Fx %75tm_y q',
);
const VALUE_PIECES = words('1 x %20 + %2B %26 %3d %7e %zz % é = ? / utm_source');
const paramArb = fc.oneof(
  fc.constantFrom(...NAMES, ''),
  fc
    .tuple(fc.constantFrom(...NAMES, ''), joined(fc.constantFrom(...VALUE_PIECES), 3))
    .map(([name, value]) => `${name}=${value}`),
);
const queryArb = fc.oneof(
  fc.constant(''),
  fc.array(paramArb, { maxLength: 6 }).map((params) => `?${params.join('&')}`),
  joined(fc.constantFrom('?', '&', '&&', ';', '='), 4),
);
const fragmentArb = fc.oneof(
  fc.constant(''),
  joined(fc.constantFrom('#', '?', '&', 'x', 'utm_source=1', '!/', '%zz'), 4).map((f) => `#${f}`),
);

/** A URL from the vocabulary, usually well formed, often with odd parts. */
const vocabularyUrlArb = fc
  .tuple(
    schemeArb,
    afterSchemeArb,
    userInfoArb,
    hostArb,
    portArb,
    mostly('/', ['', '//', '\\']),
    pathArb,
    queryArb,
    fragmentArb,
  )
  .map((parts) => parts.join(''));

/** A relative href: path, query only, fragment only, protocol-relative or scheme-only. */
const relativeArb = fc
  .tuple(fc.constantFrom('', '', '/', '//example.org/', '../', './', 'http:'), pathArb, queryArb)
  .map(([head, path, query]) => head + path + query);
const baseArb = fc
  .tuple(hostArb, pathArb, queryArb)
  .map(([host, path, query]) => `https://${host}/${path}${query}`);

const optionsArb: fc.Arbitrary<NormalizeOptions> = fc.record(
  {
    keepTracking: fc.boolean(),
    stripQuery: fc.boolean(),
    stripParams: fc.subarray(words('sid q A %7euser')),
  },
  { requiredKeys: [] },
);

const anyUrlArb = fc.oneof(
  { arbitrary: vocabularyUrlArb, weight: 4 },
  {
    arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }),
    weight: 2,
  },
  // A well-formed URL with a few characters changed anywhere, to reach parser corners.
  fc
    .tuple(
      vocabularyUrlArb,
      fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 2 })), {
        maxLength: 3,
      }),
    )
    .map(([url, edits]) =>
      edits.reduce((text, [at, insert]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(i + 1);
      }, url),
    ),
);

/** Everything a result must satisfy, whatever the input. */
function checkResult(input: string, options: NormalizeOptions, result: string | null): void {
  if (result === null) return;
  const where = `${JSON.stringify(input)} ${JSON.stringify(options)} -> ${result}`;
  const { base: _base, ...queryOptions } = options;
  assert.equal(normalizeUrl(result, queryOptions), result, `idempotent: ${where}`);
  const url = URL.parse(result);
  assert.ok(url !== null, `parses: ${where}`);
  // Already in the form WHATWG serialises, so any other WHATWG-based tool agrees with it.
  assert.equal(url.href, result, `WHATWG-serialised: ${where}`);
  assert.match(url.protocol, /^https?:$/, where);
  assert.equal(url.hash, '', where);
  assert.ok(!url.pathname.includes('//'), `no repeated slash: ${where}`);
  assert.ok(!/%(?![0-9A-F]{2})/.test(result), `escapes upper-case and complete: ${where}`);
  assert.ok(
    !/%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)/.test(result),
    `unreserved: ${where}`,
  );
  if (options.stripQuery === true) assert.equal(url.search, '', where);
  const params = url.search === '' ? [] : url.search.slice(1).split('&');
  for (const param of params) {
    assert.notEqual(param, '', `no empty pieces: ${where}`);
    if (options.keepTracking !== true) {
      assert.ok(!isTrackingParam(param.split('=')[0] ?? ''), `no tracking: ${where}`);
    }
  }
}

describe('normalizeUrl properties', () => {
  test('absolute URLs: stable, WHATWG-serialised, nothing left to normalise', () => {
    fc.assert(
      fc.property(anyUrlArb, optionsArb, (input, options) => {
        const result = normalizeUrl(input, options);
        checkResult(input, options, result);
        const parsed = URL.parse(input);
        assert.equal(result !== null, parsed !== null && /^https?:$/.test(parsed.protocol));
      }),
      { seed: SEED, numRuns: 4000 },
    );
  });

  test('relative hrefs against a base: the same, and never relative', () => {
    fc.assert(
      fc.property(relativeArb, baseArb, optionsArb, (href, base, options) => {
        const withBase = { ...options, base };
        const result = normalizeUrl(href, withBase);
        checkResult(href, withBase, result);
        // Null only where WHATWG itself finds no http(s) URL (an empty host after `//`,
        // another scheme, a base that does not parse): no valid link is lost.
        const parsed = URL.parse(href, base);
        const http = parsed !== null && /^https?:$/.test(parsed.protocol);
        assert.equal(result !== null, http, `${JSON.stringify(href)} against ${base}`);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('arbitrary strings never throw', () => {
    const stringArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => `https://${s}`),
    );
    fc.assert(
      fc.property(stringArb, fc.option(stringArb, { nil: undefined }), (input, base) => {
        const options = base === undefined ? {} : { base };
        const result = normalizeUrl(input, options);
        assert.ok(result === null || typeof result === 'string');
        checkResult(input, options, result);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
