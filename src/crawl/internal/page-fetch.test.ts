import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRobotsHeader } from './page-fetch.ts';

test('X-Robots-Tag: directives for every crawler or for Googlebot apply, others do not', () => {
  const table: [string | null, boolean, boolean][] = [
    [null, false, false],
    ['noindex', true, false],
    ['NoIndex, NoFollow', true, true],
    ['none', true, true],
    ['nofollow', false, true],
    ['googlebot: noindex', true, false],
    ['otherbot: noindex, nofollow', false, false],
    ['otherbot: noindex, googlebot: nofollow', false, true],
    ['unavailable_after: 25 Jun 2010 15:00:00 PST', false, false],
    ['noarchive, nosnippet', false, false],
  ];
  for (const [value, noindex, nofollow] of table) {
    assert.deepEqual(readRobotsHeader(value), { noindex, nofollow }, String(value));
  }
});
