import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededRandom } from '../../../test-support/seeded-random.ts';
import { jsonElementLines, jsonErrorOffset } from './json-positions.ts';

describe('jsonElementLines', () => {
  test('the line each element of the top-level key opens on', () => {
    const text =
      '{\n  "other": [1, 2],\n  "crawlers": [\n    {"a": "[,{"},\n\n    {"b": [1,\n 2]}, 3\n  ],\n  "x": {"crawlers": [9]}\n}';
    assert.deepEqual(jsonElementLines(text, 'crawlers'), [4, 6, 7]);
    assert.deepEqual(jsonElementLines('{"crawlers": []}', 'crawlers'), []);
    assert.deepEqual(jsonElementLines('[{"crawlers": [1]}]', 'crawlers'), []);
  });
});

describe('jsonErrorOffset', () => {
  const cases: [string, number][] = [
    ['{"a": }', 6],
    ['{"a" 1}', 5],
    ['[1, 2,]', 6],
    ['{"a": 1,}', 8],
    ['[1 2]', 3],
    ['{"a": tru}', 6],
    ['"abc', 4],
    ['"a\\x"', 2],
    ['"a\nb"', 2],
    ['[1]]', 3],
    ['', 0],
    ['[', 1],
    ['01', 1],
    ['{"a": [1, {"b": null}], "c": -0.5e+3}', -1],
  ];
  for (const [text, offset] of cases) {
    test(`${JSON.stringify(text)} -> ${offset}`, () => {
      assert.equal(jsonErrorOffset(text), offset);
    });
  }

  test('agrees with JSON.parse on whether random texts are JSON', () => {
    const random = seededRandom(11);
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"k"',
      ':',
      ',',
      'null',
      'true',
      '1',
      '-2.5e3',
      ' ',
      '\n',
      '"\\u00e9"',
      '"\\q"',
      '0',
      '.',
    ];
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      if (parses) valid++;
      assert.equal(jsonErrorOffset(text) === -1, parses, text);
    }
    assert.ok(valid > 200, `enough valid samples (${valid})`);
  });

  test('deep nesting does not overflow', () => {
    assert.equal(jsonErrorOffset(`${'['.repeat(200_000)}${']'.repeat(200_000)}`), -1);
    assert.equal(jsonErrorOffset('['.repeat(200_000)), 200_000);
  });
});
