// Crawl-delay values: a number of seconds, digits with an optional decimal fraction.

/** `value` is digits, optionally followed by `.` and digits (what `/^\d+(\.\d+)?$/` accepts). */
export function isDecimal(value: string): boolean {
  let i = 0;
  while (i < value.length && isDigit(value.charCodeAt(i))) i++;
  if (i === 0) return false;
  if (i === value.length) return true;
  if (value.charCodeAt(i) !== 0x2e) return false;
  const fraction = ++i;
  while (i < value.length && isDigit(value.charCodeAt(i))) i++;
  return i > fraction && i === value.length;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
