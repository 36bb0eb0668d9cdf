const HEX_DIGITS = '0123456789ABCDEF';

/**
 * Percent escapes in one canonical form (RFC 3986 section 6.2.2): hex digits upper-cased,
 * escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded, every other escape kept.
 * A `%` that does not start an escape becomes `%25`. Without that, decoding could join a
 * stray `%` to the characters after it: `%%34%31` would give `%41` on one pass and `A` on
 * the next, and normalising would not be idempotent.
 *
 * @example
 * ```ts
 * normalizePercent('%7e%2f%zz'); // '~%2F%25zz'
 * ```
 */
export function normalizePercent(text: string): string {
  let percent = text.indexOf('%');
  // Most URLs have no escapes at all; they pay for one indexOf.
  if (percent < 0) return text;
  let out = '';
  let from = 0;
  while (percent >= 0) {
    out += text.slice(from, percent);
    const high = hexValue(text.charCodeAt(percent + 1));
    const low = high < 0 ? -1 : hexValue(text.charCodeAt(percent + 2));
    if (low < 0) {
      out += '%25';
      from = percent + 1;
    } else {
      const byte = high * 16 + low;
      out += isUnreserved(byte)
        ? String.fromCharCode(byte)
        : `%${HEX_DIGITS.charAt(high)}${HEX_DIGITS.charAt(low)}`;
      from = percent + 3;
    }
    percent = text.indexOf('%', from);
  }
  return out + text.slice(from);
}

/** 0-15 for a hex digit's char code, else -1 (also for NaN past the end of the string). */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

/** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}
