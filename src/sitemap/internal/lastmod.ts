import { daysInMonth, isNormalDatetime } from './normal-datetime.ts';

/**
 * Reads a sitemap `<lastmod>` (and the other dates sitemaps and feeds carry: news
 * `publication_date`, RSS `pubDate`, Atom `updated`/`issued`/`modified`) into ISO 8601.
 *
 * W3C Datetime (https://www.w3.org/TR/NOTE-datetime), which sitemaps.org requires, comes back
 * exactly as written: precision and offset are the publisher's, and a `Date` round trip
 * would change both. Forms that real generators write instead (no zone, a space for `T`,
 * `+0100`, `24:00`, `20050716`, RFC 822 from RSS) are rewritten field by field into W3C
 * Datetime with a note saying what was assumed. Anything else reads as `null`: a wrong date
 * is worse than none, because crawlers schedule on it.
 *
 * Runs once per sitemap entry, so the work is one regular expression and integer checks;
 * W3C-valid values, the common case, allocate nothing but the match and the result.
 */

export interface LastmodReading {
  /** ISO 8601 value, or null when nothing trustworthy could be read. */
  value: string | null;
  /** The raw value was valid W3C Datetime (https://www.w3.org/TR/NOTE-datetime) after trimming XML whitespace. */
  w3c: boolean;
  /** Why a non-W3C value was read as it was, or why it was rejected: one short sentence for a diagnostic; null when w3c. */
  note: string | null;
}

// Numeric offsets with or without the colon, or minutes left out (PostgreSQL writes `+02`);
// names are checked against NAMED_ZONES after the match, so an unknown one gets its own note.
const ZONE = String.raw`[+-]\d\d(?::?\d\d)?|[A-Za-z]{1,5}`;

// Every field up to the seconds sits at a fixed offset, so only what moves is captured
// (captures are much of the cost of a match): 1 fraction, 2 a/p of AM/PM, 3 space before the
// zone, 4 zone. The rest is read from character codes. Single spaces only: runs of spaces
// would let the optional parts backtrack into each other.
const ISO_FORM = new RegExp(
  String.raw`^\d{4}(?:-\d\d(?:-\d\d(?:[Tt ]\d\d:\d\d(?::\d\d(\.\d+)?)?(?: ?([AaPp])[Mm])?)?)?|\d{4})?(?:( ?)(${ZONE}))?$`,
);

// RFC 822/1123/2822 as in RSS. ABNF literals are case-insensitive (RFC 5234), hence `i`;
// folding white space may include line breaks, which XML keeps inside an element.
// Groups: 1 day, 2 month name, 3 year, 4 hour, 5 minute, 6 second, 7 zone.
const RFC_FORM = new RegExp(
  String.raw`^(?:(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)(?:,[ \t\r\n]*|[ \t\r\n]+))?(\d\d?)[ \t\r\n]+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[ \t\r\n]+(\d{4}|\d\d)[ \t\r\n]+(\d\d?):(\d\d)(?::(\d\d))?(?:[ \t\r\n]*(${ZONE}))?$`,
  'i',
);

const DASH = 0x2d;
const COLON = 0x3a;
const SPACE = 0x20;
const UPPER_T = 0x54;
const LOWER_T = 0x74;

const MONTH_NAMES = 'janfebmaraprmayjunjulaugsepoctnovdec';

// RFC 822 section 5 names. Military letters other than Z are left out on purpose: RFC 2822
// says their signs were defined backwards and they carry no reliable information.
const NAMED_ZONES: ReadonlyMap<string, string> = new Map([
  ['Z', 'Z'],
  ['UT', 'Z'],
  ['UTC', 'Z'],
  ['GMT', 'Z'],
  ['EST', '-05:00'],
  ['EDT', '-04:00'],
  ['CST', '-06:00'],
  ['CDT', '-05:00'],
  ['MST', '-07:00'],
  ['MDT', '-06:00'],
  ['PST', '-08:00'],
  ['PDT', '-07:00'],
]);

const NOTES = {
  empty: 'empty',
  month: 'month out of range',
  day: 'day out of range for the month',
  hour: 'hour out of range',
  hour12: 'hour out of range for a 12-hour clock',
  minute: 'minute out of range',
  second: 'second out of range',
  // Neither W3C Datetime nor XML Schema allows 60, and Date.parse rejects it.
  leapSecond: 'leap second 60 is not accepted',
  endOfDay: '24:00 is end of day only with zero minutes and seconds',
  pastYear9999: '24:00 on 9999-12-31 rolls past the four-digit year',
  offset: 'timezone offset out of range',
  zoneName: 'unknown or ambiguous timezone name',
  zoneWithoutDay: 'timezone on a year or month alone',
  bareNumber: 'a bare number (unix timestamp?) is ambiguous',
  twoDates: 'more than one date in one element',
  malformedIso: 'malformed ISO 8601 date or time',
  unrecognised: 'not a recognised date format',
  // Readings:
  noZone: 'no timezone, read as UTC',
  space: 'space read as T',
  lowercaseT: 'lowercase t read as T',
  meridiem: '12-hour clock read as 24-hour',
  spaceBeforeZone: 'space before timezone dropped',
  namedZone: 'timezone name read as its offset',
  offsetForm: 'offset rewritten as ±hh:mm',
  rolledDay: '24:00 read as 00:00 of the next day',
  basic: 'basic-format date read as YYYY-MM-DD',
  dateZone: 'timezone on a date dropped',
  rfc: 'RFC 822 date read as ISO 8601',
  twoDigitYear: 'two-digit year read per RFC 2822 (00-49 as 20xx)',
} as const;

/**
 * Reads a sitemap or feed date. Never throws; `value` is null when nothing trustworthy could
 * be read, and otherwise always W3C Datetime that `Date.parse` accepts.
 *
 * @example
 * ```ts
 * readLastmod(' 2005-07-16T19:20+01:00 ');
 * // { value: '2005-07-16T19:20+01:00', w3c: true, note: null }
 * readLastmod('2024-05-08 08:53:11 PM'); // value '2024-05-08T20:53:11Z', w3c false, note says why
 * readLastmod('Thu, 17 Dec 2009 12:04:56 +0200'); // value '2009-12-17T12:04:56+02:00'
 * readLastmod('2005-02-30'); // { value: null, w3c: false, note: 'day out of range for the month' }
 * ```
 */
export function readLastmod(raw: string): LastmodReading {
  const s = trimXmlSpace(raw);
  return isNormalDatetime(s) ? accepted(s) : readLastmodByTheRules(s);
}

/**
 * {@link readLastmod} of a trimmed value without the shortcut for the common normal form
 * (which must agree with it: a property test holds them together).
 */
export function readLastmodByTheRules(s: string): LastmodReading {
  if (s.length === 0) return rejected(NOTES.empty);
  const iso = ISO_FORM.exec(s);
  if (iso !== null) return readIso(s, iso);
  const rfc = RFC_FORM.exec(s);
  if (rfc !== null) return readRfc(rfc);
  return rejected(whyUnreadable(s));
}

function readIso(s: string, m: RegExpExecArray): LastmodReading {
  const zone = m[4];
  const basic = isDigit(s.charCodeAt(4));
  // Where the zone starts tells the forms apart: in `2005-07-05:00` it is `-05:00` on a month.
  const zoneAt = s.length - (zone?.length ?? 0) - (m[3]?.length ?? 0);
  if (!basic && zoneAt < 10) {
    // A year, or a year and month, alone.
    if (zone !== undefined) return rejected(NOTES.zoneWithoutDay);
    if (s.length === 7 && !validMonth(digits2(s, 5))) return rejected(NOTES.month);
    return accepted(s);
  }
  const year = digits2(s, 0) * 100 + digits2(s, 2);
  const month = basic ? digits2(s, 4) : digits2(s, 5);
  const day = basic ? digits2(s, 6) : digits2(s, 8);
  if (!validMonth(month)) return rejected(NOTES.month);
  if (day < 1 || day > daysInMonth(year, month)) return rejected(NOTES.day);

  let note: string | null = basic ? NOTES.basic : null;
  let tz = '';
  if (zone !== undefined) {
    const normal = normaliseZone(zone);
    if (normal === null) return rejected(zoneProblem(zone));
    tz = normal;
  }
  const date = basic ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : s.slice(0, 10);

  // A zone starts with a sign or a letter, so a separator then a digit starts the time.
  const separator = s.charCodeAt(10);
  const timed = separator === UPPER_T || separator === LOWER_T || separator === SPACE;
  if (basic || !timed || !isDigit(s.charCodeAt(11))) {
    if (zone !== undefined) note = also(note, NOTES.dateZone);
    return note === null ? accepted(s) : read(date, note);
  }

  let hour = digits2(s, 11);
  const minute = digits2(s, 14);
  const hasSeconds = s.charCodeAt(16) === COLON;
  const second = hasSeconds ? digits2(s, 17) : 0;
  const fraction = m[1] ?? '';
  const meridiem = m[2];
  if (minute > 59) return rejected(NOTES.minute);
  if (second === 60) return rejected(NOTES.leapSecond);
  if (second > 59) return rejected(NOTES.second);
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return rejected(NOTES.hour12);
    hour = (hour % 12) + (meridiem === 'p' || meridiem === 'P' ? 12 : 0);
  }
  const endOfDay = hour === 24;
  if (endOfDay) {
    // XML Schema's end of day: only 24:00:00 exactly, which is the next day's midnight.
    if (minute !== 0 || second !== 0 || !allZeros(fraction)) return rejected(NOTES.endOfDay);
  } else if (hour > 23) {
    return rejected(NOTES.hour);
  }

  const spaceBeforeZone = m[3] === ' ';
  if (
    separator === UPPER_T &&
    meridiem === undefined &&
    !endOfDay &&
    zone !== undefined &&
    tz === zone &&
    !spaceBeforeZone
  ) {
    return accepted(s);
  }

  if (separator === SPACE) note = also(note, NOTES.space);
  else if (separator === LOWER_T) note = also(note, NOTES.lowercaseT);
  if (meridiem !== undefined) note = also(note, NOTES.meridiem);
  let datePart = date;
  if (endOfDay) {
    const next = nextDay(year, month, day);
    if (next === null) return rejected(NOTES.pastYear9999);
    datePart = next;
    hour = 0;
    note = also(note, NOTES.rolledDay);
  }
  if (zone === undefined) {
    tz = 'Z';
    note = also(note, NOTES.noZone);
  } else {
    if (spaceBeforeZone) note = also(note, NOTES.spaceBeforeZone);
    if (tz !== zone) note = also(note, isSign(zone) ? NOTES.offsetForm : NOTES.namedZone);
  }
  // Minutes, seconds and fraction keep their digits; only the hour can have changed.
  const rest = s.slice(13, hasSeconds ? 19 + fraction.length : 16);
  // Every way here from the W3C check above added a note, so the fallback is never used.
  return read(`${datePart}T${pad2(hour)}${rest}${tz}`, note ?? '');
}

function readRfc(m: RegExpExecArray): LastmodReading {
  const day = Number(m[1]);
  const month = MONTH_NAMES.indexOf((m[2] ?? '').toLowerCase()) / 3 + 1;
  const yearText = m[3] ?? '';
  let year = Number(yearText);
  let note: string = NOTES.rfc;
  if (yearText.length === 2) {
    year += year < 50 ? 2000 : 1900;
    note = also(note, NOTES.twoDigitYear);
  }
  if (day < 1 || day > daysInMonth(year, month)) return rejected(NOTES.day);
  const hour = Number(m[4]);
  if (hour > 23) return rejected(NOTES.hour);
  if (Number(m[5]) > 59) return rejected(NOTES.minute);
  const secondText = m[6];
  if (secondText !== undefined) {
    const second = Number(secondText);
    if (second === 60) return rejected(NOTES.leapSecond);
    if (second > 59) return rejected(NOTES.second);
  }
  const zone = m[7];
  let tz = 'Z';
  if (zone === undefined) {
    // RFC 822 requires a zone; without one, read it like an ISO time without one.
    note = also(note, NOTES.noZone);
  } else {
    const normal = normaliseZone(zone);
    if (normal === null) return rejected(zoneProblem(zone));
    tz = normal;
  }
  const seconds = secondText === undefined ? '' : `:${secondText}`;
  return read(
    `${pad4(year)}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${m[5] ?? ''}${seconds}${tz}`,
    note,
  );
}

/** `Z` or `±hh:mm` for a zone as matched by ZONE, or null when out of range or unknown. */
function normaliseZone(zone: string): string | null {
  if (!isSign(zone)) return NAMED_ZONES.get(zone.toUpperCase()) ?? null;
  const hours = digits2(zone, 1);
  const minutes = zone.length === 3 ? 0 : digits2(zone, zone.length - 2);
  if (hours > 23 || minutes > 59) return null;
  if (zone.length === 6) return zone;
  return `${zone.slice(0, 3)}:${zone.length === 3 ? '00' : zone.slice(-2)}`;
}

function zoneProblem(zone: string): string {
  return isSign(zone) ? NOTES.offset : NOTES.zoneName;
}

function isSign(zone: string): boolean {
  const c = zone.charCodeAt(0);
  return c === 0x2b || c === DASH;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `YYYY-MM-DD` of the day after, or null past year 9999 (W3C years have four digits). */
function nextDay(year: number, month: number, day: number): string | null {
  if (day < daysInMonth(year, month)) return `${pad4(year)}-${pad2(month)}-${pad2(day + 1)}`;
  if (month < 12) return `${pad4(year)}-${pad2(month + 1)}-01`;
  return year < 9999 ? `${pad4(year + 1)}-01-01` : null;
}

function validMonth(month: number): boolean {
  return month >= 1 && month <= 12;
}

/** Trims XML white space only: a no-break space is content, so it makes the value unreadable. */
function trimXmlSpace(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && isXmlSpace(raw.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(raw.charCodeAt(end - 1))) end--;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function allZeros(fraction: string): boolean {
  for (let i = 1; i < fraction.length; i++) if (fraction.charCodeAt(i) !== 0x30) return false;
  return true;
}

function digits2(s: string, at: number): number {
  return (s.charCodeAt(at) - 0x30) * 10 + (s.charCodeAt(at + 1) - 0x30);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

function pad4(n: number): string {
  return `${n}`.padStart(4, '0');
}

function also(note: string | null, more: string): string {
  return note === null ? more : `${note}; ${more}`;
}

// Only reached on values already rejected, so clarity beats speed here.
const ALL_DIGITS = /^\d+$/;
const TWO_DATES = /\d{4}-\d\d-\d\d[\s\S]*\d{4}-\d\d-\d\d/;
const ISO_START = /^\d{4}-\d/;

function whyUnreadable(s: string): string {
  if (ALL_DIGITS.test(s)) return NOTES.bareNumber;
  if (TWO_DATES.test(s)) return NOTES.twoDates;
  if (ISO_START.test(s)) return NOTES.malformedIso;
  return NOTES.unrecognised;
}

function accepted(value: string): LastmodReading {
  return { value, w3c: true, note: null };
}

function read(value: string, note: string): LastmodReading {
  return { value, w3c: false, note };
}

function rejected(note: string): LastmodReading {
  return { value: null, w3c: false, note };
}
