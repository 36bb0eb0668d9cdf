import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseOptHeader } from './opt-header.ts';

const CASES: readonly [string, string, ReturnType<typeof parseOptHeader>][] = [
  ['one declaration', '"urn:a"; ns=42', [{ uri: 'urn:a', ns: '42' }]],
  ['whitespace around ; and =', '"urn:a"  ;  ns =  42 ', [{ uri: 'urn:a', ns: '42' }]],
  [
    'several declarations with extra parameters',
    '"urn:a"; x=1; ns=10, "urn:b";ns=200;y="q, r"',
    [
      { uri: 'urn:a', ns: '10' },
      { uri: 'urn:b', ns: '200' },
    ],
  ],
  ['no ns', '"urn:a"; x=1', [{ uri: 'urn:a', ns: null }]],
  ['a one-digit ns is no prefix', '"urn:a"; ns=4', [{ uri: 'urn:a', ns: null }]],
  ['a non-digit ns is no prefix', '"urn:a"; ns=4a', [{ uri: 'urn:a', ns: null }]],
  ['NS in capitals is ns', '"urn:a"; NS=12', [{ uri: 'urn:a', ns: '12' }]],
  ['the first ns counts', '"urn:a"; ns=12; ns=34', [{ uri: 'urn:a', ns: '12' }]],
  ['a quoted ns value', '"urn:a"; ns="12"', [{ uri: 'urn:a', ns: '12' }]],
  ['empty list elements', ' , ,"urn:a";ns=12,,', [{ uri: 'urn:a', ns: '12' }]],
  ['escapes in the quoted URI', '"urn:\\"a\\""; ns=12', [{ uri: 'urn:"a"', ns: '12' }]],
  ['an unterminated quote yields nothing', '"urn:a; ns=12', []],
  [
    'a comma inside a quoted value',
    '"urn:a"; x="1, \\"urn:b\\"; ns=13"',
    [{ uri: 'urn:a', ns: null }],
  ],
  [
    'an unquoted URI, leniently',
    'http://x.example/ns; ns=12',
    [{ uri: 'http://x.example/ns', ns: '12' }],
  ],
  ['garbage is skipped to the next comma', ';;; ==, "urn:b"; ns=99', [{ uri: 'urn:b', ns: '99' }]],
  ['empty', '', []],
];

for (const [name, value, expected] of CASES) {
  test(`parseOptHeader: ${name}`, () => {
    assert.deepEqual(parseOptHeader(value), expected);
  });
}
