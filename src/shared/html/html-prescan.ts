// The HTML Standard's "prescan a byte stream to determine its encoding" (§13.2.3.2), as
// browsers run it over the first 1024 bytes: it skips comments and other tags, reads the
// attributes of each <meta> the way the tokenizer would, and stops at the first
// `<meta charset>` or `<meta http-equiv="content-type" content="...charset=...">` that names
// an encoding. Pure: bytes in, an encoding name (as TextDecoder spells it) or null out.

import { encodingForLabel } from './html-charset-label.ts';

/** How many leading bytes the prescan looks at, as in browsers. */
export const PRESCAN_BYTES = 1024;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;

function isSpace(b: number | undefined): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

function isLetter(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
}

/** The byte as a character, with A-Z lowercased (the prescan lowercases names and values). */
function lower(b: number): string {
  return String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
}

/** Thrown inside the scan when the bytes run out; caught by {@link prescanCharset}. */
class EndOfInput {}

/** A cursor over the bytes; reading past the end ends the prescan without a result. */
class Cursor {
  readonly bytes: Uint8Array;
  at = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get byte(): number {
    const b = this.bytes[this.at];
    if (b === undefined) throw new EndOfInput();
    return b;
  }

  startsWith(ascii: string, caseInsensitive = false): boolean {
    for (let i = 0; i < ascii.length; i++) {
      const b = this.bytes[this.at + i];
      if (b === undefined) return false;
      const got = caseInsensitive ? lower(b) : String.fromCharCode(b);
      if (got !== ascii[i]) return false;
    }
    return true;
  }

  /** Moves one byte on; there must be a byte to move past. */
  next(): void {
    if (this.at >= this.bytes.length) throw new EndOfInput();
    this.at++;
  }

  /** Moves to the first `>` at or after the cursor. */
  skipToGt(): void {
    while (this.byte !== GT) this.at++;
  }
}

/**
 * The encoding a document's first bytes declare in a `<meta>`, or null when none is found
 * (or the declaration is cut off by the end of `head`). Looks at most at the first
 * {@link PRESCAN_BYTES} bytes. A declared UTF-16 means UTF-8 and `x-user-defined` means
 * windows-1252, as the standard says (bytes the prescan could read are not UTF-16).
 *
 * @example
 * ```ts
 * prescanCharset(new TextEncoder().encode('<meta charset="Shift_JIS">')); // 'shift_jis'
 * ```
 */
export function prescanCharset(head: Uint8Array): string | null {
  const cursor = new Cursor(head.subarray(0, PRESCAN_BYTES));
  try {
    for (; cursor.at < cursor.bytes.length; cursor.at++) {
      const found = step(cursor);
      if (found !== null) return found;
    }
  } catch (error) {
    if (!(error instanceof EndOfInput)) throw error;
  }
  return null;
}

/** One turn of the prescan loop at the cursor; leaves the cursor on the last byte it used. */
function step(cursor: Cursor): string | null {
  if (cursor.startsWith('<!--')) {
    // The comment ends at the first `-->` whose `>` comes after the `<!--` (`<!-->` counts).
    cursor.at += 2;
    while (!cursor.startsWith('-->')) cursor.next();
    cursor.at += 2;
    return null;
  }
  if (cursor.startsWith('<meta', true)) {
    const after = cursor.bytes[cursor.at + 5];
    if (isSpace(after) || after === SLASH) {
      cursor.at += 5;
      return metaCharset(cursor);
    }
  }
  const b = cursor.byte;
  const next = cursor.bytes[cursor.at + 1];
  if (b === LT && (isLetter(next) || (next === SLASH && isLetter(cursor.bytes[cursor.at + 2])))) {
    // Another start or end tag: skip its name, then its attributes.
    cursor.at += next === SLASH ? 2 : 1;
    while (!isSpace(cursor.byte) && cursor.byte !== GT) cursor.at++;
    while (attribute(cursor) !== null);
    return null;
  }
  if (b === LT && (next === BANG || next === SLASH || next === QUESTION)) {
    cursor.at += 2;
    cursor.skipToGt();
  }
  return null;
}

/** The attributes of a `<meta>`: the encoding it declares, or null to keep scanning. */
function metaCharset(cursor: Cursor): string | null {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null | 'failure' = null;
  for (let attr = attribute(cursor); attr !== null; attr = attribute(cursor)) {
    const [name, value] = attr;
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'http-equiv') {
      if (value === 'content-type') gotPragma = true;
    } else if (name === 'content') {
      const label = charsetInContent(value);
      if (label !== null && charset === null) {
        charset = encodingForLabel(label) ?? 'failure';
        needPragma = true;
      }
    } else if (name === 'charset') {
      charset = encodingForLabel(value) ?? 'failure';
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma)) return null;
  if (charset === null || charset === 'failure') return null;
  if (charset === 'utf-16le' || charset === 'utf-16be') return 'utf-8';
  if (charset === 'x-user-defined') return 'windows-1252';
  return charset;
}

/**
 * The standard's "get an attribute": `[name, value]` with A-Z lowercased, or null at the
 * `>` that ends the tag. Leaves the cursor after the attribute.
 */
function attribute(cursor: Cursor): [string, string] | null {
  while (isSpace(cursor.byte) || cursor.byte === SLASH) cursor.at++;
  if (cursor.byte === GT) return null;
  let name = '';
  const value = '';
  for (;;) {
    const b = cursor.byte;
    if (b === EQUALS && name !== '') {
      cursor.at++;
      return [name, readValue(cursor)];
    }
    if (isSpace(b)) break;
    if (b === SLASH || b === GT) return [name, value];
    name += lower(b);
    cursor.at++;
  }
  while (isSpace(cursor.byte)) cursor.at++;
  if (cursor.byte !== EQUALS) return [name, value];
  cursor.at++;
  return [name, readValue(cursor)];
}

/** An attribute value after its `=`: quoted, or up to whitespace or `>`. */
function readValue(cursor: Cursor): string {
  while (isSpace(cursor.byte)) cursor.at++;
  let value = '';
  const first = cursor.byte;
  if (first === 0x22 || first === 0x27) {
    for (cursor.at++; cursor.byte !== first; cursor.at++) value += lower(cursor.byte);
    cursor.at++;
    return value;
  }
  if (first === GT) return value;
  while (!isSpace(cursor.byte) && cursor.byte !== GT) {
    value += lower(cursor.byte);
    cursor.at++;
  }
  return value;
}

/**
 * The standard's "extracting a character encoding from a meta element": the label after
 * the first `charset=` in a `content` value (quoted or up to `;` or whitespace), or null.
 *
 * @example
 * ```ts
 * charsetInContent('text/html; charset=ISO-8859-1'); // 'ISO-8859-1'
 * ```
 */
export function charsetInContent(content: string): string | null {
  const lowered = content.toLowerCase();
  let at = 0;
  for (;;) {
    const found = lowered.indexOf('charset', at);
    if (found === -1) return null;
    at = found + 7;
    while (isSpace(content.charCodeAt(at))) at++;
    if (content[at] !== '=') continue;
    at++;
    while (isSpace(content.charCodeAt(at))) at++;
    const quote = content[at];
    if (quote === undefined) return null;
    if (quote === '"' || quote === "'") {
      const close = content.indexOf(quote, at + 1);
      return close === -1 ? null : content.slice(at + 1, close);
    }
    let end = at;
    while (end < content.length && content[end] !== ';' && !isSpace(content.charCodeAt(end))) {
      end++;
    }
    return content.slice(at, end);
  }
}
