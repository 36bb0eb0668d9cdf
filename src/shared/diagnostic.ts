/** How bad a reported input problem is. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * An input problem found by a forgiving parser. Parsers return these beside their result
 * instead of throwing or logging; a strict mode is a check over them.
 *
 * @example
 * ```ts
 * const robots = parseRobots('Disalow: /private');
 * for (const d of robots.diagnostics) console.log(`${d.line}: ${d.severity}: ${d.message}`);
 * ```
 */
export interface Diagnostic {
  /** Stable, kebab-case identifier, for filtering (`'typo-directive'`). */
  readonly code: string;
  readonly severity: Severity;
  /** One sentence for people. */
  readonly message: string;
  /** 1-based line in the input. */
  readonly line: number;
  /** 1-based column in the input, 1 when the problem is the whole line. */
  readonly column: number;
}

/**
 * True when any diagnostic is an error.
 *
 * @example
 * ```ts
 * if (hasErrors(parseRobots(text).diagnostics)) process.exitCode = 1;
 * ```
 */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
