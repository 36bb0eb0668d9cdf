import type { NavmapDiagnostic } from '../types.ts';
import { LineIndex } from './line-index.ts';

/** Diagnostics kept per code: a broken file must not make thousands of them. */
const MAX_PER_CODE = 100;

/**
 * The diagnostics of one document, placed by offset (line and column), at most
 * {@link MAX_PER_CODE} per code; the first one past the cap says that more were left out.
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
  readonly #perCode = new Map<string, number>();

  constructor(url: string, text: string) {
    this.#url = url;
    this.#lines = new LineIndex(text);
  }

  position(offset: number): { line: number; column: number } {
    return this.#lines.position(offset);
  }

  report(severity: NavmapDiagnostic['severity'], code: string, message: string, offset: number) {
    const count = (this.#perCode.get(code) ?? 0) + 1;
    this.#perCode.set(code, count);
    if (count > MAX_PER_CODE + 1) return;
    const { line, column } = this.#lines.position(offset);
    const text =
      count > MAX_PER_CODE
        ? `more "${code}" problems follow; only the first ${MAX_PER_CODE} are listed`
        : message;
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
