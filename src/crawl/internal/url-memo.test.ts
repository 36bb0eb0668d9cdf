// The crawler's memos against the functions they stand for: the same answer for every URL,
// asked first (computed) and again (remembered), on tricky rows and on generated ones.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { normalizeUrl, originOf, pathFilter, sameSite } from '../../url/index.ts';
import { defaultNormalizeUrl } from './crawl-state-input.ts';
import { memoizedResolver, resolveUrl } from './html-urls.ts';
import {
  keepingNormalUrls,
  MEMO_ENTRIES,
  memoByAuthority,
  memoByString,
  plainAuthorityEnd,
} from './url-memo.ts';

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

  for (const [name, full] of questions) {
    test(`${name}: the last authority asked answers the URLs that start with it, and only those`, () => {
      const memo = memoByAuthority(full);
      const near = [
        'https://example.com/',
        'https://example.com.evil/',
        'https://example.com:444/',
        'https://example.co/',
        'http://example.com/',
        'https://www.example.com/',
        'https://example.com/../x',
        'https://example.com//other.example/',
        'https://example.com/\\other.example/',
        'https://sub.example.com/',
        'https://example.com@other.example/',
      ];
      for (const url of [...near, ...near.toReversed(), ...URLS, ...generatedUrls(1500)]) {
        for (const suffix of ['', 'x', '/../y', '\\z?q#f', '.evil/', ':1/']) {
          assert.deepEqual(memo(`${url}${suffix}`), full(`${url}${suffix}`), `${url}${suffix}`);
        }
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

describe('keepingNormalUrls', () => {
  /** URLs at the edge of "already normal": authorities and paths WHATWG rewrites, or not. */
  const EDGE = [
    'http://a.example/',
    'http://a.example',
    'http://a.example/?',
    'http://a.example/x?y=./z',
    'http://a.example/a/./b',
    'http://a.example/a/../b',
    'http://a.example/a/.',
    'http://a.example/a/..',
    'http://a.example/.well-known/x',
    'http://a.example/a/%2e%2e/b',
    'http://a.example/%41',
    "http://a.example/a'b",
    "http://a.example/?a'b",
    'http://a.example/a b',
    'http://a.example/a|b{c}^`"<>',
    'http://a.example/x#f',
    'http://a.example/x?y#',
    'http://a.example/\\x',
    'http://a.example/é',
    'http://a.example/~!$&()*+,;=:@-._/?~!$&()*+,;=:@-._/?',
    'http://A.example/',
    'http://a.example:80/',
    'https://a.example:443/x',
    'https://a.example:80/x',
    'http://a.example:8080/x',
    'http://a.example:08080/x',
    'http://a.example:/x',
    'http://127.1/x',
    'http://127.0.0.1/x',
    'http://127.0.0.01/x',
    'http://1.2.3.4.5/x',
    'http://0x7f.0.0.1/x',
    'http://256.0.0.1/x',
    'http://999999999999/x',
    'http://a.example./x',
    'http://a..example/x',
    'http://.a.example/x',
    'http://xn--a/x',
    'http://xn--bcher-kva.example/x',
    'http://-a.example/x',
    'http://a:b/x',
    'http://a.example:99999/x',
    'http://a.example:1:2/x',
    'http://user@a.example/x',
    'ftp://a.example/x',
    'not a url',
    '',
  ];

  test("the crawl state's default key: the same keys, and the same throws", () => {
    const key = keepingNormalUrls(memoByString(defaultNormalizeUrl));
    const random = seededRandom(14);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const pieces = [
      'a',
      'Z',
      '9',
      '-',
      '.',
      '..',
      '/',
      '?',
      '=',
      '&',
      '%2e',
      "'",
      '~',
      ':',
      '@',
      '#',
      ' ',
      '\\',
      'é',
    ];
    const generated = Array.from({ length: 3000 }, () => {
      let path = '/';
      for (let i = Math.floor(random() * 8); i > 0; i--) path += pick(pieces);
      return `${pick(['http://a.example', 'https://b.example:8443', 'http://127.0.0.1:9', 'http://A.example', 'http://c.example:80'])}${path}`;
    });
    for (const url of [...EDGE, ...URLS, ...generatedUrls(2000), ...generated, ...EDGE]) {
      let expected: string;
      try {
        expected = defaultNormalizeUrl(url);
      } catch (error) {
        assert.throws(() => key(url), { message: (error as Error).message }, url);
        continue;
      }
      assert.equal(key(url), expected, url);
      assert.equal(key(url), expected, url);
    }
  });

  test('a URL in its normal form is given back without asking the key', () => {
    let asked = 0;
    const key = keepingNormalUrls((url) => {
      asked++;
      return defaultNormalizeUrl(url);
    });
    assert.equal(key('http://a.example/x/y?z=1'), 'http://a.example/x/y?z=1');
    assert.equal(key('http://a.example/x/y?z=2'), 'http://a.example/x/y?z=2');
    assert.equal(asked, 0);
    assert.equal(key('http://a.example/x/../y'), 'http://a.example/y');
    assert.equal(asked, 1);
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
