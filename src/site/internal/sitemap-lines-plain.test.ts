// The direct rest of a plain entry (no writer call per entry) against the writer's own
// markup for the same URL: every case `plainRest` accepts must be byte for byte the writer's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UrlsetWriter } from '../../sitemap/index.ts';
import type { PageMeta } from './page-record.ts';
import type { SiteEntry } from './site-index.ts';
import { buildSitemapLines, newRestMemo, plainRest, w3cSeconds } from './sitemap-lines.ts';

const PLACEHOLDER = 'http://waymark.invalid';
const PIECES = [
  'a',
  'Z',
  '0',
  '-',
  '.',
  '..',
  '_',
  '~',
  '%',
  '%20',
  ' ',
  '&',
  "'",
  '<',
  'é',
  ':',
  '@',
  '+',
  '!',
  '(',
  '*',
  ';',
  '=',
  '?',
  '#',
  '\\',
  '',
];
const TIMES = [0, 1, 999, 1_000, 1_712_345_678_901.5, 946_684_799_999, 253_402_300_799_999];

/** Paths of one to three segments from the pieces, with and without a trailing slash. */
function* paths(): Generator<string> {
  for (const a of PIECES) {
    yield `/${a}`;
    yield `/${a}/`;
    for (const b of PIECES) {
      yield `/${a}${b}`;
      yield `/x/${a}/${b}`;
      yield `/id/${a}x${b}/`;
    }
  }
  yield `/${'a'.repeat(1024)}`;
  yield `/${'a'.repeat(1023)}`;
}

function writerRest(path: string, ms: number): string | null {
  const writer = new UrlsetWriter();
  writer.open();
  try {
    const result = writer.write({ loc: PLACEHOLDER + path, lastmod: w3cSeconds(ms) });
    return result.written ? result.xml.slice('<url><loc>'.length + PLACEHOLDER.length) : null;
  } catch {
    return null;
  }
}

function linesRest(path: string, ms: number): string {
  const page = { path: 'doc.md', lastModified: ms } as PageMeta;
  const entry: SiteEntry = {
    page,
    idPath: path,
    aliasPath: null,
    canonicalPath: path,
    listed: true,
  };
  return buildSitemapLines([entry], newRestMemo()).restBytes.toString('utf8');
}

test('every rest plainRest writes directly is the writer markup for that URL', () => {
  let plain = 0;
  let other = 0;
  for (const path of paths()) {
    for (const ms of TIMES) {
      if (!plainRest(path, ms)) {
        other++;
        continue;
      }
      plain++;
      assert.equal(linesRest(path, ms), writerRest(path, ms), `${JSON.stringify(path)} at ${ms}`);
    }
  }
  // Both sides of the edge were exercised.
  assert.ok(plain > 1_000 && other > 1_000, `${plain} plain, ${other} not`);
});

test('paths and times outside the plain form go through the writer', () => {
  for (const [path, ms] of [
    ['/a/./b', 0],
    ['/a/../b', 0],
    ['/..', 0],
    ['/a b', 0],
    ["/a'b", 0],
    ['/a//b', 0],
    ['/', 0],
    [`/${'a'.repeat(1024)}`, 0],
    ['/a', -1],
    ['/a', 253_402_300_800_000],
  ] as const) {
    assert.equal(plainRest(path, ms), false, path);
  }
});

test('the date of a plain rest is w3cSeconds of its time, over the whole range', () => {
  const last = 253_402_300_799_999;
  const times: number[] = [0, 999, 1000, 86_399_999, 86_400_000, last, last - 999, last - 1000];
  // Around every New Year and end of February from 1970 to 9999 (leap years and centuries).
  for (let year = 1970; year <= 9999; year += year < 2200 ? 1 : 37) {
    for (const at of [Date.UTC(year, 0, 1), Date.UTC(year, 2, 1)]) times.push(at - 1, at, at + 999);
  }
  let seed = 1;
  for (let i = 0; i < 20_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    times.push(Math.floor((seed / 2_147_483_647) * last) + (i % 2 === 0 ? 0.5 : 0));
  }
  for (const ms of times) {
    if (ms < 0 || ms > last) continue;
    assert.equal(
      linesRest('/a/b', ms),
      `/a/b</loc><lastmod>${w3cSeconds(ms)}</lastmod></url>\n`,
      `at ${ms}`,
    );
  }
});
