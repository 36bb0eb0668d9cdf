import { encodeUtf8 } from '../internal/robots-text.ts';

// escapePattern as it was before issue 14 (one char appended at a time), kept only as the
// slow twin the faster one is tested against.

const HEX = '0123456789ABCDEF';

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/**
 * Normalises an allow/disallow value the way Google does before matching: octets with the
 * high bit set are percent-encoded and existing `%xx` escapes are upper-cased. Nothing else
 * changes (`%2f` stays an escape, `/` stays a slash), so the result is pure ASCII.
 * `bytesAsChars`: each char of `value` is one byte; otherwise it is text, encoded as UTF-8.
 */
export function referenceEscapePattern(value: string, bytesAsChars = false): string {
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x80 || c === 0x25) break;
  }
  if (i === value.length) return value;
  let out = value.slice(0, i);
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (
      c === 0x25 &&
      i + 2 < value.length &&
      isHex(value.charCodeAt(i + 1)) &&
      isHex(value.charCodeAt(i + 2))
    ) {
      out += `%${value.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (c < 0x80) {
      out += value[i];
    } else if (bytesAsChars) {
      out += `%${HEX[c >> 4]}${HEX[c & 0xf]}`;
    } else {
      // One code point (a surrogate pair is two chars) as its UTF-8 bytes.
      const next = value.charCodeAt(i + 1);
      const wide = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
      const char = wide ? value.slice(i, i + 2) : value[i];
      if (wide) i++;
      for (const byte of encodeUtf8(char as string)) out += `%${HEX[byte >> 4]}${HEX[byte & 0xf]}`;
    }
  }
  return out;
}
