// StreamDecoder gives the same text however its input is cut: at every split of inputs that
// mix characters of two to four bytes with invalid bytes (where it turns from strict to
// lenient UTF-8), and byte by byte; and where its first U+FFFD for bad bytes stands.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { firstInvalidUtf8, StreamDecoder, unfinishedUtf8 } from './text-decoding.ts';

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

/** Bytes near UTF-8: ASCII, lead and continuation bytes of every range, and encoded text. */
const utf8ish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        [0x41],
        [0x80],
        [0xbf],
        [0xc0],
        [0xc2],
        [0xdf],
        [0xe0],
        [0xe0, 0xa0],
        [0xed, 0xa0],
      ),
      fc.constantFrom([0xef], [0xf0], [0xf0, 0x90], [0xf4, 0x8f], [0xf4, 0x90], [0xf5], [0xff]),
      fc.string({ unit: 'grapheme', maxLength: 3 }).map((t) => [...new TextEncoder().encode(t)]),
    ),
    { maxLength: 12 },
  )
  .map((parts) => new Uint8Array(parts.flat()));

describe('firstInvalidUtf8 and StreamDecoder.invalidAt, against TextDecoder', () => {
  test('-1 exactly when a strict decoder takes the bytes; else whole characters before it', () => {
    fc.assert(
      fc.property(utf8ish, fc.boolean(), (input, last) => {
        const at = firstInvalidUtf8(input, last);
        let strictTakes = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(input, { stream: !last });
        } catch {
          strictTakes = false;
        }
        assert.equal(at === -1, strictTakes);
        if (at < 0) return;
        // Before it, whole valid characters; at it, the U+FFFD a lenient decoder writes.
        const good = new TextDecoder('utf-8', { fatal: true }).decode(input.subarray(0, at));
        const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
        assert.ok(lenient.startsWith(good));
        assert.equal(lenient.charAt(good.length), '\ufffd');
      }),
      { numRuns: 3_000 },
    );
  });

  test('invalidAt: in the text of the write that turned lenient, wherever the writes are cut', () => {
    fc.assert(
      fc.property(utf8ish, fc.integer({ min: 0, max: 40 }), (input, cut) => {
        const decoder = new StreamDecoder('utf-8');
        let before = '';
        for (const piece of [input.subarray(0, cut), input.subarray(cut)]) {
          const wasInvalid = decoder.invalid;
          const text = decoder.decode(piece);
          if (!wasInvalid && decoder.invalid) {
            const whole = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
            // Everything before the first bad byte, then its U+FFFD.
            assert.equal(whole.charAt(before.length + decoder.invalidAt), '\ufffd');
            assert.equal(
              (before + text.slice(0, decoder.invalidAt)).length,
              new TextDecoder().decode(
                input.subarray(0, Math.max(0, firstInvalidUtf8(input, false))),
              ).length,
            );
            return;
          }
          before += text;
        }
      }),
      { numRuns: 3_000 },
    );
  });
});
