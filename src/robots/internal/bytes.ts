// Byte-level helpers. robots.txt is matched on bytes, as Google's parser does, so invalid
// UTF-8 and stray high bytes keep their exact value instead of becoming U+FFFD.

// ignoreBOM keeps a U+FEFF inside a line: Google skips a BOM only at the start of the file.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** ASCII whitespace as absl::ascii_isspace sees it: space, \t, \n, \v, \f, \r. */
export function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

export function isHexDigit(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x46) ||
    (byte >= 0x61 && byte <= 0x66)
  );
}

/** Decodes `bytes[start, end)` as UTF-8, replacing invalid sequences with U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (start >= end) return '';
  if (isAscii(bytes, start, end)) return latin1(bytes, start, end);
  return utf8.decode(bytes.subarray(start, end));
}

/** True when `bytes[start, end)` is valid UTF-8. */
export function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  if (isAscii(bytes, start, end)) return true;
  try {
    utf8Strict.decode(bytes.subarray(start, end));
    return true;
  } catch {
    return false;
  }
}

export function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

/** One char per byte. Chunked because fromCharCode's argument count is limited. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  const chunk = 4096;
  if (end - start <= chunk) {
    return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  let out = '';
  for (let i = start; i < end; i += chunk) {
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(i, Math.min(end, i + chunk)) as unknown as number[],
    );
  }
  return out;
}

const encoder = new TextEncoder();

/** The input as bytes: strings are encoded as UTF-8. */
export function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input;
}
