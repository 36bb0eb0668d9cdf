import type { NavmapDiagnostic } from '../types.ts';
import type { RawDocument, RawElement } from './raw-document.ts';

/** Diagnostics kept per code during one walk. */
const MAX_PER_CODE = 100;

/**
 * The walk's diagnostics. A node walked in several places would report the same problem
 * each time; it is reported once per element and code, and at most MAX_PER_CODE per code
 * (one more says that the rest were left out).
 */
export class WalkLog {
  readonly diagnostics: NavmapDiagnostic[] = [];
  readonly #reported = new Set<string>();
  readonly #perCode = new Map<string, number>();

  report(
    element: RawElement,
    doc: RawDocument,
    severity: NavmapDiagnostic['severity'],
    code: string,
    message: string,
  ): void {
    const key = `${code} ${doc.url} ${element.line}:${element.column}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    const count = (this.#perCode.get(code) ?? 0) + 1;
    this.#perCode.set(code, count);
    if (count > MAX_PER_CODE + 1) return;
    const { line, column } = element;
    const text =
      count > MAX_PER_CODE
        ? `more "${code}" problems follow; only the first ${MAX_PER_CODE} are listed`
        : message;
    this.diagnostics.push({ code, severity, message: text, line, column, url: doc.url });
  }
}
