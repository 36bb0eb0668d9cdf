/**
 * The value is a W3C Datetime in the form nearly every sitemap uses, in range, and already
 * normal: `YYYY-MM-DD`, `YYYY-MM-DDThh:mm:ssZ` or `YYYY-MM-DDThh:mm:ss±hh:mm` (zone within
 * ±14:00). Such a value is what the writer's `checkDatetime` returns and what the reader's
 * `readLastmod` keeps as written. Checked by hand because a regular expression match, its
 * captures and the strings rebuilt from them cost more than the rest of an entry.
 */
export function isNormalDatetime(value: string): boolean {
  const length = value.length;
  if (length !== 10 && length !== 20 && length !== 25) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH) return false;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return false;
  }
  if (length === 10) return true;
  if (value.charCodeAt(10) !== 0x54 /* T */) return false;
  if (value.charCodeAt(13) !== COLON || value.charCodeAt(16) !== COLON) return false;
  const hours = digitsAt(value, 11, 2);
  const minutes = digitsAt(value, 14, 2);
  const seconds = digitsAt(value, 17, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) {
    return false;
  }
  const sign = value.charCodeAt(19);
  if (length === 20) return sign === 0x5a /* Z */;
  if ((sign !== 0x2b /* + */ && sign !== DASH) || value.charCodeAt(22) !== COLON) return false;
  const zoneHours = digitsAt(value, 20, 2);
  const zoneMinutes = digitsAt(value, 23, 2);
  return (
    zoneHours >= 0 &&
    zoneMinutes >= 0 &&
    zoneMinutes <= 59 &&
    zoneHours * 60 + zoneMinutes <= 14 * 60
  );
}

const DASH = 0x2d;
const COLON = 0x3a;

/** The number written by `count` ASCII digits at `start`, or -1 when one is not a digit. */
function digitsAt(value: string, start: number, count: number): number {
  let number = 0;
  for (let i = start; i < start + count; i++) {
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/**
 * Days in `month` (1-12) of `year`: proleptic Gregorian, as ISO 8601 and Date.parse use
 * (1900 is not a leap year, 2000 is).
 */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
