// `Last-Modified` as the crawl records it: W3C Datetime in UTC, whole seconds. Nearly every
// server sends the one form HTTP prescribes (IMF-fixdate, RFC 9110 5.6.7), which is read
// here field by field; `Date.parse`, a general parser that tries many forms, cost more per
// page than the whole response's header handling. Anything else goes through `Date.parse`,
// and the fast path gives what it would (a property test holds them together).

import { daysInMonth } from '../../sitemap/internal/normal-datetime.ts';

const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d\d) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d\d):(\d\d):(\d\d) GMT$/;
const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/** An HTTP date as W3C Datetime (UTC, whole seconds), or null when it is not a date. */
export function isoDate(value: string | null): string | null {
  if (value === null) return null;
  const fields = IMF_FIXDATE.exec(value);
  if (fields !== null) {
    const [, day, monthName, year, hour, minute, second] = fields as unknown as string[];
    const month = MONTHS.indexOf(monthName as string) / 3 + 1;
    if (
      Number(year) >= 1000 &&
      Number(day) >= 1 &&
      Number(day) <= daysInMonth(Number(year), month) &&
      Number(hour) <= 23 &&
      Number(minute) <= 59 &&
      Number(second) <= 59
    ) {
      return `${year}-${month < 10 ? '0' : ''}${month}-${day}T${hour}:${minute}:${second}Z`;
    }
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
