import type { DiagnosticLog } from './diagnostic-log.ts';
import type { EntryCollector } from './entry-collector.ts';
import { MAX_VALUE_CHARS } from './reader-limits.ts';

const LF = 0x0a;
const CR = 0x0d;

/**
 * A plain-text sitemap split into lines as it arrives (any line ending, a CRLF split across
 * chunks included), each line handed to the collector once complete. Every chunk is read
 * once, from where the last one ended, so a line of any length costs time in proportion to
 * its length. A line longer than any value the reader keeps is not held: it is counted,
 * dropped and reported.
 */
export class TextLines {
  readonly #collector: EntryCollector;
  readonly #log: DiagnosticLog;
  /** Lines completed so far. */
  #line = 0;
  /** The last chunk ended in CR: an LF starting the next one belongs to it. */
  #afterReturn = false;
  /** The unfinished line's text so far. */
  #carry = '';
  /** The unfinished line is already over MAX_VALUE_CHARS (and `#carry` was let go). */
  #tooLong = false;

  constructor(collector: EntryCollector, log: DiagnosticLog) {
    this.#collector = collector;
    this.#log = log;
  }

  /** Whitespace before the first line with text: only its line breaks count. */
  skip(text: string): void {
    const length = text.length;
    if (length === 0) return;
    let i = this.#afterReturn && text.charCodeAt(0) === LF ? 1 : 0;
    // The next LF and CR at or after i, each looked for again only once passed.
    let lf = -1;
    let cr = -1;
    while (i < length) {
      if (lf < i) lf = indexOrEnd(text, '\n', i);
      if (cr < i) cr = indexOrEnd(text, '\r', i);
      const at = Math.min(lf, cr);
      if (at === length) break;
      this.#line++;
      i = at + 1;
      if (at === cr && text.charCodeAt(i) === LF) i++;
    }
    this.#afterReturn = text.charCodeAt(length - 1) === CR;
  }

  write(text: string): void {
    const length = text.length;
    let start = 0;
    if (this.#afterReturn && length > 0) {
      this.#afterReturn = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    for (let i = start; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      this.#append(text, start, i);
      this.#finishLine();
      if (c === CR) {
        if (i + 1 === length) this.#afterReturn = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
      if (this.#collector.stopped) return;
    }
    this.#append(text, start, length);
  }

  /**
   * The input has ended. A last line without a line break is read, unless the input was
   * cut short (a cap, a failed read): then it may be half a URL, and is reported instead.
   */
  end(cut: boolean): void {
    if (!cut) {
      this.#finishLine();
      return;
    }
    if (this.#tooLong || this.#carry.trim() !== '') {
      this.#log.reportAt(
        'error',
        'truncated',
        'the input was cut short inside this line; it is not read as a URL',
        this.#line + 1,
      );
    }
    this.#carry = '';
  }

  /** The line the next character is on. */
  get line(): number {
    return this.#line + 1;
  }

  #append(text: string, start: number, end: number): void {
    if (this.#tooLong || end === start) return;
    if (this.#carry.length + (end - start) > MAX_VALUE_CHARS) {
      this.#tooLong = true;
      this.#carry = '';
      return;
    }
    this.#carry += text.slice(start, end);
  }

  #finishLine(): void {
    const line = ++this.#line;
    if (this.#tooLong) {
      this.#tooLong = false;
      this.#log.reportAt(
        'error',
        'value-too-long',
        `line is over ${MAX_VALUE_CHARS} characters; skipped`,
        line,
      );
      return;
    }
    const text = this.#carry;
    this.#carry = '';
    this.#collector.textLine(text, line);
  }
}

function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}
