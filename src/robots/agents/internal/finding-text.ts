import type { Severity } from '../../../shared/diagnostic.ts';

/** Adds one audit finding. */
export type AddFinding = (
  severity: Severity,
  line: number,
  code: string,
  message: string,
  hint: string,
  tokens?: readonly string[],
) => void;

/** `a`, `a and b`, `a, b and c`. */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
