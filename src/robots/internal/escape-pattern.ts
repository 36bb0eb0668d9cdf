import { isHexDigit, latin1 } from './bytes.ts';

const HEX = '0123456789ABCDEF';

function upper(byte: number): number {
  return byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : byte;
}

/**
 * Normalises an allow/disallow value the way Google does before matching: octets with the
 * high bit set are percent-encoded and existing `%xx` escapes are upper-cased. Nothing else
 * changes (`%2f` stays an escape, `/` stays a slash), so the result is pure ASCII.
 */
export function escapePattern(bytes: Uint8Array, start: number, end: number): string {
  let needed = false;
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80 || b === 0x25) {
      needed = true;
      break;
    }
  }
  if (!needed) return latin1(bytes, start, end);
  let out = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    if (
      b === 0x25 &&
      i + 2 < end &&
      isHexDigit(bytes[i + 1] as number) &&
      isHexDigit(bytes[i + 2] as number)
    ) {
      out += `%${String.fromCharCode(upper(bytes[i + 1] as number), upper(bytes[i + 2] as number))}`;
      i += 2;
    } else if (b >= 0x80) {
      out += `%${HEX[b >> 4]}${HEX[b & 0xf]}`;
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}

const encoder = new TextEncoder();

/** {@link escapePattern} for a string (encoded as UTF-8 first). */
export function escapePatternText(pattern: string): string {
  const bytes = encoder.encode(pattern);
  return escapePattern(bytes, 0, bytes.length);
}
