import type { RobotsLine } from '../types.ts';
import { classifyKey } from './directive-key.ts';
import { indexOfBlank, LineCursor } from './line-cursor.ts';
import {
  bytesToChars,
  encodeUtf8,
  isValidUtf8Chars,
  nextNonAscii,
  utf8Length,
} from './robots-text.ts';

/**
 * Google keeps at most 2083 * 8 - 1 bytes of a line (eight maximal browser URLs, minus the
 * terminating NUL of its line buffer) and ignores the rest of it.
 */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

const CR = 0x0d;
const LF = 0x0a;
const PERCENT = 0x25;
const SPACE = 0x20;
const TAB = 0x09;

function isAsciiSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

/** What {@link scanLines} gives each line to. */
export interface LineSink {
  add(line: LineCursor): void;
}

/**
 * Splits a robots.txt (as read by `readRobotsText`) into lines exactly as Google's parser
 * does: CR, LF and CRLF end a line, and the final line is always reported, even when empty.
 * Each line is read as a `key: value` record and given to `sink`, in order, as one reused
 * {@link LineCursor}: offsets into the text, so a line costs no strings until one is asked
 * for. With `directivesOnly`, lines that cannot be a directive with an effect on groups or
 * sitemaps (their first char after blanks is not the first letter of such a key) are counted
 * but not given to `sink`: for an HTML page, whose every other line would only be reported.
 */
export function scanLines(
  text: string,
  bytesAsChars: boolean,
  sink: LineSink,
  directivesOnly = false,
): void {
  const cursor = new LineCursor();
  const length = text.length;
  // Native searches find the next LF, CR, NUL, `#`, `:`, `%` and non-ASCII char; each is
  // looked up again only once the scan has passed it, so the text is searched once per kind
  // of char, and a line costs a few comparisons rather than a loop over its chars.
  let lf = -1;
  let cr = -1;
  let nul = -1;
  let hash = -1;
  let colon = -1;
  let percent = -1;
  let wide = -1;
  let wideInValues = 0;
  let line = 0;
  let start = 0;
  for (;;) {
    if (lf < start) lf = seek(text, '\n', start);
    if (cr < start) cr = seek(text, '\r', start);
    const end = lf < cr ? lf : cr;
    line++;
    if (directivesOnly && !mayBeDirective(text, start, end)) {
      if (end >= length) return;
      start = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      continue;
    }
    if (nul < start) nul = seek(text, '\0', start);
    if (hash < start) hash = seek(text, '#', start);
    if (colon < start) colon = seek(text, ':', start);
    // In UTF-8 text a line can only pass the byte limit if it has more than a third as many chars.
    let bytes = end - start;
    if (bytes > MAX_LINE_BYTES / 3 && !bytesAsChars) {
      if (wide < start) wide = nextNonAscii(text, start);
      if (wide < end) bytes = utf8Length(text, start, end);
    }
    if (bytes > MAX_LINE_BYTES) {
      // Text whose UTF-8 is as long as it is has no non-ASCII char: its bytes are its chars.
      readTooLongLine(cursor, text, start, end, !bytesAsChars && bytes !== end - start, line);
    } else {
      cursor.reset(text, bytesAsChars, line, false);
      cursor.invalidUtf8 =
        bytesAsChars && !isAscii(text, start, end) && !isValidUtf8Chars(text.slice(start, end));
      // Google handles a line as a C string: nothing after a NUL is seen; `#` starts a comment.
      let contentEnd = nul < end ? nul : end;
      const hasComment = hash < contentEnd;
      if (hasComment) contentEnd = hash;
      readLine(cursor, start, contentEnd, hasComment, colon < contentEnd ? colon : -1);
      const kind = cursor.kind;
      if (kind === 'allow' || kind === 'disallow') {
        // A value with no `%` and no non-ASCII char is its own pattern.
        const from = cursor.valueStart;
        const to = cursor.valueEnd;
        if (to - from <= SHORT_VALUE) {
          // A short value is read in one loop: cheaper than the native searches' calls.
          cursor.plain = isPlainValue(text, from, to);
        } else {
          if (percent < from) percent = seek(text, '%', from);
          if (percent < to) cursor.plain = false;
          else if (wide >= from) cursor.plain = wide >= to;
          else if (wideInValues > DENSE_WIDE) cursor.plain = isAscii(text, from, to);
          else {
            wide = nextNonAscii(text, from);
            cursor.plain = wide >= to;
            // Where most values hold non-ASCII chars, a loop over each is cheaper than a search.
            if (!cursor.plain) wideInValues++;
          }
        }
      }
    }
    sink.add(cursor);
    if (end >= length) return;
    // CRLF is one line end: a CR followed by LF must not produce an extra empty line.
    start = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }
}

/**
 * The line's first char after ASCII blanks could start a key that does something: User-agent
 * (and its misspellings), Allow, Disallow (and misspellings), Sitemap, Site-map,
 * Content-Usage, Content-Signal, Crawl-delay.
 */
function mayBeDirective(text: string, start: number, end: number): boolean {
  let s = start;
  while (s < end && isAsciiSpace(text.charCodeAt(s))) s++;
  if (s === end) return false;
  const c = text.charCodeAt(s) | 0x20;
  return c === 0x75 || c === 0x61 || c === 0x64 || c === 0x73 || c === 0x63;
}

function isAscii(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** No `%` and no non-ASCII char in `text[start, end)`. */
function isPlainValue(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c === PERCENT) return false;
  }
  return true;
}

/** Rule values up to this long are checked by a loop rather than by native searches. */
const SHORT_VALUE = 64;

/** Rule values found to hold non-ASCII chars before those are looked for by a loop instead. */
const DENSE_WIDE = 8;

/** Index of `char` at or after `from`, or the text's length when there is none. */
function seek(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/** The kept bytes of an over-long line, cut exactly where Google cuts (maybe mid-character). */
function readTooLongLine(
  cursor: LineCursor,
  text: string,
  start: number,
  end: number,
  encode: boolean,
  line: number,
): void {
  // Bytes as chars, or text without non-ASCII chars: the kept bytes are the first chars.
  const kept = encode
    ? bytesToChars(encodeUtf8(text.slice(start, end)).subarray(0, MAX_LINE_BYTES))
    : text.slice(start, start + MAX_LINE_BYTES);
  // Native searches: the kept part is up to 16,663 chars.
  const nul = kept.indexOf('\0');
  const hashAt = kept.indexOf('#');
  const cut = nul < 0 ? hashAt : hashAt < 0 ? nul : Math.min(nul, hashAt);
  const hash = cut >= 0 && cut === hashAt;
  const contentEnd = cut < 0 ? kept.length : cut;
  const colonAt = kept.indexOf(':');
  const colon = colonAt >= 0 && colonAt < contentEnd ? colonAt : -1;
  cursor.reset(kept, true, line, true);
  readLine(cursor, 0, contentEnd, hash, colon);
  const from = cursor.valueStart;
  const percent = kept.indexOf('%', from);
  cursor.plain = (percent < 0 || percent >= contentEnd) && nextNonAscii(kept, from) >= contentEnd;
}

/**
 * Reads `cursor.text[start, end)` (the line before any comment or NUL) as Google does: blank
 * or `key: value`, or `key value` when the line is exactly two words.
 */
function readLine(
  cursor: LineCursor,
  start: number,
  end: number,
  hasComment: boolean,
  colon: number,
): void {
  const text = cursor.text;
  cursor.hasComment = hasComment;
  let s = start;
  let e = end;
  while (s < e && isAsciiSpace(text.charCodeAt(s))) s++;
  while (e > s && isAsciiSpace(text.charCodeAt(e - 1))) e--;
  if (s === e) {
    cursor.kind = hasComment ? 'comment' : 'empty';
    return;
  }

  let sep = colon;
  if (sep < 0) {
    // Google accepts whitespace instead of the colon when the line is exactly two words.
    sep = indexOfBlank(text, s, e);
    if (sep >= 0) {
      let v = sep;
      while (v < e && (text.charCodeAt(v) === SPACE || text.charCodeAt(v) === TAB)) v++;
      if (indexOfBlank(text, v, e) >= 0) sep = -1;
      else cursor.missingColon = true;
    }
  }
  let keyEnd = sep;
  while (keyEnd > s && isAsciiSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
  if (sep < 0 || keyEnd === s) {
    cursor.kind = 'invalid';
    cursor.missingColon = false;
    cursor.valueStart = s;
    cursor.valueEnd = e;
    cursor.plain = false;
    return;
  }
  let valueStart = sep + 1;
  while (valueStart < e && isAsciiSpace(text.charCodeAt(valueStart))) valueStart++;

  const key = classifyKey(text, s, keyEnd);
  cursor.kind = key.kind;
  cursor.typo = key.typo;
  cursor.crawlDelay = key.crawlDelay;
  cursor.keyStart = s;
  cursor.keyEnd = keyEnd;
  cursor.valueStart = valueStart;
  cursor.valueEnd = e;
  cursor.plain = false;
}

/** A line as the public record {@link scanRobots} returns. */
export function lineRecord(cursor: LineCursor): RobotsLine {
  return {
    line: cursor.line,
    kind: cursor.kind,
    key: cursor.key(),
    value: cursor.value(),
    pattern: cursor.pattern(),
    typo: cursor.typo,
    missingColon: cursor.missingColon,
    hasComment: cursor.hasComment,
    tooLong: cursor.tooLong,
    invalidUtf8: cursor.invalidUtf8,
  };
}
