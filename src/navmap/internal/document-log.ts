import type { NavmapDiagnostic } from '../types.ts';
import { LineIndex } from './line-index.ts';
import { PerCodeCap } from './per-code-cap.ts';

/**
 * The diagnostics of one document, placed by offset (line and column), at most 100 per
 * code ({@link PerCodeCap}); the first one past the cap says that more were left out.
 *
 * @example
 * ```ts
 * const log = new DocumentLog(url, text);
 * log.report('warning', 'invalid-base', 'xml:base "http://[" is not a URL', offset);
 * ```
 */
export class DocumentLog {
  readonly diagnostics: NavmapDiagnostic[] = [];
  readonly #url: string;
  readonly #lines: LineIndex;
  readonly #once = new Set<string>();
  readonly #cap = new PerCodeCap();

  constructor(url: string, text: string) {
    this.#url = url;
    this.#lines = new LineIndex(text);
  }

  position(offset: number): { line: number; column: number } {
    return this.#lines.position(offset);
  }

  report(severity: NavmapDiagnostic['severity'], code: string, message: string, offset: number) {
    const text = this.#cap.message(code, message);
    if (text === null) return;
    const { line, column } = this.#lines.position(offset);
    this.diagnostics.push({ code, severity, message: text, line, column, url: this.#url });
  }

  /** Reports a code once per document (for problems that repeat per element). */
  reportOnce(
    severity: NavmapDiagnostic['severity'],
    code: string,
    message: string,
    offset: number,
  ) {
    if (this.#once.has(code)) return;
    this.#once.add(code);
    this.report(severity, code, message, offset);
  }
}
