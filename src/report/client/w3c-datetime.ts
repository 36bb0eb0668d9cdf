// W3C Datetime (the sitemap `<lastmod>` format) to an instant and a period, for the lastmod
// checks. Coarse values (`2024`, `2024-05`, `2024-05-01`) name a period, not an instant, so
// the checks compare against the whole period in the widest time zones instead of guessing.

const W3C_FORM =
  /^(\d{4})(?:-(\d\d)(?:-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?)?)?$/;

const HOUR = 3_600_000;

export interface W3cInstant {
  /** Start of the value's period in UTC (ms since the epoch). For a time, the instant itself. */
  readonly start: number;
  /** End of the period (exclusive); equal to `start` for a value with a time. */
  readonly end: number;
  /** No time part: a year, month or day. */
  readonly dateOnly: boolean;
}

/** The instant a W3C Datetime names, or null when it is not one (or names a day that does not exist). */
export function parseW3cDatetime(value: string): W3cInstant | null {
  const match = W3C_FORM.exec(value.trim());
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (h === undefined) {
    const start = Date.UTC(year, month - 1, day);
    let end: number;
    if (mo === undefined) end = Date.UTC(year + 1, 0, 1);
    else if (d === undefined) end = Date.UTC(year, month, 1);
    else end = start + 24 * HOUR;
    return { start, end, dateOnly: true };
  }
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 60) return null;
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0${fraction}`) * 1000);
  let offset = 0;
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offset = sign * (zh * HOUR + zm * 60_000);
  }
  const instant =
    Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millis) - offset;
  return { start: instant, end: instant, dateOnly: false };
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Time zones reach from UTC-12 to UTC+14: a local day starts up to 14 h before its UTC day and ends up to 12 h after. */
export const EARLIEST_ZONE_MS = 14 * HOUR;
export const LATEST_ZONE_MS = 12 * HOUR;
