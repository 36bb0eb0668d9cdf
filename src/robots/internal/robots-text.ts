// robots.txt is defined on bytes, and Google's parser works on bytes, but JavaScript is fast
// on strings. So the body becomes one string: decoded UTF-8 when the bytes are valid UTF-8
// (nearly always), else one char per byte ("bytes as chars"), which keeps every invalid
// byte's exact value for percent-escaping. Everything after works on that string.

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
const BOM = [0xef, 0xbb, 0xbf];

export interface RobotsText {
  readonly text: string;
  /** Each char of `text` is one byte (the input was not valid UTF-8). */
  readonly bytesAsChars: boolean;
  /** Set when the input passed the size cap: its size, and the bytes read (whole lines). */
  readonly cut: { readonly size: number; readonly read: number } | null;
}

export function readRobotsText(
  input: string | Uint8Array,
  maxBytes = Number.POSITIVE_INFINITY,
): RobotsText {
  if (typeof input === 'string') {
    // A string can only pass the cap if it is over maxBytes / 3 UTF-16 units long.
    if (input.length * 3 <= maxBytes || utf8Length(input, 0, input.length) <= maxBytes) {
      const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
      return { text, bytesAsChars: false, cut: null };
    }
    input = encoder.encode(input);
  }
  const size = input.length;
  const read = size <= maxBytes ? size : lastLineBreak(input, maxBytes);
  const cut = read < size ? { size, read } : null;
  let start = 0;
  // Google skips any prefix of a UTF-8 BOM, even a partial one.
  while (start < 3 && start < read && input[start] === BOM[start]) start++;
  const body = input.subarray(start, read);
  try {
    return { text: utf8Strict.decode(body), bytesAsChars: false, cut };
  } catch {
    return { text: bytesToChars(body), bytesAsChars: true, cut };
  }
}

/** The end of the last whole line within `limit` bytes. */
function lastLineBreak(bytes: Uint8Array, limit: number): number {
  for (let i = limit - 1; i >= 0; i--) {
    if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  }
  return 0;
}

/** UTF-8 byte length of `text[start, end)`; lone surrogates count as U+FFFD (3 bytes). */
export function utf8Length(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

export function bytesToChars(bytes: Uint8Array): string {
  let out = '';
  const chunk = 8192;
  for (let i = 0; i < bytes.length; i += chunk) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + chunk) as unknown as number[]);
  }
  return out;
}

export function charsToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Decodes a bytes-as-chars string as UTF-8, for showing it to people. */
export function decodeChars(text: string): string {
  return utf8.decode(charsToBytes(text));
}

export function isValidUtf8Chars(text: string): boolean {
  try {
    utf8Strict.decode(charsToBytes(text));
    return true;
  } catch {
    return false;
  }
}

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Finds chars that are not ASCII, as indexOf finds one char: natively, without a loop. */
const NON_ASCII = /[\u0080-\uffff]/g;

/** Index of the first non-ASCII char of `text` at or after `from`, or the text's length. */
export function nextNonAscii(text: string, from: number): number {
  NON_ASCII.lastIndex = from;
  return NON_ASCII.test(text) ? NON_ASCII.lastIndex - 1 : text.length;
}
