// Choosing a page's encoding (BOM, header, meta, default), the labels it accepts, and the
// push decoder: characters split across chunks decode whole, and the first 1024 bytes are
// held back until the choice is made.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { charsetParameter, encodingForLabel } from './html-charset-label.ts';
import { type CharsetChoice, chooseCharset, HtmlDecoder } from './html-decoder.ts';
import { PRESCAN_BYTES } from './html-prescan.ts';

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const META_GBK = ascii('<meta charset=gbk>');

const CHOICES: [about: string, head: number[], contentType: string | undefined, CharsetChoice][] = [
  ['UTF-8 BOM', [...UTF8_BOM, 0x3c], undefined, { charset: 'utf-8', source: 'bom', bomLength: 3 }],
  ['UTF-16BE BOM', [0xfe, 0xff, 0, 0x3c], undefined, bom('utf-16be')],
  ['UTF-16LE BOM', [0xff, 0xfe, 0x3c, 0], undefined, bom('utf-16le')],
  [
    'a BOM wins over header and meta',
    [...UTF8_BOM, ...META_GBK],
    'text/html; charset=big5',
    { charset: 'utf-8', source: 'bom', bomLength: 3 },
  ],
  ['header', META_GBK, 'text/html; charset=Shift_JIS', header('shift_jis')],
  ['header label', [], 'text/html; charset=latin1', header('windows-1252')],
  ['quoted header charset', [], 'text/html;charset="euc-kr"', header('euc-kr')],
  ['header UTF-16 is taken as sent', [], 'text/html; charset=utf-16', header('utf-16le')],
  ['unknown header charset: meta', META_GBK, 'text/html; charset=nope', meta('gbk')],
  ['replacement header charset: meta', META_GBK, 'text/html; charset=iso-2022-kr', meta('gbk')],
  ['header without charset: meta', META_GBK, 'text/html', meta('gbk')],
  ['no header: meta', META_GBK, undefined, meta('gbk')],
  ['nothing: UTF-8', ascii('<html>'), undefined, fallback()],
  ['empty: UTF-8', [], undefined, fallback()],
  ['half a BOM is not a BOM', [0xef, 0xbb], undefined, fallback()],
];

function bom(charset: string): CharsetChoice {
  return { charset, source: 'bom', bomLength: 2 };
}
function header(charset: string): CharsetChoice {
  return { charset, source: 'header', bomLength: 0 };
}
function meta(charset: string): CharsetChoice {
  return { charset, source: 'meta', bomLength: 0 };
}
function fallback(): CharsetChoice {
  return { charset: 'utf-8', source: 'default', bomLength: 0 };
}

describe('chooseCharset', () => {
  for (const [about, head, contentType, expected] of CHOICES) {
    test(about, () =>
      assert.deepEqual(chooseCharset(Uint8Array.from(head), contentType), expected),
    );
  }
});

const LABELS: [label: string, expected: string | null][] = [
  ['utf-8', 'utf-8'],
  [' UTF8 ', 'utf-8'],
  ['ISO-8859-1', 'windows-1252'],
  ['us-ascii', 'windows-1252'],
  ['sjis', 'shift_jis'],
  ['x-sjis', 'shift_jis'],
  ['ks_c_5601-1987', 'euc-kr'],
  ['gb2312', 'gbk'],
  ['iso-8859-15', 'iso-8859-15'],
  ['cp1250', 'windows-1250'],
  ['replacement', null],
  ['hz-gb-2312', null],
  ['utf-7', null],
  ['', null],
];

describe('encodingForLabel', () => {
  for (const [label, expected] of LABELS) {
    test(JSON.stringify(label), () => assert.equal(encodingForLabel(label), expected));
  }
});

const PARAMETERS: [contentType: string | undefined, expected: string | null][] = [
  [undefined, null],
  ['text/html', null],
  ['text/html; charset=utf-8', 'utf-8'],
  ['text/html;charset=UTF-8', 'UTF-8'],
  ['text/html; Charset = "Shift_JIS"', 'Shift_JIS'],
  ['text/html; charset="unterminated', 'unterminated'],
  ['text/html; charset=gbk; q=1', 'gbk'],
  ['text/html; foo=bar; charset=big5', 'big5'],
  ['text/html; xcharset=big5', null],
  ['text/html; charset=', null],
  ['text/html; charset=""', null],
];

describe('charsetParameter', () => {
  for (const [contentType, expected] of PARAMETERS) {
    test(String(contentType), () => assert.equal(charsetParameter(contentType), expected));
  }
});

/** Decodes `bytes` fed in the given pieces. */
function decode(pieces: Uint8Array[], contentType?: string): string {
  const decoder = new HtmlDecoder(contentType);
  let text = '';
  for (const piece of pieces) text += decoder.write(piece);
  return text + decoder.end();
}

function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

describe('HtmlDecoder', () => {
  const STREAMS: [about: string, bytes: number[], contentType: string | undefined, text: string][] =
    [
      ['UTF-8, 4-byte characters', [...new TextEncoder().encode('a😀b€')], undefined, 'a😀b€'],
      ['the BOM is not part of the text', [...UTF8_BOM, 0x61], undefined, 'a'],
      ['UTF-16LE with BOM', [0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde], undefined, '😀'],
      ['Shift_JIS, 0x5C second bytes', [0x95, 0x5c, 0x83, 0x5c], 'text/html;charset=sjis', '表ソ'],
      ['invalid UTF-8 becomes U+FFFD', [0x61, 0xff, 0xc3], undefined, 'a\ufffd\ufffd'],
    ];
  for (const [about, bytes, contentType, text] of STREAMS) {
    test(about, () => {
      const all = Uint8Array.from(bytes);
      assert.equal(decode([all], contentType), text);
      assert.equal(decode(byteByByte(all), contentType), text);
    });
  }

  test(`holds back the first ${PRESCAN_BYTES} bytes, then streams`, () => {
    const decoder = new HtmlDecoder();
    const filler = new Uint8Array(PRESCAN_BYTES - 1).fill(0x20);
    assert.equal(decoder.write(filler), '');
    assert.equal(decoder.choice, null);
    assert.equal(decoder.write(Uint8Array.of(0x61)), `${' '.repeat(PRESCAN_BYTES - 1)}a`);
    assert.deepEqual(decoder.choice, fallback());
    assert.equal(decoder.write(Uint8Array.of(0x62)), 'b');
    assert.equal(decoder.end(), '');
  });

  test('a short input is decided at end()', () => {
    const decoder = new HtmlDecoder();
    assert.equal(decoder.write(Uint8Array.from([...META_GBK, 0xb1, 0xed])), '');
    assert.equal(decoder.end(), '<meta charset=gbk>表');
    assert.deepEqual(decoder.choice, meta('gbk'));
  });
});
