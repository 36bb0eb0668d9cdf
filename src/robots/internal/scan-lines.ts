import type { RobotsLine } from '../types.ts';
import { decodeUtf8, isAsciiSpace } from './bytes.ts';
import { classifyKey } from './directive-key.ts';
import { escapePattern } from './escape-pattern.ts';

/**
 * Google keeps at most 2083 * 8 - 1 bytes of a line (eight maximal browser URLs, minus the
 * terminating NUL of its line buffer) and ignores the rest of it.
 */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

const BOM = [0xef, 0xbb, 0xbf];
const CR = 0x0d;
const LF = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

/** Bytes of a UTF-8 BOM skipped at the start: a partial BOM prefix is skipped too, as Google does. */
export function bomLength(bytes: Uint8Array): number {
  let n = 0;
  while (n < 3 && bytes[n] === BOM[n]) n++;
  return n;
}

/**
 * Splits robots.txt bytes into lines exactly as Google's parser does (CR, LF and CRLF end a
 * line, the final line is always reported even when empty) and reads each as a
 * `key: value` record. `visit` is called once per line, in order, with the line's byte range.
 */
export function scanLines(
  bytes: Uint8Array,
  visit: (line: RobotsLine, start: number, end: number) => void,
): void {
  const length = bytes.length;
  let lineNumber = 0;
  let start = bomLength(bytes);
  for (;;) {
    let end = start;
    while (end < length) {
      const b = bytes[end];
      if (b === LF || b === CR) break;
      end++;
    }
    visit(readLine(bytes, ++lineNumber, start, end), start, end);
    if (end >= length) return;
    // CRLF is one line end; a CR followed by LF must not produce an extra empty line.
    start = bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
    if (start > length) return;
  }
}

function readLine(bytes: Uint8Array, line: number, lineStart: number, lineEnd: number): RobotsLine {
  const tooLong = lineEnd - lineStart > MAX_LINE_BYTES;
  let end = tooLong ? lineStart + MAX_LINE_BYTES : lineEnd;
  // Google handles lines as C strings: nothing after a NUL byte is seen.
  const nul = bytes.subarray(lineStart, end).indexOf(0);
  if (nul >= 0) end = lineStart + nul;
  const hash = bytes.subarray(lineStart, end).indexOf(HASH);
  const hasComment = hash >= 0;
  if (hasComment) end = lineStart + hash;

  let s = lineStart;
  let e = end;
  while (s < e && isAsciiSpace(bytes[s] as number)) s++;
  while (e > s && isAsciiSpace(bytes[e - 1] as number)) e--;
  const base = {
    line,
    key: '',
    value: '',
    pattern: null,
    typo: false,
    missingColon: false,
    hasComment,
    tooLong,
  };
  if (s === e) return { ...base, kind: hasComment ? 'comment' : 'empty' };

  let sep = bytes.subarray(s, e).indexOf(COLON);
  let missingColon = false;
  if (sep < 0) {
    // Google accepts whitespace instead of the colon when the line is exactly two words.
    sep = indexOfBlank(bytes, s, e);
    if (sep >= 0) {
      let v = s + sep;
      while (v < e && (bytes[v] === SPACE || bytes[v] === TAB)) v++;
      if (indexOfBlank(bytes, v, e) >= 0) sep = -1;
      else missingColon = true;
    }
  }
  if (sep < 0) return { ...base, kind: 'invalid', value: decodeUtf8(bytes, s, e) };
  sep += s;

  let keyEnd = sep;
  while (keyEnd > s && isAsciiSpace(bytes[keyEnd - 1] as number)) keyEnd--;
  if (keyEnd === s) return { ...base, kind: 'invalid', value: decodeUtf8(bytes, s, e) };
  let valueStart = sep + 1;
  while (valueStart < e && isAsciiSpace(bytes[valueStart] as number)) valueStart++;

  const key = decodeUtf8(bytes, s, keyEnd);
  const { kind, typo } = classifyKey(key);
  const value = decodeUtf8(bytes, valueStart, e);
  const pattern =
    kind === 'allow' || kind === 'disallow' ? escapePattern(bytes, valueStart, e) : null;
  return { ...base, kind, key, value, pattern, typo, missingColon };
}

function indexOfBlank(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b === SPACE || b === TAB) return i - start;
  }
  return -1;
}
