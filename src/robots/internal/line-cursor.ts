import type { RobotsLineKind } from '../types.ts';
import { escapePattern } from './escape-pattern.ts';
import { decodeChars } from './robots-text.ts';

/**
 * One scanned line as offsets into the text it was read from: the scanner reuses one cursor
 * for every line, and the key, value and pattern strings are made only when asked for (the
 * parser asks for a rule's pattern and a user agent's value; most keys are never needed as
 * strings). Valid only during the visit it is passed to.
 */
export class LineCursor {
  /** The text the offsets point into: the file, or the kept part of an over-long line. */
  text = '';
  /** Each char of `text` is one byte (shown decoded as UTF-8). */
  bytesAsChars = false;
  line = 0;
  kind: RobotsLineKind = 'empty';
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  /** The value holds no `%` and no non-ASCII char: it is its own pattern, and shows as is. */
  plain = true;
  typo = false;
  /** The key is `Crawl-delay`. */
  crawlDelay = false;
  missingColon = false;
  hasComment = false;
  tooLong = false;
  invalidUtf8 = false;

  reset(text: string, bytesAsChars: boolean, line: number, tooLong: boolean): void {
    this.text = text;
    this.bytesAsChars = bytesAsChars;
    this.line = line;
    this.kind = 'empty';
    this.keyStart = 0;
    this.keyEnd = 0;
    this.valueStart = 0;
    this.valueEnd = 0;
    this.plain = true;
    this.typo = false;
    this.crawlDelay = false;
    this.missingColon = false;
    this.hasComment = false;
    this.tooLong = tooLong;
    this.invalidUtf8 = false;
  }

  /** The key as written, trimmed; `''` for empty, comment and invalid lines. */
  key(): string {
    const raw = this.text.slice(this.keyStart, this.keyEnd);
    return this.bytesAsChars && raw.length > 0 ? decodeChars(raw) : raw;
  }

  /** The value as written (the whole trimmed line for an invalid line), decoded. */
  value(): string {
    const raw = this.text.slice(this.valueStart, this.valueEnd);
    return this.bytesAsChars && !this.plain ? decodeChars(raw) : raw;
  }

  /** The char code the value starts with (NaN when it is empty), read in place. */
  valueFirstChar(): number {
    return this.valueStart < this.valueEnd ? this.text.charCodeAt(this.valueStart) : Number.NaN;
  }

  /** As {@link RobotsLine.pattern}: the matched form of a rule, the path of a usage line. */
  pattern(): string | null {
    const kind = this.kind;
    if (kind === 'allow' || kind === 'disallow') {
      const raw = this.text.slice(this.valueStart, this.valueEnd);
      return this.plain ? raw : escapePattern(raw, this.bytesAsChars);
    }
    if (kind === 'content-usage' || kind === 'content-signal') {
      return usagePath(this.text.slice(this.valueStart, this.valueEnd), this.bytesAsChars);
    }
    return null;
  }
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

/** First space or tab in `text[start, end)`, or -1. */
export function indexOfBlank(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return i;
  }
  return -1;
}
