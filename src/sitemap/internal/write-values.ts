import { forbiddenXmlChar } from '../../shared/xml/xml-escape.ts';
import { daysInMonth, isNormalDatetime } from './normal-datetime.ts';
import { MAX_URL_LENGTH } from './protocol-limits.ts';

/** Throws for the entry being written; the message names the field and the problem. */
export type Fail = (message: string) => never;

/** The protocol's limit on a URL, after encoding (sitemaps.org `tLoc` maxLength). */
export { MAX_URL_LENGTH };

/** sitemaps.org `tLoc` minLength: shorter `<loc>` values fail the official schema. */
const MIN_LOC_LENGTH = 12;

/** A value quoted for a message, cut short so a 2,049-character URL stays readable. */
export function quote(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  return JSON.stringify(value.length <= 100 ? value : `${value.slice(0, 100)}…`);
}

/**
 * A list field: [] when left out, the array when it is one; anything else (a string, an
 * object, as JSON input may hold) is refused rather than read as a list or thrown on.
 */
export function checkList<T>(
  value: readonly T[] | undefined,
  field: string,
  fail: Fail,
): readonly T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${field} is not a list`);
  return value;
}

/** An object field (`{ name, info }`): anything else (null, a string, a list) is refused. */
export function checkObject<T extends object>(value: T, field: string, fail: Fail): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${field} is not an object`);
  }
  return value;
}

/** Free text (titles, captions, names): any string XML 1.0 can carry. */
export function checkText(value: unknown, field: string, fail: Fail, maxChars?: number): string {
  if (typeof value !== 'string') fail(`${field} is not a string`);
  const bad = forbiddenXmlChar(value);
  if (bad !== null) fail(`${field} has a character XML 1.0 does not allow (${bad})`);
  // The schemas count characters (code points), not UTF-16 units.
  if (maxChars !== undefined && value.length > maxChars && [...value].length > maxChars) {
    fail(`${field} is longer than ${maxChars} characters`);
  }
  return value;
}

/**
 * An absolute http(s) URL spelled as `new URL(x).href`: scheme and host lower-cased, IDN
 * hosts in punycode, spaces, quotes and non-ASCII percent-encoded (RFC 3986), so the
 * length limit applies to what is written. `loc` also gets the schema's minimum length.
 */
export function checkUrl(
  value: unknown,
  field: string,
  fail: Fail,
  options: { readonly origin?: string; readonly isLoc?: boolean } = {},
): string {
  if (typeof value !== 'string') fail(`${field} is not a string`);
  const url = URL.parse(value);
  if (url === null) fail(`${field} ${quote(value)} is not an absolute URL`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(`${field} ${quote(value)} is not an http(s) URL`);
  }
  const href = url.href;
  if (href.length > MAX_URL_LENGTH) {
    fail(`${field} is ${href.length} characters once encoded, more than ${MAX_URL_LENGTH}`);
  }
  if (options.isLoc === true && href.length < MIN_LOC_LENGTH) {
    fail(`${field} ${quote(href)} is shorter than the schema's ${MIN_LOC_LENGTH} characters`);
  }
  if (options.origin !== undefined && url.origin !== options.origin) {
    fail(`${field} ${quote(href)} is not on origin ${options.origin}`);
  }
  return href;
}

/** The origin option, checked once: an http(s) URL whose `origin` locs must share. */
export function checkOrigin(value: string, fail: Fail): string {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail(`origin ${quote(value)} is not an absolute http(s) URL`);
  }
  return url.origin;
}

// W3C Datetime (NOTE-datetime) with a full date; seconds optional, zone required with a time.
const W3C_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

/**
 * A W3C Datetime the official schemas accept (`xsd:date` or `xsd:dateTime`), normalised:
 * `YYYY-MM-DD`, or a time with a zone (`Z` or `±hh:mm`), seconds added when left out and
 * `T`/`Z` upper-cased. `Date#toISOString()` output passes as it is. The W3C forms `YYYY`
 * and `YYYY-MM` are refused: the schemas reject them and no full date can be invented.
 * A time without a zone is refused too: W3C requires one, and a local time is ambiguous.
 */
export function checkDatetime(value: unknown, field: string, fail: Fail): string {
  if (value instanceof Date) return dateToSeconds(value, field, fail);
  if (typeof value !== 'string') fail(`${field} is not a string or a Date`);
  if (isNormalDatetime(value)) return value;
  const normal = normalizeDatetime(value);
  if (normal.problem !== undefined) fail(`${field} ${quote(value)} ${normal.problem}`);
  return normal.value;
}

/**
 * A `Date` as a full timestamp with its zone, to the second in UTC (`2026-11-24T10:15:00Z`):
 * never a date alone, which would drop the time engines can use, and no milliseconds, which
 * no engine uses. Years outside 1-9999 are refused as W3C Datetime has four digits.
 */
function dateToSeconds(value: Date, field: string, fail: Fail): string {
  const ms = value.getTime();
  if (Number.isNaN(ms)) fail(`${field} is an invalid Date`);
  const year = value.getUTCFullYear();
  if (year < 1 || year > 9999) fail(`${field} ${value.toISOString()} is outside years 1-9999`);
  // toISOString rounds its fields down, so cutting the milliseconds off the text is exact.
  return `${value.toISOString().slice(0, 19)}Z`;
}

/** {@link checkDatetime}'s rules by the book: the normal form, or what is wrong. */
export function normalizeDatetime(
  value: string,
): { readonly value: string; readonly problem?: undefined } | { readonly problem: string } {
  const m = W3C_DATETIME.exec(value);
  if (m === null) {
    return {
      problem: 'is not a W3C Datetime with a full date (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss±hh:mm)',
    };
  }
  const [, y = '', mo = '', d = '', hh, mm, ss, fraction = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { problem: 'is not a calendar date' };
  }
  if (hh === undefined || mm === undefined || zone === undefined)
    return { value: `${y}-${mo}-${d}` };
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? '0') > 59) {
    return { problem: 'is not a time of day' };
  }
  // xsd:dateTime allows zones from -14:00 to +14:00.
  if (
    zone.length > 1 &&
    (Number(zone.slice(4)) > 59 || Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)) > 14 * 60)
  ) {
    return { problem: 'has a time zone outside ±14:00' };
  }
  return { value: `${y}-${mo}-${d}T${hh}:${mm}:${ss ?? '00'}${fraction}${zone.toUpperCase()}` };
}

/** A decimal in [min, max], written the way `xsd:decimal` reads it (never with an exponent). */
export function checkDecimal(
  value: unknown,
  field: string,
  min: number,
  max: number,
  fail: Fail,
): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    fail(`${field} ${quote(value)} is not a number from ${min} to ${max}`);
  }
  if (Number.isInteger(value)) return value.toFixed(1);
  const plain = String(value);
  // Tiny values print as 1e-7; spell them out and drop the padding.
  return plain.includes('e') ? value.toFixed(20).replace(/0+$/, '') : plain;
}

/** A whole number in [min, max]. */
export function checkInteger(
  value: unknown,
  field: string,
  min: number,
  max: number,
  fail: Fail,
): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(`${field} ${quote(value)} is not a whole number from ${min} to ${max}`);
  }
  return String(value);
}

// xs:language, which `xhtml:link hreflang` is typed as; `x-default` fits it too.
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

/** A BCP 47 language tag as `xs:language` accepts it (`de`, `en-GB`, `x-default`). */
export function checkLanguageTag(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || !LANGUAGE_TAG.test(value)) {
    fail(`${field} ${quote(value)} is not a language tag (like "de", "en-GB" or "x-default")`);
  }
  return value;
}

/** One of a fixed set of words. */
export function checkOneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  field: string,
  fail: Fail,
): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(`${field} ${quote(value)} is not one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** `yes` or `no`, as the video schema spells booleans. */
export function checkYesNo(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'boolean') fail(`${field} is not a boolean`);
  return value ? 'yes' : 'no';
}
