import type { SiteDiagnostic } from './site-index.ts';

/**
 * What changed in a site's problems since the previous report (the `onDiagnostics` option
 * of `createSiteHandler` and `startSiteServer`).
 *
 * @example
 * ```ts
 * const handler = createSiteHandler({
 *   root: 'content',
 *   onDiagnostics: ({ found, resolved }) => {
 *     for (const d of found) console.error(`${d.file}:${d.line}:${d.column}: ${d.message}`);
 *     for (const d of resolved) console.error(`${d.file}: fixed [${d.code}]`);
 *   },
 * });
 * ```
 */
export interface SiteDiagnosticsReport {
  /**
   * Problems not in the previous report, and problems reported before whose file has
   * changed since (so saving a file that is still wrong reports its problem again).
   */
  readonly found: readonly SiteDiagnostic[];
  /** Problems of the previous report that are gone (fixed, or their document removed). */
  readonly resolved: readonly SiteDiagnostic[];
}

interface Reported {
  readonly diagnostic: SiteDiagnostic;
  /** What the problem was found in: changes whenever its file does. */
  readonly version: unknown;
}

/**
 * Turns each new list of a site's problems into a report of what changed, so a problem is
 * told once per change of its file, not once per rebuild or request. Nothing is reported
 * when nothing changed; a report function that throws is ignored (it must not break a
 * response).
 */
export class DiagnosticsReporter {
  readonly #report: (report: SiteDiagnosticsReport) => void;
  #last = new Map<string, Reported>();

  constructor(report: (report: SiteDiagnosticsReport) => void) {
    this.#report = report;
  }

  /** `versionOf` names what a problem was read from (a document's metadata, a config reading). */
  update(diagnostics: readonly SiteDiagnostic[], versionOf: (d: SiteDiagnostic) => unknown): void {
    const next = new Map<string, Reported>();
    const found: SiteDiagnostic[] = [];
    for (const diagnostic of diagnostics) {
      const { path, file, line, column, code, severity, message } = diagnostic;
      const key = JSON.stringify([path, file, line, column, code, severity, message]);
      if (next.has(key)) continue;
      const version = versionOf(diagnostic);
      next.set(key, { diagnostic, version });
      const before = this.#last.get(key);
      if (before === undefined || before.version !== version) found.push(diagnostic);
    }
    const resolved: SiteDiagnostic[] = [];
    for (const [key, before] of this.#last) {
      if (!next.has(key)) resolved.push(before.diagnostic);
    }
    this.#last = next;
    if (found.length === 0 && resolved.length === 0) return;
    try {
      this.#report({ found, resolved });
    } catch {
      // The caller's to fix; the site keeps serving.
    }
  }
}
