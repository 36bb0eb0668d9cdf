/** A whole-number command-line option of a benchmark (`--pages 500`), or its default. */
export function numberOption(flag: string, fallback: number): number {
  const at = process.argv.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} takes a whole number`);
  return value;
}
