const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// The three HTTP-date forms recipients must accept (RFC 9110 section 5.6.7), with the
// weekday not checked against the date, letters in any case and runs of spaces allowed.
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = /^[a-z]{3},\s*(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d\d):(\d\d):(\d\d)\s+gmt$/i;
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850_DATE = /^[a-z]+,\s*(\d{1,2})-([a-z]{3})-(\d\d)\s+(\d\d):(\d\d):(\d\d)\s+gmt$/i;
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME_DATE = /^[a-z]{3}\s+([a-z]{3})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})$/i;

/**
 * How long a `Retry-After` header asks to wait, in milliseconds from `now` (epoch
 * milliseconds): delay-seconds (`120`) or an HTTP-date in any of its three forms (RFC 9110
 * section 10.2.3). A date already past is 0; a delay too large to count in milliseconds is
 * `Number.MAX_SAFE_INTEGER` (cap it to your own maximum). Null when the header is missing or
 * not understood (`-1`, `1.5`, `soon`).
 *
 * @example
 * ```ts
 * const wait = retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? 60_000;
 * ```
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const date = parseHttpDate(text, now);
  return date === null ? null : Math.max(0, date - now);
}

/** Epoch milliseconds of an HTTP-date, or null. */
function parseHttpDate(text: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match !== null) {
    const [, day, month, year, hour, minute, second] = match;
    return utc(year, month, day, hour, minute, second);
  }
  match = RFC850_DATE.exec(text);
  if (match !== null) {
    const [, day, month, year, hour, minute, second] = match;
    return utc(String(fullYear(Number(year), now)), month, day, hour, minute, second);
  }
  match = ASCTIME_DATE.exec(text);
  if (match !== null) {
    const [, month, day, hour, minute, second, year] = match;
    return utc(year, month, day, hour, minute, second);
  }
  return null;
}

/**
 * A two-digit year read as RFC 9110 asks: one that would be more than 50 years after `now` is
 * the most recent past year with those digits.
 */
function fullYear(twoDigits: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = current - (current % 100) + twoDigits;
  return year > current + 50 ? year - 100 : year;
}

/** Epoch milliseconds of a date written in parts (month as a name), or null if out of range. */
function utc(
  year = '',
  monthName = '',
  day = '',
  hour = '',
  minute = '',
  second = '',
): number | null {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  const d = Number(day);
  const [h, m, s] = [Number(hour), Number(minute), Number(second)];
  // Second 60 is a leap second.
  if (month < 0 || h > 23 || m > 59 || s > 60) return null;
  // Day 0, 31 February and the like would roll over into another month.
  if (new Date(Date.UTC(Number(year), month, d)).getUTCDate() !== d) return null;
  return Date.UTC(Number(year), month, d, h, m, s);
}
