import { ownCopy } from '../../shared/own-copy.ts';
import type { Changefreq, SitemapIndexEntry, SitemapUrl } from '../types.ts';
import type { DiagnosticLog } from './diagnostic-log.ts';
import type { UrlDraft } from './entry-drafts.ts';
import { readLastmod } from './lastmod.ts';
import { clip, plainLocHost, plainLocHref, readLoc, readLocByParser, trimXml } from './loc.ts';
import { isNormalDatetime } from './normal-datetime.ts';
import { CHANGEFREQS, MAX_URL_LENGTH } from './protocol-limits.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);
/** W3C Datetime forms the sitemaps.org XSD rejects: a year, a year and month, a time without seconds. */
const NOT_XSD = /^\d{4}(?:-\d{2})?$|T\d{2}:\d{2}(?:Z|[+-])/;
/**
 * False for a W3C Datetime value NOT_XSD cannot match: a full date, or a time with seconds
 * (W3C values are laid out `YYYY-MM-DDThh:mm`, so the seconds' `:` is at 16). Nearly every
 * lastmod is one of these, and the test is cheaper than the regular expression.
 */
function mayBeNotXsd(w3cValue: string): boolean {
  return w3cValue.length !== 10 && w3cValue.charCodeAt(16) !== 0x3a;
}
/** No line: the entry is from an XML document, reported by offset. */
const NO_LINE = -1;
/** No offset: the entry is a text sitemap's line, reported by line number. */
const NO_OFFSET = -1;
const PRIORITY = /^(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/;

export interface CollectorOptions {
  /** Host of the sitemap's own URL, for the same-host check; null when unknown. */
  readonly host: string | null;
  /** Entries read before reading stops (a gzip bomb of tiny URLs must stop somewhere). */
  readonly maxEntries: number;
  readonly emit: (entry: SitemapUrl | SitemapIndexEntry) => void;
}

/**
 * Turns finished drafts into entries: validates and normalises every field, reports what it
 * has to drop, and enforces the entry cap. One instance per document, shared by the XML and
 * the plain-text readers, so the rules are the same for every kind.
 */
export class EntryCollector {
  count = 0;
  /** Set when the entry cap was reached: the caller stops reading. */
  stopped = false;
  readonly #log: DiagnosticLog;
  readonly #options: CollectorOptions;
  /**
   * The last normal lastmod read, copied: many sitemaps give every entry (or long runs of
   * them) the same one, which then costs a comparison instead of a check and a copy.
   */
  #lastNormalLastmod: string | null = null;

  constructor(log: DiagnosticLog, options: CollectorOptions) {
    this.#log = log;
    this.#options = options;
  }

  /** A date field (lastmod, publication dates): ISO 8601 when readable, else as written. */
  date(raw: string, offset: number): string {
    const reading = readLastmod(raw);
    if (reading.value === null) {
      this.#log.report(
        'warning',
        'invalid-date',
        `date "${clip(trimXml(raw))}" cannot be read (${reading.note ?? 'unknown form'})`,
        offset,
      );
      return ownCopy(trimXml(raw));
    }
    if (!reading.w3c)
      this.#log.report(
        'info',
        'date-not-w3c',
        `date "${clip(trimXml(raw))}" is not W3C Datetime; read as ${reading.value} (${reading.note})`,
        offset,
      );
    return ownCopy(reading.value);
  }

  lastmod(draft: UrlDraft, raw: string, offset: number): void {
    // Nearly every lastmod is already normal: kept as written, with nothing to report (a
    // normal value is a full date or has seconds, so `lastmod-not-xsd` cannot apply).
    const trimmed = trimXml(raw);
    const last = this.#lastNormalLastmod;
    // The day's last digit first: two different dates mostly differ there, and comparing one
    // character is cheaper than comparing strings (a whole comparison cost 3% of a read).
    if (
      last !== null &&
      trimmed.charCodeAt(9) === last.charCodeAt(9) &&
      trimmed.length === last.length &&
      trimmed === last
    ) {
      draft.lastmod = last;
      return;
    }
    if (isNormalDatetime(trimmed)) {
      // Copied, as every value an entry holds: a slice would keep its chunk of the document.
      this.#lastNormalLastmod = ownCopy(trimmed);
      draft.lastmod = this.#lastNormalLastmod;
      return;
    }
    const reading = readLastmod(raw);
    if (reading.value !== null) {
      draft.lastmod = ownCopy(reading.value);
      if (reading.w3c && mayBeNotXsd(reading.value) && NOT_XSD.test(reading.value)) {
        this.#log.report(
          'info',
          'lastmod-not-xsd',
          `lastmod "${reading.value}" is W3C Datetime but not an XML Schema date or dateTime, so the schema rejects it`,
          offset,
        );
      }
      if (!reading.w3c) {
        this.#log.report(
          'info',
          'lastmod-not-w3c',
          `lastmod "${clip(trimXml(raw))}" is not W3C Datetime; read as ${reading.value} (${reading.note})`,
          offset,
        );
      }
    } else if (trimXml(raw).length > 0) {
      this.#log.report(
        'warning',
        'invalid-lastmod',
        `lastmod "${clip(trimXml(raw))}" cannot be read (${reading.note ?? 'unknown form'}); left out`,
        offset,
      );
    }
  }

  changefreq(draft: UrlDraft, raw: string, offset: number): void {
    const value = trimXml(raw).toLowerCase();
    if (CHANGEFREQ_SET.has(value)) draft.changefreq = value;
    else
      this.#log.report(
        'warning',
        'invalid-changefreq',
        `changefreq "${clip(trimXml(raw))}" is not one of ${CHANGEFREQS.join(', ')}; left out`,
        offset,
      );
  }

  priority(draft: UrlDraft, raw: string, offset: number): void {
    const value = trimXml(raw);
    if (PRIORITY.test(value)) draft.priority = Number(value);
    else
      this.#log.report(
        'warning',
        'invalid-priority',
        `priority "${clip(value)}" is not a number from 0.0 to 1.0; left out`,
        offset,
      );
  }

  url(draft: UrlDraft, element: string): void {
    const loc = this.#loc(draft, element);
    if (loc === null) return;
    // Built field by field rather than with spreads: this runs once per URL, millions of times.
    // With its lastmod in the literal, the usual entry needs no extra property storage.
    const entry: Mutable<SitemapUrl> =
      draft.lastmod === undefined ? { loc } : { loc, lastmod: draft.lastmod };
    if (draft.changefreq !== undefined) entry.changefreq = draft.changefreq as Changefreq;
    if (draft.priority !== undefined) entry.priority = draft.priority;
    if (draft.alternates !== undefined) entry.alternates = draft.alternates;
    if (draft.images !== undefined) entry.images = draft.images;
    if (draft.videos !== undefined) entry.videos = draft.videos;
    if (draft.news !== undefined) entry.news = draft.news;
    this.#emit(entry, draft.offset);
  }

  index(draft: UrlDraft): void {
    const loc = this.#loc(draft, 'sitemap');
    if (loc === null) return;
    this.#emit(
      draft.lastmod === undefined ? { loc } : { loc, lastmod: draft.lastmod },
      draft.offset,
    );
  }

  /** A plain-text sitemap line, already split off; reported by line number. */
  textLine(raw: string, line: number): void {
    const text = trimXml(raw);
    if (text.length === 0) return;
    if (/\s/.test(text)) {
      this.#log.reportAt(
        'warning',
        'invalid-line',
        `line holds more than one word ("${clip(text, 60)}"); ignored`,
        line,
      );
      return;
    }
    const loc = readLoc(text);
    if (!loc.ok) {
      this.#log.reportAt('warning', loc.code, loc.message.replace('<loc>', 'line'), line);
      return;
    }
    this.#checkLoc(loc.href, loc.host, NO_OFFSET, line);
    this.#count({ loc: loc.href }, NO_OFFSET, line);
  }

  #loc(draft: UrlDraft, element: string): string | null {
    if (draft.loc === null) {
      this.#log.report(
        'warning',
        'missing-loc',
        `<${element}> without ${element === 'entry' ? 'a link' : element === 'item' ? '<link> or a permalink <guid> URL' : '<loc>'}; skipped`,
        draft.offset,
      );
      return null;
    }
    // The usual loc without a reading object, and its host only when it is compared.
    const plain = plainLocHref(draft.loc);
    if (plain !== null) {
      this.#checkLoc(
        plain,
        this.#options.host === null ? '' : plainLocHost(plain),
        draft.offset,
        NO_LINE,
      );
      return plain;
    }
    const loc = readLocByParser(trimXml(draft.loc));
    if (!loc.ok) {
      this.#log.report('warning', loc.code, loc.message, draft.offset);
      return null;
    }
    this.#checkLoc(loc.href, loc.host, draft.offset, NO_LINE);
    return loc.href;
  }

  /**
   * Protocol checks that keep the entry but warn: length and host. Reported at `offset` in
   * an XML document, or at `line` of a text sitemap (the other one is NO_OFFSET / NO_LINE).
   * Positions are passed as numbers, not as an object and a closure: this runs per entry.
   */
  #checkLoc(href: string, locHost: string, offset: number, line: number): void {
    if (href.length > MAX_URL_LENGTH)
      this.#warn(
        'loc-too-long',
        `URL is ${href.length} characters, over the protocol's ${MAX_URL_LENGTH}`,
        offset,
        line,
      );
    const host = this.#options.host;
    if (host !== null && locHost !== host) {
      this.#warn(
        'cross-host-loc',
        `${clip(href)} is not on the sitemap's host ${host}; search engines ignore it unless cross-submission is allowed`,
        offset,
        line,
      );
    }
  }

  #warn(code: string, message: string, offset: number, line: number): void {
    if (line === NO_LINE) this.#log.report('warning', code, message, offset);
    else this.#log.reportAt('warning', code, message, line);
  }

  #emit(entry: SitemapUrl | SitemapIndexEntry, offset: number): void {
    this.#count(entry, offset, NO_LINE);
  }

  #count(entry: SitemapUrl | SitemapIndexEntry, offset: number, line: number): void {
    if (this.stopped) return;
    if (this.count >= this.#options.maxEntries) {
      this.stopped = true;
      if (line === NO_LINE)
        this.#log.report('error', 'too-many-entries', this.#capMessage(), offset);
      else this.#log.reportAt('error', 'too-many-entries', this.#capMessage(), line);
      return;
    }
    this.count++;
    this.#options.emit(entry);
  }

  #capMessage(): string {
    return `more than ${this.#options.maxEntries} entries; reading stopped (maxEntries)`;
  }
}
