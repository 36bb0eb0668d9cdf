import {
  bytesToChars,
  decodeChars,
  encodeUtf8,
  isValidUtf8Chars,
  utf8Length,
} from '../internal/robots-text.ts';
import type { RobotsLine } from '../types.ts';
import { referenceEscapePattern as escapePattern } from './escape-pattern-reference.ts';

/**
 * Google keeps at most 2083 * 8 - 1 bytes of a line (eight maximal browser URLs, minus the
 * terminating NUL of its line buffer) and ignores the rest of it.
 */
const MAX_LINE_BYTES = 2083 * 8 - 1;

const CR = 0x0d;
const LF = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

function isAsciiSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

/**
 * The line scanner as it was before issue 14 (substrings per line, keys lower-cased and
 * compared as strings), kept only as the slow twin the fast scanner is tested against.
 *
 * Splits a robots.txt (as read by `readRobotsText`) into lines exactly as Google's parser
 * does: CR, LF and CRLF end a line, and the final line is always reported, even when empty.
 * Each line is read as a `key: value` record and passed to `visit`, in order.
 */
export function referenceScanLines(
  text: string,
  bytesAsChars: boolean,
  visit: (line: RobotsLine) => void,
): void {
  const length = text.length;
  // In UTF-8 text a line can only pass the byte limit if it has more than a third as many chars.
  const suspectLength = bytesAsChars ? MAX_LINE_BYTES : Math.floor(MAX_LINE_BYTES / 3);
  // Native indexOf finds the next LF, CR, NUL, `#` and `:`; each position is looked up again
  // only once the scan has passed it, so the whole file is searched once per character.
  let lf = -1;
  let cr = -1;
  let nul = -1;
  let hash = -1;
  let colon = -1;
  let line = 0;
  let start = 0;
  for (;;) {
    if (lf < start) lf = seek(text, '\n', start);
    if (cr < start) cr = seek(text, '\r', start);
    if (nul < start) nul = seek(text, '\0', start);
    if (hash < start) hash = seek(text, '#', start);
    if (colon < start) colon = seek(text, ':', start);
    const end = Math.min(lf, cr);
    line++;
    if (end - start > suspectLength && isTooLong(text, start, end, bytesAsChars)) {
      visit(readTooLongLine(text, start, end, bytesAsChars, line));
    } else {
      visit(
        readLine(
          text,
          start,
          end,
          nul < end ? nul : -1,
          hash < end ? hash : -1,
          colon < end ? colon : -1,
          bytesAsChars,
          line,
          false,
        ),
      );
    }
    if (end >= length) return;
    // CRLF is one line end: a CR followed by LF must not produce an extra empty line.
    start = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }
}

/** Index of `char` at or after `from`, or the text's length when there is none. */
function seek(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

function isTooLong(text: string, start: number, end: number, bytesAsChars: boolean): boolean {
  return (bytesAsChars ? end - start : utf8Length(text, start, end)) > MAX_LINE_BYTES;
}

/** The kept bytes of an over-long line, cut exactly where Google cuts (maybe mid-character). */
function readTooLongLine(
  text: string,
  start: number,
  end: number,
  bytesAsChars: boolean,
  line: number,
): RobotsLine {
  const kept = bytesAsChars
    ? text.slice(start, start + MAX_LINE_BYTES)
    : bytesToChars(encodeUtf8(text.slice(start, end)).subarray(0, MAX_LINE_BYTES));
  let nul = -1;
  let hash = -1;
  let colon = -1;
  for (let i = 0; i < kept.length; i++) {
    const c = kept.charCodeAt(i);
    if (c === 0 && nul < 0) nul = i;
    else if (c === HASH && hash < 0) hash = i;
    else if (c === COLON && colon < 0) colon = i;
  }
  return readLine(kept, 0, kept.length, nul, hash, colon, true, line, true);
}

function readLine(
  text: string,
  start: number,
  lineEnd: number,
  nul: number,
  hash: number,
  colon: number,
  bytesAsChars: boolean,
  line: number,
  tooLong: boolean,
): RobotsLine {
  // Google handles a line as a C string: nothing after a NUL byte is seen.
  let end = nul >= 0 ? nul : lineEnd;
  const hasComment = hash >= 0 && hash < end;
  if (hasComment) end = hash;
  if (colon >= end) colon = -1;
  const invalidUtf8 = bytesAsChars && !tooLong && !isValidUtf8Chars(text.slice(start, lineEnd));
  const shown = (from: number, to: number) =>
    bytesAsChars ? decodeChars(text.slice(from, to)) : text.slice(from, to);

  let s = start;
  let e = end;
  while (s < e && isAsciiSpace(text.charCodeAt(s))) s++;
  while (e > s && isAsciiSpace(text.charCodeAt(e - 1))) e--;
  if (s === e)
    return record(
      line,
      hasComment ? 'comment' : 'empty',
      '',
      '',
      null,
      false,
      false,
      hasComment,
      tooLong,
      invalidUtf8,
    );

  let sep = colon;
  let missingColon = false;
  if (sep < 0) {
    // Google accepts whitespace instead of the colon when the line is exactly two words.
    sep = indexOfBlank(text, s, e);
    if (sep >= 0) {
      let v = sep;
      while (v < e && (text.charCodeAt(v) === SPACE || text.charCodeAt(v) === TAB)) v++;
      if (indexOfBlank(text, v, e) >= 0) sep = -1;
      else missingColon = true;
    }
  }
  let keyEnd = sep;
  while (keyEnd > s && isAsciiSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
  if (sep < 0 || keyEnd === s) {
    return record(
      line,
      'invalid',
      '',
      shown(s, e),
      null,
      false,
      false,
      hasComment,
      tooLong,
      invalidUtf8,
    );
  }
  let valueStart = sep + 1;
  while (valueStart < e && isAsciiSpace(text.charCodeAt(valueStart))) valueStart++;

  const key = shown(s, keyEnd);
  const { kind, typo } = referenceClassifyKey(key);
  const raw = text.slice(valueStart, e);
  const value = bytesAsChars ? decodeChars(raw) : raw;
  let pattern: string | null = null;
  if (kind === 'allow' || kind === 'disallow') pattern = escapePattern(raw, bytesAsChars);
  else if (kind === 'content-usage' || kind === 'content-signal') {
    pattern = usagePath(raw, bytesAsChars);
  }
  return record(
    line,
    kind,
    key,
    value,
    pattern,
    typo,
    missingColon,
    hasComment,
    tooLong,
    invalidUtf8,
  );
}

/** Every record built in one place, so all have the same shape (and stay fast to read). */
function record(
  line: number,
  kind: RobotsLine['kind'],
  key: string,
  value: string,
  pattern: string | null,
  typo: boolean,
  missingColon: boolean,
  hasComment: boolean,
  tooLong: boolean,
  invalidUtf8: boolean,
): RobotsLine {
  return { line, kind, key, value, pattern, typo, missingColon, hasComment, tooLong, invalidUtf8 };
}

/**
 * The path of a usage line (draft-ietf-aipref-attach-05 section 3.2): present when the value
 * starts with `/`, up to the first space or tab, normalised as Allow/Disallow patterns are.
 */
function usagePath(raw: string, bytesAsChars: boolean): string | null {
  if (raw.charCodeAt(0) !== 0x2f) return null;
  const blank = indexOfBlank(raw, 0, raw.length);
  return escapePattern(blank < 0 ? raw : raw.slice(0, blank), bytesAsChars);
}

function indexOfBlank(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB) return i;
  }
  return -1;
}

// The key classifier as it was: lower-case the key, then compare strings.
const USER_AGENT = ['user-agent'];
const USER_AGENT_TYPOS = ['useragent', 'user agent'];
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];
const SITEMAP_TYPOS = ['site-map'];

/** Directives other crawlers use and Google ignores (Google's own list). */
const UNSUPPORTED = new Set([
  'clean-param',
  'crawl-delay',
  'host',
  'noarchive',
  'noindex',
  'nofollow',
]);

function startsWithAny(key: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (key.startsWith(prefix)) return true;
  return false;
}

/** The key classifier as it was (on a lower-cased string). Classifies a directive key such as `User-Agent`, `disalow` or `Crawl-delay`. */
export function referenceClassifyKey(key: string): { kind: RobotsLine['kind']; typo: boolean } {
  const lower = key.toLowerCase();
  if (startsWithAny(lower, USER_AGENT)) return { kind: 'user-agent', typo: false };
  if (startsWithAny(lower, USER_AGENT_TYPOS)) return { kind: 'user-agent', typo: true };
  if (lower.startsWith('allow')) return { kind: 'allow', typo: false };
  if (lower.startsWith('disallow')) return { kind: 'disallow', typo: false };
  if (startsWithAny(lower, DISALLOW_TYPOS)) return { kind: 'disallow', typo: true };
  if (lower.startsWith('sitemap')) return { kind: 'sitemap', typo: false };
  if (startsWithAny(lower, SITEMAP_TYPOS)) return { kind: 'sitemap', typo: true };
  // Matched whole, not as prefixes: these are not Google's keys, so Google's leniency does
  // not apply, and `Content-Usages` is no more a usage line than `Unicorns`.
  if (lower === 'content-usage') return { kind: 'content-usage', typo: false };
  if (lower === 'content-signal') return { kind: 'content-signal', typo: false };
  if (UNSUPPORTED.has(lower)) return { kind: 'unsupported', typo: false };
  return { kind: 'unknown', typo: false };
}
