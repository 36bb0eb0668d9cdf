import type { Diagnostic, Severity } from '../../shared/diagnostic.ts';

/** Past this many diagnostics of one code, only a count is kept: a broken 50,000-URL file must not make 50,000 of them. */
const PER_CODE = 100;
/** Text kept for turning offsets into lines: more than any real entry spans. */
const WINDOW = 65_536;

/**
 * Collects diagnostics with their line and column, capped per code. Positions are offsets in
 * the decoded text; the log keeps only the last stretch of text, so memory stays flat however
 * long the document is.
 */
export class DiagnosticLog {
  readonly #list: Diagnostic[] = [];
  readonly #counts = new Map<string, number>();
  /** Offset of `#window[0]` in the whole text, and the line it is on. */
  #windowStart = 0;
  #windowLine = 1;
  #window = '';

  /** Feed every chunk of decoded text, in order, before reporting positions inside it. */
  addText(chunk: string): void {
    this.#window += chunk;
    // Keep at least WINDOW chars, so any offset inside the current entry still resolves the
    // same way however the input was split; drop in large steps to stay linear.
    if (this.#window.length < 2 * WINDOW) return;
    const drop = this.#window.length - WINDOW;
    this.#windowLine += countNewlines(this.#window, 0, drop);
    this.#windowStart += drop;
    this.#window = this.#window.slice(drop);
  }

  /** Line and column (1-based) of a text offset; offsets before the window fall back to its start. */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset - this.#windowStart, this.#window.length));
    const line = this.#windowLine + countNewlines(this.#window, 0, at);
    // A line that started before the window gets a column counted from the window's start.
    const lineStart = at === 0 ? 0 : this.#window.lastIndexOf('\n', at - 1) + 1;
    return { line, column: at - lineStart + 1 };
  }

  report(severity: Severity, code: string, message: string, offset: number): void {
    const count = (this.#counts.get(code) ?? 0) + 1;
    this.#counts.set(code, count);
    if (count > PER_CODE) return;
    const { line, column } = this.position(offset);
    this.#list.push({ code, severity, message, line, column });
  }

  /** Reports at a known line and column (text sitemaps count lines themselves). */
  reportAt(severity: Severity, code: string, message: string, line: number, column = 1): void {
    const count = (this.#counts.get(code) ?? 0) + 1;
    this.#counts.set(code, count);
    if (count > PER_CODE) return;
    this.#list.push({ code, severity, message, line, column });
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

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
