/** A plain-text table: columns padded to their widest cell, the last one left ragged. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const all = [header, ...rows];
  // A loop, not Math.max(...cells): spreading some 120,000 values into one call overflows
  // the stack, and a table has a row per URL checked.
  const widths = header.map((_, column) => {
    let widest = 0;
    for (const row of all) widest = Math.max(widest, (row[column] ?? '').length);
    return widest;
  });
  return all
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}
