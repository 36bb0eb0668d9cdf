// The crawler's memos against the functions they stand for: the same answer for every URL,
// asked first (computed) and again (remembered), on tricky rows and on generated ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { normalizeUrl, originOf, pathFilter, sameSite } from '../../url/index.ts';
import { defaultNormalizeUrl } from './crawl-state-input.ts';
import { memoizedResolver, resolveUrl } from './html-urls.ts';
import { MEMO_ENTRIES, memoByAuthority, memoByString, plainAuthorityEnd } from './url-memo.ts';

const URLS = [
  'https://example.com/',
  'https://example.com/a/b?c#d',
  'http://example.com/a',
  'https://www.example.com/a',
  'https://example.com:443/a',
  'https://example.com:8443/a',
  'http://example.com:80/',
  'http://example.com:/x',
  'http://a:b:c/x',
  'http://1.2/x',
  'http://0x7f.1/x',
  'http://example.com./x',
  'http://xn--bcher-kva.example/x',
  'http://xn--a/x',
  'http://-a-.example/x',
  'http://EXAMPLE.com/x',
  'http://user:pw@example.com/x',
  'http://exa mple.com/x',
  'http://[::1]:8080/x',
  'http://example.com',
  'http:///x',
  'http://example.com\\x',
  'http://example.com/\t/x',
  'http://example.com:99999/x',
  'ftp://example.com/x',
  'javascript:alert(1)',
  'https://example.com.evil/x',
  'https://www.www.example.com/',
  'http://www/x',
];

const ALPHABET = ['a', 'b', 'w', '.', '-', ':', '/', '1', '8', 'x', '@', '%', 'A', ' ', '\\', '?'];

/** URLs on a few hosts built from characters that matter to the authority. */
function generatedUrls(count: number): string[] {
  const random = seededRandom(14);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let authority = '';
    const length = 1 + Math.floor(random() * 12);
    for (let j = 0; j < length; j++) authority += pick(ALPHABET);
    out.push(
      `${pick(['http://', 'https://', 'http:/', 'HTTP://'])}${authority}/${pick(['', 'p', 'a/b?q#f'])}`,
    );
  }
  return out;
}

describe('memoByAuthority', () => {
  const site = 'https://example.com/';
  const questions: [string, (url: string) => unknown][] = [
    ['originOf', (url) => originOf(url)],
    ['sameSite', (url) => sameSite(url, site)],
    [
      'sameSite canonicalHost',
      (url) => sameSite(url, 'https://www.example.com', { canonicalHost: true }),
    ],
    ['pathFilter without filters', pathFilter({ include: [], exclude: [] })],
  ];
  for (const [name, full] of questions) {
    test(`${name}: the same answers as the full function`, () => {
      const memo = memoByAuthority(full);
      for (const url of [...URLS, ...generatedUrls(3000), ...URLS]) {
        assert.deepEqual(memo(url), full(url), url);
      }
    });
  }

  test('only a plain lowercase authority before a slash is shared', () => {
    assert.equal(plainAuthorityEnd('https://example.com/a'), 'https://example.com'.length);
    assert.equal(plainAuthorityEnd('http://example.com:8080/'), 'http://example.com:8080'.length);
    for (const url of ['http://Example.com/', 'http://u@h/', 'http:///', 'http://h', 'ftp://h/']) {
      assert.equal(plainAuthorityEnd(url), -1, url);
    }
  });

  test('stays bounded: a full memo starts again', () => {
    let calls = 0;
    const memo = memoByAuthority((url) => {
      calls++;
      return url;
    });
    for (let i = 0; i <= MEMO_ENTRIES; i++) memo(`http://h${i}.example/`);
    assert.equal(memo('http://h0.example/x'), 'http://h0.example/');
    assert.equal(calls, MEMO_ENTRIES + 2);
  });
});

describe('memoByString', () => {
  test('normalizeUrl: the same answers, computed and remembered', () => {
    const full = (url: string) => normalizeUrl(url, { stripParams: ['utm_source'] });
    const memo = memoByString(full);
    for (const url of [
      ...URLS,
      ...generatedUrls(2000),
      ...URLS,
      'https://a.example/?utm_source=x',
    ]) {
      assert.deepEqual(memo(url), full(url), url);
      assert.deepEqual(memo(url), full(url), url);
    }
  });
  test("the crawl state's default key: the same keys, and a throw every time", () => {
    const memo = memoByString(defaultNormalizeUrl);
    for (const url of [...URLS, ...generatedUrls(2000), 'not a url', '', ...URLS]) {
      let expected: unknown;
      try {
        expected = defaultNormalizeUrl(url);
      } catch (error) {
        assert.throws(() => memo(url), { message: (error as Error).message }, url);
        assert.throws(() => memo(url), { message: (error as Error).message }, url);
        continue;
      }
      assert.equal(memo(url), expected, url);
      assert.equal(memo(url), expected, url);
    }
  });
});

describe('memoizedResolver', () => {
  const BASES = [
    'https://example.com/a/b.html?q=1#f',
    'https://example.com/other/',
    'http://example.com:8080/a/',
    'https://user:pw@example.com/a/',
    'https://example.com/docs/',
    'http://[::1]:3000/x',
  ];
  const VALUES = [
    undefined,
    '',
    '  ',
    '#top',
    '/',
    '/a',
    ' /a/../b?x#y ',
    '/a\t/b',
    '/\t/evil.example/',
    '/\n/evil.example/',
    '//cdn.example/x',
    '/\\evil.example/',
    '/%zz',
    '/ü?ü',
    '/a b',
    'c.html',
    '../c',
    '?x',
    'http://EXAMPLE.com:80/%7e',
    'https://other.example/a',
    'http:foo',
    'https:/x',
    'http://exa mple/',
    'HTTP://example.com/a',
    'mailto:a@example.com',
    'javascript:void(0)',
    'http://[::1/',
    // Path-absolute values resolved without the URL parser: each character class, dot
    // segments, and the characters that send a value to the parser.
    '/a-b_c.d~e!$&()*+,;=:@/x',
    '/a/b?c=d&e=f/g?h',
    '/a//b/',
    '/blog/2024/post-1?utm_source=x',
    '/.well-known/x',
    '/a/./b',
    '/a/.',
    '/a/..',
    '/a/%2e%2e/b',
    '/a?x/../y',
    "/a'b",
    "/a?b'c",
    '/A%20b',
    '/a|b',
    '/a[b]',
    '/a^b',
    '/a`b',
    '/a{b}',
    '/a"b',
    '/a<b>',
    '/a#b',
    '/a?b#c',
    '/a\\b',
    '/é',
    '/a\u0000b',
    '/a\u007fb',
  ];
  const random = seededRandom(41);
  const pieces = [
    '/',
    '//',
    '\\',
    '\t',
    '.',
    '..',
    'a',
    '%',
    '?',
    '#',
    ' ',
    'http:',
    'https://h',
    'ü',
    ':',
    '@',
    '=',
    '&',
    "'",
    '~',
    '!',
    '(',
    '+',
    ';',
    'A',
    '9',
    '|',
    '{',
    '^',
  ];
  // Half of them path-absolute, as most links of a site are.
  const generated = Array.from({ length: 3000 }, (_, n) => {
    let value = n % 2 === 0 ? '/' : '';
    const length = 1 + Math.floor(random() * 6);
    for (let i = 0; i < length; i++) value += pieces[Math.floor(random() * pieces.length)];
    return value;
  });

  test('the same outcome as resolveUrl for every base, value and fragment rule, twice', () => {
    for (const fragmentOnly of ['skip', 'keep'] as const) {
      for (let round = 0; round < 2; round++) {
        for (const href of BASES) {
          const base = new URL(href);
          const resolve = memoizedResolver(base);
          for (const value of [...VALUES, ...generated]) {
            assert.deepEqual(
              resolve(value, fragmentOnly),
              resolveUrl(value, base, fragmentOnly),
              `${JSON.stringify(value)} against ${href} (${fragmentOnly})`,
            );
          }
        }
      }
    }
  });
});
