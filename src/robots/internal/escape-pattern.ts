import { nextNonAscii } from './robots-text.ts';

const HEX = '0123456789ABCDEF';

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** `%XX` for every byte, made once: escaping a byte then allocates no string. */
const ESCAPED_BYTES: readonly string[] = Array.from(
  { length: 256 },
  (_, byte) => `%${HEX[byte >> 4]}${HEX[byte & 0xf]}`,
);

function escapeByte(byte: number): string {
  return ESCAPED_BYTES[byte] as string;
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/**
 * Normalises an allow/disallow value the way Google does before matching: octets with the
 * high bit set are percent-encoded and existing `%xx` escapes are upper-cased. Nothing else
 * changes (`%2f` stays an escape, `/` stays a slash), so the result is pure ASCII.
 * `bytesAsChars`: each char of `value` is one byte; otherwise it is text, encoded as UTF-8.
 */
export function escapePattern(value: string, bytesAsChars = false): string {
  const length = value.length;
  let i = nextSpecial(value, 0);
  if (i === length) return value;
  // Unchanged runs are copied whole: appending char by char makes a rope as long as the
  // pattern, which every later read then has to flatten.
  let out = '';
  let copied = 0;
  for (; i < length; i = nextSpecial(value, i + 1)) {
    const c = value.charCodeAt(i);
    if (c === 0x25) {
      if (i + 2 < length && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
        const high = value.charCodeAt(i + 1);
        const low = value.charCodeAt(i + 2);
        if (high >= 0x61 || low >= 0x61) {
          out += value.slice(copied, i) + escapeByte((hexValue(high) << 4) | hexValue(low));
          copied = i + 3;
        }
        i += 2;
      }
      continue;
    }
    out += value.slice(copied, i);
    copied = i + 1;
    if (bytesAsChars) {
      out += escapeByte(c);
      continue;
    }
    // One code point (a surrogate pair is two chars) as its UTF-8 bytes; a lone surrogate
    // as U+FFFD, as TextEncoder writes it.
    const next = value.charCodeAt(i + 1);
    if (c < 0x800) {
      out += escapeByte(0xc0 | (c >> 6)) + escapeByte(0x80 | (c & 0x3f));
    } else if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      const point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      out +=
        escapeByte(0xf0 | (point >> 18)) +
        escapeByte(0x80 | ((point >> 12) & 0x3f)) +
        escapeByte(0x80 | ((point >> 6) & 0x3f)) +
        escapeByte(0x80 | (point & 0x3f));
      i++;
      copied = i + 1;
    } else {
      const unit = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
      out +=
        escapeByte(0xe0 | (unit >> 12)) +
        escapeByte(0x80 | ((unit >> 6) & 0x3f)) +
        escapeByte(0x80 | (unit & 0x3f));
    }
  }
  return out + value.slice(copied);
}

/** Past this many chars, the next `%` or non-ASCII char is searched for natively. */
const LOOP_LIMIT = 256;

/** Index of the next `%` or non-ASCII char at or after `from`, or the value's length. */
function nextSpecial(value: string, from: number): number {
  const length = value.length;
  if (length - from <= LOOP_LIMIT) {
    for (let i = from; i < length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80 || c === 0x25) return i;
    }
    return length;
  }
  const percent = value.indexOf('%', from);
  const wide = nextNonAscii(value, from);
  return percent >= 0 && percent < wide ? percent : wide;
}
