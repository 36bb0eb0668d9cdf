// StreamDecoder gives the same text however its input is cut: at every split of inputs that
// mix characters of two to four bytes with invalid bytes (where it turns from strict to
// lenient UTF-8), and byte by byte.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StreamDecoder, unfinishedUtf8 } from './text-decoding.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)),
  );

function decodeIn(pieces: Uint8Array[]): { text: string; invalid: boolean } {
  const decoder = new StreamDecoder('utf-8');
  let text = '';
  for (const piece of pieces) text += decoder.decode(piece);
  text += decoder.decode(new Uint8Array(0), true);
  return { text, invalid: decoder.invalid };
}

const CASES: [string, Uint8Array, string][] = [
  ['a two-byte character, then an invalid byte', bytes('aé', 'b', [0xff], 'c'), 'aéb\ufffdc'],
  ['an invalid byte right after a three-byte character', bytes('x漢', [0xff]), 'x漢\ufffd'],
  ['a four-byte character, then a lone continuation byte', bytes('😀', [0x80], 'z'), '😀\ufffdz'],
  ['a character cut short by an invalid byte', bytes([0xe6, 0xbc], [0xff], 'q'), '\ufffd\ufffdq'],
  ['valid throughout', bytes('café 漢字 😀'), 'café 漢字 😀'],
  ['a character cut at the very end', bytes('ok', [0xe6, 0xbc]), 'ok\ufffd'],
];

describe('StreamDecoder: the same text at every split', () => {
  for (const [name, input, expected] of CASES) {
    test(name, () => {
      const whole = decodeIn([input]);
      assert.equal(whole.text, expected);
      for (let cut = 0; cut <= input.length; cut++) {
        assert.deepEqual(
          decodeIn([input.subarray(0, cut), input.subarray(cut)]),
          whole,
          `cut at ${cut}`,
        );
      }
      const byByte = Array.from({ length: input.length }, (_, i) => input.subarray(i, i + 1));
      assert.deepEqual(decodeIn(byByte), whole, 'byte by byte');
    });
  }
});

describe('unfinishedUtf8', () => {
  const none = new Uint8Array(0);
  const cases: [string, Uint8Array, Uint8Array, number[]][] = [
    ['ASCII at the end', none, bytes('abc'), []],
    ['a whole two-byte character', none, bytes('é'), []],
    ['the first byte of two', none, bytes('a', [0xc3]), [0xc3]],
    ['two bytes of three', none, bytes([0xe6, 0xbc]), [0xe6, 0xbc]],
    [
      'three bytes of four, across the two inputs',
      bytes([0xf0, 0x9f]),
      bytes([0x98]),
      [0xf0, 0x9f, 0x98],
    ],
    ['a whole four-byte character across the two', bytes([0xf0, 0x9f]), bytes([0x98, 0x80]), []],
  ];
  for (const [name, before, after, expected] of cases) {
    test(name, () => assert.deepEqual([...unfinishedUtf8(before, after)], expected));
  }
});
