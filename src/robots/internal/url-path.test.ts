// The fast path for http(s) URLs is held to the general, step-by-step one on URLs built from
// the characters that decide where a path starts and ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathForMatching, pathOfAnyUrl } from './url-path.ts';

const EDGES = [
  'https://a.example',
  'https://a.example/',
  'http://a.example?q',
  'https://a.example;p=1/x',
  'https://a.example#top/x',
  'https://a.example/x#top',
  'https://a.example/x?y#z?w',
  'https://a.example\0/x',
  'https://a.example/x\0y#z',
  'https://a.example/x#y\0z',
  'https://user:pw@a.example:8080/x;y?z',
  'https://[::1]:80/x',
  'http://',
  'https://',
  'https:///x',
  'http://a.example//x',
  'https://a.example/?',
  'https://a.example/%00/x',
];

/** A deterministic pseudo-random generator, so a failure names a reproducible case. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

test('the http(s) fast path finds the same path as the general one', () => {
  for (const url of EDGES) assert.equal(pathForMatching(url), pathOfAnyUrl(url), url);
  const random = seeded(14);
  const pieces = [
    'a',
    'b.c',
    '/',
    '?',
    ';',
    '#',
    '\0',
    ':',
    '//',
    '@',
    '%2F',
    'é',
    'x=1',
    '[',
    ']',
  ];
  for (let i = 0; i < 20_000; i++) {
    let url = random() < 0.5 ? 'https://' : 'http://';
    const count = Math.floor(random() * 8);
    for (let k = 0; k < count; k++) url += pieces[Math.floor(random() * pieces.length)];
    assert.equal(pathForMatching(url), pathOfAnyUrl(url), JSON.stringify(url));
  }
});
