// A sitemap `<lastmod>` as the period of time it names, for the lastmod sanity checks. A
// coarse value (`2024`, `2024-05`, `2024-05-01`) names a period in an unknown time zone, not
// an instant, so the checks compare against the whole period in the widest zones instead of
// guessing one.
import { readLastmod } from './lastmod.ts';

const HOUR = 3_600_000;

/** Zones reach from UTC-12 to UTC+14: a local day starts up to 14 h before its UTC day... */
export const EARLIEST_ZONE_MS = 14 * HOUR;
/** ...and ends up to 12 h after it. */
export const LATEST_ZONE_MS = 12 * HOUR;

export interface LastmodPeriod {
  /** Start of the period in UTC (ms since the epoch); for a value with a time, the instant. */
  readonly start: number;
  /** End of the period (exclusive); equal to `start` for a value with a time. */
  readonly end: number;
  /** No time part: a year, a month or a day. */
  readonly dateOnly: boolean;
  /** The value was W3C Datetime as written; false when it was read from another form. */
  readonly w3c: boolean;
}

/**
 * The period a `<lastmod>` names, or null when it cannot be read at all. Forms that are not
 * W3C Datetime but that the sitemap reader understands (no zone, `+0100`, RFC 822) come back
 * with `w3c: false` and the period the reader reads them as; everything else is null.
 */
export function lastmodPeriod(value: string): LastmodPeriod | null {
  const reading = readLastmod(value);
  const normal = reading.value;
  if (normal === null) return null;
  // The reader's value is W3C Datetime: YYYY, YYYY-MM, YYYY-MM-DD, or a time with a zone.
  if (normal.length > 10) {
    const at = Date.parse(normal);
    return Number.isNaN(at) ? null : { start: at, end: at, dateOnly: false, w3c: reading.w3c };
  }
  const year = Number(normal.slice(0, 4));
  const month = normal.length >= 7 ? Number(normal.slice(5, 7)) : 1;
  const day = normal.length === 10 ? Number(normal.slice(8, 10)) : 1;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const start = new Date(0).setUTCFullYear(year, month - 1, day);
  let end: number;
  if (normal.length === 4) end = new Date(0).setUTCFullYear(year + 1, 0, 1);
  else if (normal.length === 7) end = new Date(0).setUTCFullYear(year, month, 1);
  else end = start + 24 * HOUR;
  return { start, end, dateOnly: true, w3c: reading.w3c };
}
