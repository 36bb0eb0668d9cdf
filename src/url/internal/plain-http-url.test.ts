// Differential property test: the shortcut for plain URLs against the WHATWG parser. Inputs
// are mostly plain (so the shortcut answers often) with edge pieces mixed in: case, ports,
// dots and dot segments, escapes, non-ASCII, IPv4 and IPv6 hosts, `\`, tabs, fragments,
// tracking parameters, empty pieces. Wherever the shortcut answers, it must give exactly
// what the parser gives; normalizeUrl must give what it gives through the parser alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { NormalizeOptions } from '../normalize-url.ts';
import { normalizeUrl, normalizeUrlByParser } from '../normalize-url.ts';
import {
  COMPILE_AFTER,
  lastPlainHost,
  plainHref,
  plainHrefOnly,
  plainHttpUrl,
} from './plain-http-url.ts';

const SEED = 20_260_914;
const words = (text: string): string[] => text.split(' ');
const joined = (pieces: fc.Arbitrary<string>, maxLength: number) =>
  fc.array(pieces, { maxLength }).map((parts) => parts.join(''));
/** Usually one of `usual`, sometimes one of `odd`. */
const mostly = (usual: string[], odd: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...usual), weight: 6 },
    { arbitrary: fc.constantFrom(...odd), weight: 1 },
  );

const schemeArb = mostly(words('https:// http://'), [
  'HTTPS://',
  'Http://',
  'https:',
  'https:///',
  'https:\\\\',
  'ftp://',
  'javascript:',
  ' https://',
  '\thttps://',
  '',
]);
const hostArb = mostly(
  words('example.com www.example-shop.com a.b.c sub-1.example.org localhost x 1.example'),
  words(
    'Example.com EXAMPLE.COM example.com. .example.com a..b xn--bcher-kva.example xn--zz.example Bücher.example [::1] [2001:DB8::1] 127.0.0.1 192.168.000.1 0x7f.0.0.1 1.2.3 256.1.1.1 0.0.0.0 example.123 example.0x1f ex%61mple.com a_b.com user@example.com u:p@example.com @example.com example.com\\ exa\tmple.com a-.com -a.com',
  ).concat(['', ' ']),
);
const portArb = mostly(
  ['', '', '', ':8080', ':3000'],
  words(': :80 :443 :0 :08080 :65535 :65536 :123456 :8a'),
);
const pathPieceArb = mostly(
  words(
    '/ /a /b/ /index.html /products/oak-chair-100123 /blog/2024/05/how-to /~user /a;b=c /!$&()*+,=:@ /a-b_c.d',
  ),
  words(
    '// /. /.. /./ /../ /%2e /%2E /.%2e/ /%2e%2E /%7e /%41 /%zz /% /%%34 /é /😀 /%C3%A9 /a\\b \\ /a^b /a|b /a`b /a{b} /a"b /a<b> /a[b] /a\'b /a\tb /a\nb /a\rb /a%00 /a\u0000 /a\u007f /a b',
  ),
);
const pathArb = joined(pathPieceArb, 5);
const paramArb = mostly(
  words('id=1 q=oak+chair p=2 colour=red&size=m utm_source=x gclid=abc sid=9 a=%20 a=b/c a=?x'),
  words('a UTM_Medium=y a=%zz a=\'q\' a=é a="x" a=<b> a=^ a=| a={} a=` a=\\ a=%26 = & && a=#'),
);
const queryArb = fc.oneof(
  { arbitrary: fc.constant(''), weight: 3 },
  { arbitrary: fc.array(paramArb, { maxLength: 4 }).map((p) => `?${p.join('&')}`), weight: 3 },
  fc.constantFrom('?', '??', '?&', '?a?b'),
);
const fragmentArb = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  fc.constantFrom('#', '#top', '#a?b', '#a/b', '#%zz', '#a#b', '#é', '# x', "#'", '#`', '#"'),
);

const absoluteArb = fc
  .tuple(schemeArb, hostArb, portArb, pathArb, queryArb, fragmentArb)
  .map((parts) => parts.join(''));

const relativeArb = fc.oneof(
  fc
    .tuple(
      mostly(
        ['', '/', '//example.org', '//example.com:8080'],
        ['./', '../', '.', '..', '//', '\\\\', 'http:', 'a:', 'mailto:', '  ', '\t'],
      ),
      pathArb,
      queryArb,
      fragmentArb,
    )
    .map((parts) => parts.join('')),
  fc
    .tuple(mostly(['a', 'b/c', 'page.html'], ['a:b', '1:x', '.', '..']), queryArb)
    .map((p) => p.join('')),
  absoluteArb,
);

const baseArb = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        mostly(words('https:// http://'), ['HTTP://', 'file://']),
        hostArb,
        portArb,
        pathArb,
        queryArb,
        fragmentArb,
      )
      .map((p) => p.join('')),
    weight: 5,
  },
  fc.constantFrom('', 'not a url', 'https://example.com', 'https://example.com/a/b/c'),
);

/** A string with a few characters replaced anywhere, to reach corners no piece names. */
const editedArb = fc
  .tuple(absoluteArb, fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 2 })), { maxLength: 2 }))
  .map(([url, edits]) =>
    edits.reduce((text, [at, insert]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + 1);
    }, url),
  );

const optionsArb: fc.Arbitrary<NormalizeOptions> = fc.record(
  {
    keepTracking: fc.boolean(),
    stripQuery: fc.boolean(),
    stripParams: fc.subarray(words('sid q A')),
  },
  { requiredKeys: [] },
);

const RUNS = 20_000;

describe('plain URLs without the parser', () => {
  test('plainHref gives new URL(x).href and .host wherever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof(absoluteArb, editedArb), (input) => {
        const plain = plainHref(input);
        if (plain === null) return;
        answered++;
        const url = URL.parse(input);
        assert.ok(url !== null, JSON.stringify(input));
        assert.deepEqual(plain, { href: url.href, host: url.host }, JSON.stringify(input));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Not vacuous: most generated URLs are plain.
    assert.ok(answered > RUNS / 4, `answered ${answered} of ${RUNS}`);
  });

  test('plainHrefOnly and lastPlainHost answer exactly where plainHref does, with its values', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof(absoluteArb, editedArb), (input) => {
        const href = plainHrefOnly(input);
        const host = href === null ? null : lastPlainHost(` ${href}`.slice(1));
        const url = href === null ? null : URL.parse(input);
        if (href !== null) {
          answered++;
          assert.ok(url !== null, JSON.stringify(input));
          assert.deepEqual(
            { href, host },
            { href: url.href, host: url.host },
            JSON.stringify(input),
          );
        }
        assert.deepEqual(
          href === null ? null : { href, host },
          plainHref(input),
          JSON.stringify(input),
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(answered > RUNS / 4, `answered ${answered} of ${RUNS}`);
  });

  test('plainHrefOnly over runs of URLs on a few authorities answers as plainHref does', () => {
    // It compiles an expression for an authority after a run of plain URLs on it, and keeps a
    // few: each authority gets such a run first, then URLs that start the same way, plain or
    // not, come one after another, in any order.
    const authorityArb = fc.tuple(schemeArb, hostArb, portArb).map((parts) => parts.join(''));
    const tailArb = fc.tuple(pathArb, queryArb, fragmentArb).map((parts) => parts.join(''));
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(authorityArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(2), tailArb), { minLength: 1, maxLength: 12 }),
        (authorities, tails) => {
          for (const authority of authorities) {
            for (let i = 0; i <= COMPILE_AFTER; i++) plainHrefOnly(`${authority}/warm/${i}`);
          }
          for (const [pick, tail] of tails) {
            const input = `${authorities[pick % authorities.length]}${tail}`;
            const href = plainHrefOnly(input);
            if (href !== null) answered++;
            const host = href === null ? null : lastPlainHost(` ${href}`.slice(1));
            assert.deepEqual(
              href === null ? null : { href, host },
              plainHref(input),
              JSON.stringify(input),
            );
          }
        },
      ),
      // Each run warms its authorities up with a few hundred URLs: fewer runs.
      { seed: SEED, numRuns: RUNS / 10 },
    );
    assert.ok(answered > RUNS / 10, `answered ${answered}`);
  });

  test('plainHttpUrl gives the parser’s pieces, absolute and against a base', () => {
    let answered = 0;
    fc.assert(
      fc.property(relativeArb, fc.option(baseArb, { nil: undefined }), (input, base) => {
        const plain = plainHttpUrl(input, base);
        if (plain === null) return;
        answered++;
        const where = `${JSON.stringify(input)} against ${JSON.stringify(base)}`;
        const url = URL.parse(input, base);
        assert.ok(url !== null && /^https?:$/.test(url.protocol), where);
        assert.deepEqual(
          plain,
          {
            origin: `${url.protocol}//${url.host}`,
            host: url.host,
            pathname: url.pathname,
            search: url.search,
          },
          where,
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(answered > RUNS / 4, `answered ${answered} of ${RUNS}`);
  });

  test('normalizeUrl equals normalizeUrl through the parser alone', () => {
    fc.assert(
      fc.property(
        fc.oneof(absoluteArb, editedArb, relativeArb),
        fc.option(baseArb, { nil: undefined }),
        optionsArb,
        (input, base, options) => {
          const withBase = base === undefined ? options : { ...options, base };
          assert.equal(
            normalizeUrl(input, withBase),
            normalizeUrlByParser(input, withBase),
            `${JSON.stringify(input)} ${JSON.stringify(withBase)}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('a base given as a URL object reads as its href', () => {
    const base = new URL('https://example.com/a/b?x#y');
    for (const href of ['', '#z', '?q=1', 'c', '/d', '//other.example/e', 'https://f.example']) {
      assert.equal(normalizeUrl(href, { base }), normalizeUrlByParser(href, { base }), href);
    }
  });
});
