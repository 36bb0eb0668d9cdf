// What a document keeps is stored in cheaper forms (strings of their own instead of slices,
// small integers instead of boxed numbers): the values must stay exactly the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { smallInteger } from './page-record.ts';
import { ownString, quickSidecar } from './sidecar.ts';

const TEXT = [
  '',
  'a',
  'twelve chars',
  'thirteen char',
  'Getting started with the site',
  'quotes " and \\ backslashes',
  'control \u0000 \u0001 \u001f \u007f characters',
  'Über straße, 日本語',
  'astral 🙂 and a lone surrogate \ud800 and \udc00 too',
  '\u2028\u2029 line separators',
  'x'.repeat(5000),
];

test('ownString returns the same text, for slices and whole strings', () => {
  for (const text of TEXT) {
    assert.equal(ownString(text), text);
    const padded = `<<${text}>>`;
    assert.equal(ownString(padded.slice(2, -2)), text);
  }
});

test('smallInteger keeps every number equal to what it was given', () => {
  const values = [
    0,
    -0,
    1,
    4096,
    65024,
    5_555_912,
    2 ** 30 - 1,
    2 ** 30,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32,
    2 ** 32 + 5,
    2 ** 53 - 1,
    2 ** 53,
    1.5,
    1_795_581_089_478.3367,
    -1,
    -(2 ** 31),
    Number.MAX_VALUE,
    Number.POSITIVE_INFINITY,
  ];
  for (const n of values) assert.ok(Object.is(smallInteger(n), n), String(n));
  assert.ok(Number.isNaN(smallInteger(Number.NaN)));
});

test('quick sidecars keep their values and share their empty lists', () => {
  const first = quickSidecar(
    'title: "A title long enough to be sliced"\nalias: some/long/alias/path\nid: ABCDEF0123456789\n',
  );
  const second = quickSidecar('title: short\n');
  assert.ok(first !== null && second !== null);
  assert.equal(first.title, 'A title long enough to be sliced');
  assert.equal(first.alias, 'some/long/alias/path');
  assert.equal(first.id, 'abcdef0123456789');
  assert.deepEqual(first.roles, []);
  assert.deepEqual(first.diagnostics, []);
  assert.equal(first.roles, second.roles);
  assert.equal(first.diagnostics, second.diagnostics);
});
