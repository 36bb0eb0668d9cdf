// The `<lastmod>` mistakes that make search engines stop trusting a sitemap's lastmod
// (Google documents that it uses lastmod only when it is consistently and verifiably
// accurate). One pass in constant memory: `sitemap validate`, the crawl summary and the
// crawl report all run these same checks. Thresholds and tolerances are lenient
// where time zones make a value ambiguous, so a flagged value is wrong in every reading.
import { EARLIEST_ZONE_MS, LATEST_ZONE_MS, lastmodPeriod } from './internal/lastmod-period.ts';

/**
 * Clock difference tolerated between the site and the reader, and around a generation time:
 * 5 minutes.
 *
 * @example
 * ```ts
 * checkLastmodSanity(entries, { readAt: Date.now(), clockSkewMs: LASTMOD_CLOCK_SKEW_MS * 2 });
 * ```
 */
export const LASTMOD_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * How many equal values it takes before "all identical" means something. Values with a time
 * of day: 3 (two pages saved in the same second happens; three is a generator). Dates
 * alone: 10 (a small site launched on one day legitimately shares a date).
 *
 * @example
 * ```ts
 * if (values.length < LASTMOD_IDENTICAL_MIN.dateOnly) console.log('too few dates to tell');
 * ```
 */
export const LASTMOD_IDENTICAL_MIN = { withTime: 3, dateOnly: 10 } as const;

/**
 * Share of the values with a time that must equal the generation time for that finding to
 * be a warning (the sitemap writes "now"); below it, a note (a few pages that really changed
 * just before the sitemap was made look the same).
 *
 * @example
 * ```ts
 * const severity = matching >= withTime * LASTMOD_GENERATION_SHARE ? 'warning' : 'info';
 * ```
 */
export const LASTMOD_GENERATION_SHARE = 0.5;

/** Example entries kept per finding by default. */
const DEFAULT_EXAMPLES = 5;

/** What a finding is about; stable, for filtering. */
export type LastmodFindingCode =
  | 'lastmod-invalid'
  | 'lastmod-future'
  | 'lastmod-generation-time'
  | 'lastmod-older-than-page'
  | 'lastmod-all-identical'
  | 'lastmod-date-only';

/** One sitemap entry as far as the checks need it. */
export interface LastmodEntry {
  readonly loc: string;
  /** The `<lastmod>` as the sitemap gives it; null or absent when it has none. */
  readonly lastmod?: string | null | undefined;
  /**
   * When the page itself says it changed, where known: its `Last-Modified` header (an HTTP
   * date or ISO 8601 string) or epoch milliseconds.
   */
  readonly lastModified?: string | number | null | undefined;
}

export interface LastmodSanityOptions {
  /**
   * When the sitemap was read (epoch ms), or each file's read time when the entries come
   * from several. A lastmod within the tolerance of one of them is "the generation time"
   * (a sitemap generated on request); the latest is "now" for the future check.
   */
  readonly readAt?: number | readonly number[];
  /** Other instants the sitemap is known to have been generated at: a file's mtime, say. */
  readonly generatedAt?: number | readonly number[];
  /** The instant "future" is measured from; default the latest `readAt`. Without either, no future check. */
  readonly now?: number;
  /** Default {@link LASTMOD_CLOCK_SKEW_MS}. */
  readonly clockSkewMs?: number;
  /** Example entries kept per finding (default 5; `Infinity` keeps every one). */
  readonly examples?: number;
}

/** An entry a finding is about: its position in the input, its URL and its lastmod. */
export interface LastmodExample {
  readonly index: number;
  readonly loc: string;
  readonly lastmod: string;
}

export interface LastmodFinding {
  readonly code: LastmodFindingCode;
  /**
   * `warning`: engines may distrust the sitemap's lastmod; `info`: a note. Fixed per code,
   * except `lastmod-generation-time`: a warning only when it concerns at least
   * {@link LASTMOD_GENERATION_SHARE} of the values with a time.
   */
  readonly severity: 'warning' | 'info';
  /** Entries concerned (for `lastmod-all-identical`: every entry with a lastmod). */
  readonly count: number;
  /** One sentence for people, with the count. */
  readonly message: string;
  /** The first few entries concerned, in input order. */
  readonly examples: readonly LastmodExample[];
}

export interface LastmodSanity {
  /** Problems found, warnings first; empty when there is nothing to say. */
  readonly findings: readonly LastmodFinding[];
  /** Entries seen, with or without a lastmod. */
  readonly entries: number;
  /** Entries with a lastmod. */
  readonly withLastmod: number;
  /** Of those, readable values with a time of day, and readable dates alone. */
  readonly withTime: number;
  readonly dateOnly: number;
  /** The instant the future check measured from, or null when it did not run. */
  readonly now: number | null;
}

type Bucket = { count: number; examples: LastmodExample[] };

/**
 * The lastmod checks over entries fed one at a time, for a stream: {@link add} each entry,
 * then read {@link result}. Time is linear in the entries and memory constant (the example
 * lists are bounded), apart from the sorted generation times.
 *
 * @example
 * ```ts
 * const check = new LastmodSanityCheck({ readAt: Date.now() });
 * for await (const entry of parseSitemap(bytes)) check.add(entry);
 * for (const finding of check.result().findings) console.log(finding.severity, finding.message);
 * ```
 */
export class LastmodSanityCheck {
  readonly #generation: number[];
  readonly #now: number | null;
  readonly #skew: number;
  readonly #keep: number;
  #entries = 0;
  #withLastmod = 0;
  #withTime = 0;
  #first: string | null = null;
  #firstHasTime = false;
  #allSame = true;
  #identical: LastmodExample[] = [];
  readonly #invalid: Bucket = bucket();
  readonly #future: Bucket = bucket();
  readonly #generationTime: Bucket = bucket();
  readonly #older: Bucket = bucket();
  /** Date-only values of any entry, and of entries whose page gives a time. */
  readonly #dateOnlyAll: Bucket = bucket();
  readonly #dateOnlyPageTime: Bucket = bucket();

  constructor(options: LastmodSanityOptions = {}) {
    const readAt = list(options.readAt);
    this.#generation = [...readAt, ...list(options.generatedAt)].sort((a, b) => a - b);
    let latestRead: number | null = null;
    for (const at of readAt) if (latestRead === null || at > latestRead) latestRead = at;
    this.#now =
      options.now !== undefined && Number.isFinite(options.now) ? options.now : latestRead;
    this.#skew = options.clockSkewMs ?? LASTMOD_CLOCK_SKEW_MS;
    this.#keep = options.examples ?? DEFAULT_EXAMPLES;
  }

  add(entry: LastmodEntry): void {
    const index = this.#entries++;
    const value = entry.lastmod;
    if (value === null || value === undefined || value === '') return;
    this.#withLastmod++;
    const example = { index, loc: entry.loc, lastmod: value };
    const period = lastmodPeriod(value);
    if (this.#first === null) {
      this.#first = value;
      this.#firstHasTime = period !== null && !period.dateOnly;
    } else if (value !== this.#first) this.#allSame = false;
    if (this.#allSame && this.#identical.length < this.#keep) this.#identical.push(example);
    if (period === null || !period.w3c) this.#note(this.#invalid, example);
    if (period === null) return;
    const skew = this.#skew;
    const modified = pageTime(entry.lastModified);
    if (period.dateOnly) {
      this.#note(this.#dateOnlyAll, example);
      if (!Number.isNaN(modified)) this.#note(this.#dateOnlyPageTime, example);
    } else {
      this.#withTime++;
      if (nearAny(this.#generation, period.start, skew)) this.#note(this.#generationTime, example);
    }
    const now = this.#now;
    if (now !== null) {
      const surelyLater = period.dateOnly
        ? period.start - EARLIEST_ZONE_MS > now
        : period.start > now + skew;
      if (surelyLater) this.#note(this.#future, example);
    }
    if (!Number.isNaN(modified)) {
      // A page that changed after what its lastmod says, by more than any reading of it.
      const older = period.dateOnly
        ? modified >= period.end + LATEST_ZONE_MS
        : modified - period.start >= 1000;
      if (older) this.#note(this.#older, example);
    }
  }

  #note(into: Bucket, example: LastmodExample): void {
    into.count++;
    if (into.examples.length < this.#keep) into.examples.push(example);
  }

  /** The findings so far (complete once every entry was added). */
  result(): LastmodSanity {
    const minutes = `${Math.round(this.#skew / 60_000)} minutes`;
    const findings: LastmodFinding[] = [];
    const add = (
      code: LastmodFindingCode,
      severity: 'warning' | 'info',
      { count, examples }: Bucket,
      message: string,
    ) => {
      if (count > 0) findings.push({ code, severity, count, message, examples: [...examples] });
    };
    add(
      'lastmod-invalid',
      'warning',
      this.#invalid,
      `${values(this.#invalid.count)} not W3C Datetime (YYYY-MM-DD, or a time with a zone such as 2026-11-24T10:15:00Z)`,
    );
    add(
      'lastmod-future',
      'warning',
      this.#future,
      `${values(this.#future.count)} in the future (more than ${minutes} after the sitemap was read; a date alone: its day has begun in no time zone)`,
    );
    const generation = this.#generationTime.count;
    const writesNow = generation >= this.#withTime * LASTMOD_GENERATION_SHARE;
    add(
      'lastmod-generation-time',
      writesNow ? 'warning' : 'info',
      this.#generationTime,
      writesNow
        ? `${values(generation)} within ${minutes} of when the sitemap was generated or read: it looks like the sitemap writes "now" instead of when each page changed`
        : `${values(generation)} within ${minutes} of when the sitemap was generated or read (of ${this.#withTime} with a time): pages changed just then, or part of the sitemap writes "now"`,
    );
    add(
      'lastmod-older-than-page',
      'warning',
      this.#older,
      `${values(this.#older.count)} older than the page's own Last-Modified: the page changed and the sitemap does not say so`,
    );
    const min = this.#firstHasTime
      ? LASTMOD_IDENTICAL_MIN.withTime
      : LASTMOD_IDENTICAL_MIN.dateOnly;
    if (this.#allSame && this.#withLastmod >= min) {
      add(
        'lastmod-all-identical',
        'warning',
        { count: this.#withLastmod, examples: this.#identical },
        `all ${this.#withLastmod} lastmod values are ${this.#first}: a lastmod that never differs says nothing about which page changed`,
      );
    }
    // A date alone is valid; it is worth a note where a time was at hand: other values of
    // the same sitemap have one, or the page's own Last-Modified gives one.
    if (this.#withTime > 0) {
      add(
        'lastmod-date-only',
        'info',
        this.#dateOnlyAll,
        `${values(this.#dateOnlyAll.count)} ${this.#dateOnlyAll.count === 1 ? 'a date' : 'dates'} without a time, while ${count(this.#withTime, 'other value has', 'other values have')} one: a page that changes twice a day cannot say so`,
      );
    } else {
      add(
        'lastmod-date-only',
        'info',
        this.#dateOnlyPageTime,
        `${values(this.#dateOnlyPageTime.count)} ${this.#dateOnlyPageTime.count === 1 ? 'a date' : 'dates'} without a time, while the page's Last-Modified gives the time`,
      );
    }
    // Warnings first; sort is stable, so each severity keeps the order above.
    findings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'warning' ? -1 : 1));
    return {
      findings,
      entries: this.#entries,
      withLastmod: this.#withLastmod,
      withTime: this.#withTime,
      dateOnly: this.#dateOnlyAll.count,
      now: this.#now,
    };
  }
}

/**
 * The lastmod checks over a list of entries: values that are not W3C Datetime, in the
 * future, equal to when the sitemap was generated or read, older than the page's own
 * Last-Modified, all identical, or dates alone where a time was known. Pure: every time it
 * uses comes in `options`. See {@link LastmodSanityCheck} for a stream.
 *
 * @example
 * ```ts
 * const { findings } = checkLastmodSanity(
 *   [
 *     { loc: 'https://example.com/', lastmod: '2030-01-01' },
 *     { loc: 'https://example.com/a', lastmod: '2026-11-24T10:15:00Z' },
 *   ],
 *   { readAt: Date.parse('2026-11-24T10:16:00Z') },
 * );
 * // lastmod-future (/), lastmod-generation-time (/a), lastmod-date-only (/)
 * ```
 */
export function checkLastmodSanity(
  entries: Iterable<LastmodEntry>,
  options: LastmodSanityOptions = {},
): LastmodSanity {
  const check = new LastmodSanityCheck(options);
  for (const entry of entries) check.add(entry);
  return check.result();
}

function bucket(): Bucket {
  return { count: 0, examples: [] };
}

function list(times: number | readonly number[] | undefined): number[] {
  if (times === undefined) return [];
  return (typeof times === 'number' ? [times] : [...times]).filter(Number.isFinite);
}

function pageTime(value: string | number | null | undefined): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** Whether some value of the sorted `times` lies within `tolerance` of `at` (binary search). */
function nearAny(times: readonly number[], at: number, tolerance: number): boolean {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] as number) < at - tolerance) low = middle + 1;
    else high = middle;
  }
  const candidate = times[low];
  return candidate !== undefined && candidate <= at + tolerance;
}

function values(n: number): string {
  return n === 1 ? '1 lastmod value is' : `${n} lastmod values are`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
