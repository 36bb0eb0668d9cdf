import type { NavmapDiagnostic } from '../types.ts';
import type { RawDocument, RawElement } from './navmap-document.ts';

/** Diagnostics kept per code during one walk. */
const MAX_PER_CODE = 100;

/**
 * The walk's diagnostics. A node walked in several places would report the same problem
 * each time; it is reported once per element and code, and at most MAX_PER_CODE per code.
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
    if (count > MAX_PER_CODE) return;
    const { line, column } = element;
    this.diagnostics.push({ code, severity, message, line, column, url: doc.url });
  }
}
