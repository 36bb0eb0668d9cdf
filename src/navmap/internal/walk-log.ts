import type { NavmapDiagnostic } from '../types.ts';
import { PerCodeCap } from './per-code-cap.ts';
import type { RawDocument, RawElement } from './raw-document.ts';

/**
 * The walk's diagnostics. A node walked in several places would report the same problem
 * each time; it is reported once per element and code, and at most 100 per code
 * ({@link PerCodeCap}; one more says that the rest were left out).
 */
export class WalkLog {
  readonly diagnostics: NavmapDiagnostic[] = [];
  readonly #reported = new Set<string>();
  readonly #cap = new PerCodeCap();

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
    const text = this.#cap.message(code, message);
    if (text === null) return;
    const { line, column } = element;
    this.diagnostics.push({ code, severity, message: text, line, column, url: doc.url });
  }
}
