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
    const fields = value === null ? [] : [value];
    assert.deepEqual(readRobotsHeader(fields, 'field'), { noindex, nofollow }, String(value));
  }
});

test('X-Robots-Tag: a bot prefix holds to the end of its field, not into the next one', () => {
  const table: [string[], boolean, boolean][] = [
    [['bingbot: nofollow', 'noindex'], true, false],
    [['otherbot: noarchive', 'noindex, nofollow'], true, true],
    [['otherbot: noindex', 'googlebot: nofollow'], false, true],
    [['googlebot: noindex', 'otherbot: nofollow'], true, false],
    [['otherbot: noindex, nofollow', 'noarchive'], false, false],
    // A directive with a value is no bot prefix.
    [['max-snippet: 0, noindex'], true, false],
    [
      ['max-image-preview:large, nofollow', 'unavailable_after: 25 Jun 2010 15:00:00 PST'],
      false,
      true,
    ],
    [['otherbot: max-snippet: 0, noindex'], false, false],
  ];
  for (const [fields, noindex, nofollow] of table) {
    assert.deepEqual(readRobotsHeader(fields, 'field'), { noindex, nofollow }, fields.join(' | '));
  }
});

test('X-Robots-Tag joined by a fetch: a bot prefix holds for one directive, so no noindex is lost', () => {
  const table: [string, boolean, boolean][] = [
    ['bingbot: nofollow, noindex', true, false],
    ['otherbot: noarchive, noindex, nofollow', true, true],
    ['otherbot: noindex, googlebot: nofollow', false, true],
    ['otherbot: noindex', false, false],
    ['googlebot: noindex, nofollow', true, true],
    ['max-snippet: 0, noindex', true, false],
  ];
  for (const [value, noindex, nofollow] of table) {
    assert.deepEqual(readRobotsHeader([value], 'directive'), { noindex, nofollow }, value);
  }
});
