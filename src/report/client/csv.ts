// CSV text (RFC 4180) of a table view. Cells come from a hostile site, and a spreadsheet runs
// a cell that starts with = + - @ (or a tab or CR) as a formula: such text cells get a leading
// apostrophe (OWASP's advice), so they open as text.
import type { Cell, ColumnSpec } from './table-query.ts';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV field. Numbers are written as they are; text is defused and quoted when needed. */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line and one line per index, CRLF-separated, ending with CRLF. */
export function viewToCsv<R>(
  rows: readonly R[],
  columns: readonly ColumnSpec<R>[],
  indices: readonly number[],
): string {
  const lines = [columns.map((column) => csvField(column.label)).join(',')];
  for (const index of indices) {
    const row = rows[index] as R;
    lines.push(columns.map((column) => csvField(column.value(row))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
