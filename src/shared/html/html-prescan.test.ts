// The prescan against the cases the HTML Standard's algorithm spells out (§13.2.3.2), one
// row each, and the content-attribute parser ("extracting a character encoding from a meta
// element").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { charsetInContent, PRESCAN_BYTES, prescanCharset } from './html-prescan.ts';

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const PRESCAN: [about: string, head: string, expected: string | null][] = [
  ['meta charset', '<meta charset="utf-8">', 'utf-8'],
  ['unquoted, any case', '<META CHARSET=Shift_JIS>', 'shift_jis'],
  ['single quotes, spaces around =', "<meta charset = 'EUC-KR' >", 'euc-kr'],
  ['a label is mapped to its encoding', '<meta charset="latin1">', 'windows-1252'],
  ['self-closing', '<meta charset="gbk"/>', 'gbk'],
  ['slash before attributes', '<meta/charset=big5>', 'big5'],
  ['after other tags', '<!doctype html><html lang=en><head><meta charset=koi8-r>', 'koi8-r'],
  [
    'http-equiv then content',
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">',
    'iso-8859-2',
  ],
  [
    'content then http-equiv',
    '<meta content="text/html; charset=windows-1251" http-equiv="content-type">',
    'windows-1251',
  ],
  ['content without http-equiv is no declaration', '<meta content="charset=gbk">', null],
  ['http-equiv other than content-type', '<meta http-equiv=refresh content="charset=gbk">', null],
  [
    'charset after content wins',
    '<meta content="text/html; charset=gbk" http-equiv=content-type charset=big5>',
    'big5',
  ],
  [
    'content after charset is not read',
    '<meta charset=big5 http-equiv=content-type content="charset=gbk">',
    'big5',
  ],
  ['the first of a duplicated attribute counts', '<meta charset=gbk charset=big5>', 'gbk'],
  ['an unknown charset: the next meta', '<meta charset=klingon><meta charset=euc-jp>', 'euc-jp'],
  ['UTF-16 declared means UTF-8', '<meta charset="utf-16le">', 'utf-8'],
  ['x-user-defined means windows-1252', '<meta charset="x-user-defined">', 'windows-1252'],
  ['a replacement label is passed over', '<meta charset=iso-2022-kr><meta charset=gbk>', 'gbk'],
  ['inside a comment', '<!-- <meta charset=gbk> --><meta charset=big5>', 'big5'],
  ['<!--> is a whole comment', '<!--><meta charset=gbk>', 'gbk'],
  ['<!---> is a whole comment', '<!---><meta charset=gbk>', 'gbk'],
  ['an unclosed comment hides the rest', '<!-- <meta charset=gbk>', null],
  ["in another tag's attribute", '<div title="<meta charset=gbk>"><meta charset=big5>', 'big5'],
  [
    'after an end tag with attributes',
    '</p class="<meta charset=gbk>"><meta charset=big5>',
    'big5',
  ],
  ['a bogus comment', '<!doctype <meta charset=gbk>><meta charset=big5>', 'big5'],
  ['a processing instruction', '<?xml <meta charset=gbk>?><meta charset=big5>', 'big5'],
  ['<metadata> is another tag', '<metadata charset=gbk><meta charset=big5>', 'big5'],
  ['<meta> without attributes', '<meta><meta charset=big5>', 'big5'],
  ['cut off inside the tag', '<meta charset="gbk', null],
  ['cut off before >', '<meta charset=gbk', null],
  ['cut off after the value', '<meta charset=gbk ', null],
  ['no meta at all', '<html><head><title>x</title></head>', null],
  ['empty', '', null],
  ['text before the meta', 'hello <b>world</b> <meta charset=gbk>', 'gbk'],
  ['a lone < before the meta', '< <a <meta charset=gbk>', null],
];

describe('prescanCharset', () => {
  for (const [about, head, expected] of PRESCAN) {
    test(about, () => assert.equal(prescanCharset(latin1(head)), expected));
  }

  test(`looks at the first ${PRESCAN_BYTES} bytes only`, () => {
    const meta = '<meta charset=gbk>';
    const fits = `<!--${'x'.repeat(PRESCAN_BYTES - meta.length - 7)}-->${meta}`;
    assert.equal(fits.length, PRESCAN_BYTES);
    assert.equal(prescanCharset(latin1(fits)), 'gbk');
    assert.equal(prescanCharset(latin1(` ${fits}`)), null);
  });
});

const CONTENT: [content: string, expected: string | null][] = [
  ['text/html; charset=utf-8', 'utf-8'],
  ['text/html;charset=UTF-8;foo=bar', 'UTF-8'],
  ['text/html; CHARSET = "Shift_JIS" ', 'Shift_JIS'],
  ["charset='gbk'", 'gbk'],
  ['charset="unterminated', null],
  ['charset=', null],
  ['charsetfoo; charset=big5', 'big5'],
  ['charset x charset=koi8-r', 'koi8-r'],
  ['text/html', null],
  ['charset=a b', 'a'],
];

describe('charsetInContent', () => {
  for (const [content, expected] of CONTENT) {
    test(JSON.stringify(content), () => assert.equal(charsetInContent(content), expected));
  }
});
