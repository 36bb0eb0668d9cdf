import type { Diagnostic } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import { jsonLine } from './json-line.ts';

/**
 * A diagnostic as the commands print it, `where:line[:column]: severity: message [code]`,
 * one line safe for the terminal (the message and the place may quote the input).
 */
export function diagnosticText(where: string, d: Diagnostic, withColumn = false): string {
  const at = withColumn ? `${d.line}:${d.column}` : `${d.line}`;
  return `${printable(`${where}:${at}: ${d.severity}: ${d.message} [${d.code}]`)}\n`;
}

/** A diagnostic as one JSON line (`--json`), safe for the terminal. */
export function diagnosticJson(file: string, d: Diagnostic): string {
  const { line, column, severity, code, message } = d;
  return jsonLine({ file, line, column, severity, code, message });
}
