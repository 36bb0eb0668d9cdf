import type { Diagnostic, Severity } from '../../shared/diagnostic.ts';
import { ownCopy } from '../../shared/own-copy.ts';

/** Past this many diagnostics of one code, only a count is kept: a broken 50,000-URL file must not make 50,000 of them. */
const PER_CODE = 100;
/** How far back (in characters) line breaks are remembered: more than any real entry spans. */
const WINDOW = 65_536;
/** At most this many line breaks are remembered (a stretch of empty lines forgets sooner). */
const CAPACITY = 8_192;
/**
 * Line breaks the ring holds at first; it doubles as needed, up to {@link CAPACITY}. A
 * sitemap on one line, or a small one, never pays for 64 KiB of zeroed memory (about a
 * tenth of reading a small file).
 */
const FIRST_CAPACITY = 64;

/**
 * Collects diagnostics with their line and column, capped per code. Positions are offsets in
 * the decoded text. The log keeps no text, only the offsets of the line breaks in the last
 * stretch of it, in a bounded ring outside the JavaScript heap. Holding the text itself
 * (or a growing array) kept data alive across garbage collections, which made V8 grow its
 * young generation and the process's memory by tens of megabytes on a large sitemap.
 */
export class DiagnosticLog {
  readonly #list: Diagnostic[] = [];
  readonly #counts = new Map<string, number>();
  /** Offsets of remembered line breaks: `#count` of them from `#start`, oldest first. */
  #breaks = new Float64Array(FIRST_CAPACITY);
  #start = 0;
  #count = 0;
  /** Line breaks forgotten, and the offset of the last one (-1: none yet). */
  #forgottenBreaks = 0;
  #lastForgotten = -1;
  /** Characters fed so far. */
  #length = 0;

  /** Feed every chunk of decoded text, in order, before reporting positions inside it. */
  addText(chunk: string): void {
    const base = this.#length;
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) {
      if (this.#count === this.#breaks.length) {
        if (this.#count === CAPACITY) this.#forget();
        else this.#grow();
      }
      this.#breaks[(this.#start + this.#count) % this.#breaks.length] = base + i;
      this.#count++;
    }
    this.#length += chunk.length;
    const horizon = this.#length - WINDOW;
    while (this.#count > 0 && (this.#breaks[this.#start] as number) < horizon) this.#forget();
  }

  /**
   * Line and column (1-based) of a text offset. An offset on a line that began before the
   * remembered stretch resolves to that line's start.
   */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(this.#lastForgotten + 1, Math.min(offset, this.#length));
    // How many remembered line breaks lie before `at`, by binary search.
    let low = 0;
    let high = this.#count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#breakAt(middle) < at) low = middle + 1;
      else high = middle;
    }
    const line = this.#forgottenBreaks + low + 1;
    const lineStart = (low > 0 ? this.#breakAt(low - 1) : this.#lastForgotten) + 1;
    return { line, column: at - lineStart + 1 };
  }

  #breakAt(index: number): number {
    return this.#breaks[(this.#start + index) % this.#breaks.length] as number;
  }

  #forget(): void {
    this.#lastForgotten = this.#breaks[this.#start] as number;
    this.#forgottenBreaks++;
    this.#start = (this.#start + 1) % this.#breaks.length;
    this.#count--;
  }

  /** A ring twice the size, the remembered breaks at its start, oldest first. */
  #grow(): void {
    const larger = new Float64Array(Math.min(this.#breaks.length * 2, CAPACITY));
    for (let i = 0; i < this.#count; i++) larger[i] = this.#breakAt(i);
    this.#breaks = larger;
    this.#start = 0;
  }

  report(severity: Severity, code: string, message: string, offset: number): void {
    const count = (this.#counts.get(code) ?? 0) + 1;
    this.#counts.set(code, count);
    if (count > PER_CODE) return;
    const { line, column } = this.position(offset);
    // A copy: a message quotes the document, and a slice of it would keep its chunk alive.
    this.#list.push({ code, severity, message: ownCopy(message), line, column });
  }

  /** Reports at a known line and column (text sitemaps count lines themselves). */
  reportAt(severity: Severity, code: string, message: string, line: number, column = 1): void {
    const count = (this.#counts.get(code) ?? 0) + 1;
    this.#counts.set(code, count);
    if (count > PER_CODE) return;
    this.#list.push({ code, severity, message: ownCopy(message), line, column });
  }

  /** The diagnostics, with one note per code that passed the cap. */
  finish(): Diagnostic[] {
    // Reports come in parse order, which is not always line order (an entry is checked when it closes).
    this.#list.sort((a, b) => a.line - b.line || a.column - b.column);
    const last = this.#list.at(-1);
    for (const [code, count] of this.#counts) {
      if (count <= PER_CODE) continue;
      this.#list.push({
        code: 'more-diagnostics',
        severity: 'info',
        message: `${count - PER_CODE} more "${code}" diagnostics not listed`,
        line: last?.line ?? 1,
        column: 1,
      });
    }
    return this.#list;
  }
}
