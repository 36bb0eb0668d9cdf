// parseNavmap is total at any size: a document past MAX_NAVMAP_BYTES is read up to the cap,
// with a too-large error, instead of throwing (V8 cannot make a string of 512 Mi characters,
// so decoding a larger input used to throw). The cut is tested at a small injected cap, in
// every encoding path; one real input just past 64 MiB goes through the public function.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeXmlText } from './internal/decode-xml-text.ts';
import { readNavmapDocument } from './internal/navmap-document.ts';
import { MAX_NAVMAP_BYTES, NAVMAP_NS } from './navmap-names.ts';
import { parseNavmap } from './parse-navmap.ts';

const URL_ = 'https://ex.org/nav/map.xml';
const OPEN = `<sitemap xmlns="${NAVMAP_NS}">`;

function utf16(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(2 * i, text.charCodeAt(i), littleEndian);
  return out;
}

describe('decodeXmlText cuts at the cap on a whole character', () => {
  const cases: [string, Uint8Array | string, string | undefined, number, string][] = [
    // [name, input, charset, cap, text expected]
    ['UTF-8, cut inside a 3-byte character', new TextEncoder().encode('ab€cd'), undefined, 4, 'ab'],
    ['UTF-8, cut after it', new TextEncoder().encode('ab€cd'), undefined, 5, 'ab€'],
    ['UTF-16LE, odd cap', utf16('<a>', true), 'utf-16le', 3, '<'],
    ['UTF-16BE, cut inside a surrogate pair', utf16('<😀', false), 'utf-16be', 4, '<'],
    ['Latin-1 (one byte each)', new Uint8Array([0x3c, 0xe9, 0xe8, 0x3e]), 'iso-8859-1', 3, '<éè'],
    [
      'windows-1252 through TextDecoder',
      new Uint8Array([0x3c, 0x80, 0x3e]),
      'windows-1252',
      2,
      '<€',
    ],
    ['a string, not splitting a surrogate pair', 'ab😀', undefined, 3, 'ab'],
  ];
  for (const [name, input, charset, cap, expected] of cases) {
    test(name, () => {
      const decoded = decodeXmlText(input, charset, cap);
      assert.equal(decoded.text, expected);
      assert.deepEqual(
        decoded.notes.filter(([, code]) => code === 'too-large').map(([severity]) => severity),
        ['error'],
      );
      assert.ok(!decoded.notes.some(([, code]) => code === 'invalid-encoding'));
    });
  }

  test('at or under the cap nothing is cut and nothing is said', () => {
    const decoded = decodeXmlText(new TextEncoder().encode('ab€'), undefined, 5);
    assert.equal(decoded.text, 'ab€');
    assert.deepEqual(decoded.notes, []);
  });
});

describe('a document past the cap', () => {
  test('is read up to it, with a too-large error at the start', () => {
    const items = Array.from({ length: 50 }, (_, i) => `<item name="n${i}" url="/p${i}"/>`);
    const text = `${OPEN}${items.join('')}</sitemap>`;
    const doc = readNavmapDocument(text, URL_, undefined, 300);
    assert.ok(doc.root !== null);
    const kept = doc.root.children.length;
    assert.ok(kept > 0 && kept < 50, `kept ${kept}`);
    const tooLarge = doc.diagnostics.find((d) => d.code === 'too-large');
    assert.equal(tooLarge?.severity, 'error');
    assert.equal(tooLarge?.line, 1);
    assert.match(
      tooLarge?.message ?? '',
      /larger than 300 bytes; only its first 300 bytes are read/,
    );
  });

  test('the cap keeps the text under the longest string V8 can make', () => {
    // Every encoding gives at most one UTF-16 code unit per byte, so the text is at most
    // MAX_NAVMAP_BYTES code units; V8's limit is 2 ** 29 - 24.
    assert.ok(MAX_NAVMAP_BYTES < 2 ** 29 - 24);
  });

  test(`parseNavmap with ${MAX_NAVMAP_BYTES + 16} bytes returns a tree and an error`, () => {
    // Real size, through the public function: 64 MiB of spaces after an open root.
    const bytes = new Uint8Array(MAX_NAVMAP_BYTES + 16).fill(0x20);
    bytes.set(new TextEncoder().encode(`${OPEN}<item name="Home" url="/"/>`));
    const tree = parseNavmap(bytes, { url: URL_ });
    assert.equal(tree.root?.children[0]?.label, 'Home');
    const errors = tree.diagnostics.filter((d) => d.code === 'too-large');
    assert.equal(errors.length, 1);
    assert.match(errors[0]?.message ?? '', /larger than 64 MiB/);
  });
});
