// The array codec on its own: PostgreSQL's output forms read back, and what it writes read
// back to the same values. pool-on-server.test.ts sends the same through a real server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseArray, serializeArray } from './array-codec.ts';

const asText = (text: string) => text;

describe('parseArray', () => {
  const read: [string, (string | null)[]][] = [
    ['{}', []],
    ['{a}', ['a']],
    ['{a,b,c}', ['a', 'b', 'c']],
    ['{NULL,"NULL",null}', [null, 'NULL', 'null']],
    ['{"",""}', ['', '']],
    ['{"a,b","c d","{e}"}', ['a,b', 'c d', '{e}']],
    ['{"say \\"hi\\"","back\\\\slash","\\\\"}', ['say "hi"', 'back\\slash', '\\']],
    ['[0:1]={x,y}', ['x', 'y']],
    [
      '{https://a.example/,"https://b.example/?q=1,2"}',
      ['https://a.example/', 'https://b.example/?q=1,2'],
    ],
  ];
  for (const [text, values] of read) {
    it(`reads ${text}`, () => assert.deepEqual(parseArray(text, asText), values));
  }

  it('applies the element parser to every element but NULL', () => {
    assert.deepEqual(parseArray('{1,-2,NULL,3.5,"4"}', Number), [1, -2, null, 3.5, 4]);
  });

  const refused = [
    '{,}',
    '{a,}',
    '{a}}',
    '{a,,b}',
    '',
    '{',
    '}',
    'a',
    '{a',
    'a}',
    '[0:1]{a}',
    '[0:1',
    '{{a},{b}}',
    '{"a}',
    '{"a"b}',
    '{a"b}',
    '{a,,b}x',
  ];
  for (const text of refused) {
    it(`refuses ${JSON.stringify(text)}`, () =>
      assert.throws(() => parseArray(text, asText), SyntaxError));
  }
});

describe('serializeArray', () => {
  it('quotes every element, escapes quotes and backslashes, writes NULL for null', () => {
    assert.equal(serializeArray([]), '{}');
    assert.equal(
      serializeArray(['a', null, 'b"c\\d', 7, 1.5]),
      '{"a",NULL,"b\\"c\\\\d","7","1.5"}',
    );
  });

  it('refuses what no statement takes: a non-array, undefined, a nested array', () => {
    for (const bad of ['{a}', 3, null, [undefined], [['a']]]) {
      assert.throws(() => serializeArray(bad), TypeError);
    }
  });

  it('reads back what it wrote, any text and nulls', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ unit: 'binary' }), { nil: null })), (values) => {
        assert.deepEqual(parseArray(serializeArray(values), asText), values);
      }),
      { numRuns: 500 },
    );
  });
});
