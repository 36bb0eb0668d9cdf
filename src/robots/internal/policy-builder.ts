import type { Severity } from '../../shared/diagnostic.ts';
import { RobotsTxt } from '../robots-txt.ts';
import type { UsagePreference } from '../types.ts';
import { isDecimal } from './crawl-delay.ts';
import { DiagnosticKind, DiagnosticLog, MISSPELLED_KEYS } from './diagnostic-log.ts';
import { CANONICAL_KEY } from './directive-key.ts';
import { looksLikeHtml } from './html-page.ts';
import type { LineCursor } from './line-cursor.ts';
import { type GroupHead, RULE_FIELDS, RuleStore } from './rule-store.ts';
import { lineRecord } from './scan-lines.ts';
import { readBase, sitemapUrl } from './sitemap-line.ts';
import { readUsageLine } from './usage-line.ts';
import { isGlobalUserAgent, productToken } from './user-agent.ts';
import { looksLikeUtf16 } from './utf16-text.ts';

/** The errors of {@link PolicyBuilder.checkDocument}: the file is not robots.txt text. */
const HTML_DOCUMENT = {
  code: 'html-document',
  message: 'this is an HTML or XML document, not a robots.txt; it contains no usable rules',
};
const UTF16_DOCUMENT = {
  code: 'utf16-document',
  message:
    'this file is UTF-16 text; crawlers read robots.txt as UTF-8 and find no rules in it: save it as UTF-8',
};

/** The error saying the text is no robots.txt (an HTML page, UTF-16), or null when it may be one. */
export function notRobotsText(text: string): { code: string; message: string } | null {
  if (looksLikeHtml(text)) return HTML_DOCUMENT;
  return looksLikeUtf16(text) ? UTF16_DOCUMENT : null;
}

interface OpenGroup extends GroupHead {
  userAgents: string[];
  tokens: string[];
  global: boolean;
  ruleTo: number;
  crawlDelay: number | null;
  usage: UsagePreference[];
}

/** Turns scanned lines into groups, following RFC 9309 section 2.1 and Google's parser. */
export class PolicyBuilder {
  readonly #base: string | undefined;
  /** The base's origin when the base is a plain http(s) URL, for `/path` sitemaps. */
  readonly #origin: string | null;
  readonly #groups: OpenGroup[] = [];
  /** The text lines are read from: rule patterns are kept as offsets into it. */
  #text = '';
  /**
   * Per rule, the numbers of a {@link RuleStore}: the first `#rulesLength` of a reused array
   * (see {@link spareRules}), copied out at the end.
   */
  readonly #rules: number[];
  #rulesLength = 0;
  /** Patterns that are not a plain slice of the text. */
  readonly #patterns: string[] = [];
  readonly #sitemaps: string[] = [];
  /** Made once a file has many sitemaps; a few are compared directly. */
  #seenSitemaps: Set<string> | null = null;
  /** Diagnostics as facts: their messages are made when `diagnostics` is first read. */
  readonly #log = new DiagnosticLog();
  readonly #strayUsage: UsagePreference[] = [];
  #current: OpenGroup | null = null;
  #currentHasRules = false;
  /** Line of a usage line read since the last user-agent line, while the group has no rules. */
  #usageBeforeRules: number | null = null;
  #notRobotsText = false;
  /** Each char of the text is one byte: how the store normalises the values it keeps raw. */
  #bytesAsChars = false;

  constructor(base: string | undefined) {
    this.#rules = spareRules ?? [];
    spareRules = null;
    const read = base === undefined ? null : readBase(base);
    this.#base = read?.valid === true ? base : undefined;
    this.#origin = read?.origin ?? null;
    if (base !== undefined && this.#base === undefined) {
      this.warning(
        1,
        'invalid-base-url',
        `the robots.txt URL "${base}" is not a valid URL; relative sitemap URLs cannot be resolved`,
      );
    }
  }

  error(line: number, code: string, message: string, column = 1): void {
    this.#report('error', line, code, message, column);
  }

  warning(line: number, code: string, message: string, column = 1): void {
    this.#report('warning', line, code, message, column);
  }

  #report(severity: Severity, line: number, code: string, message: string, column: number): void {
    // In an HTML page or a UTF-16 file every line is wrong in some way; the one error that
    // says what the document is (added by checkDocument) says it all.
    if (this.#notRobotsText) return;
    this.#log.add({ code, severity, message, line, column });
  }

  /**
   * The file is an HTML or XML page or UTF-16 text: every diagnostic but the one saying so
   * (`html-document`, `utf16-document`) is dropped.
   */
  get isNotRobotsText(): boolean {
    return this.#notRobotsText;
  }

  /**
   * An HTML error page served as robots.txt, or a file saved as UTF-16, reads as hundreds of
   * invalid lines: say once what it is.
   */
  checkDocument(text: string): void {
    this.#text = text;
    this.#log.text = text;
    const problem = notRobotsText(text);
    if (problem === null) return;
    this.error(1, problem.code, problem.message);
    this.#notRobotsText = true;
  }

  add(line: LineCursor): void {
    if (line.invalidUtf8 && !this.#notRobotsText)
      this.#log.span(DiagnosticKind.invalidUtf8, line.line, 0, 0);
    // In an HTML page or a UTF-16 file only the error saying so is reported: the lines (mostly
    // invalid or unknown) still count, but their messages are not even built.
    if ((line.tooLong || line.typo || line.missingColon) && !this.#notRobotsText) {
      this.#lineDiagnostics(line);
    }
    switch (line.kind) {
      case 'user-agent':
        this.#userAgent(line);
        return;
      case 'allow':
      case 'disallow':
        this.#rule(line);
        return;
      case 'sitemap':
        this.#sitemap(line);
        return;
      case 'content-usage':
      case 'content-signal':
        this.#usage(line);
        return;
      case 'unsupported':
        this.#unsupported(line);
        return;
      case 'unknown':
        this.#keyFact(DiagnosticKind.unknownDirective, line);
        return;
      case 'invalid':
        if (!this.#notRobotsText) this.#log.span(DiagnosticKind.invalidLine, line.line, 0, 0);
        return;
      default:
        return;
    }
  }

  #lineDiagnostics(line: LineCursor): void {
    if (line.tooLong) this.#log.span(DiagnosticKind.lineTooLong, line.line, 0, 0);
    if (line.typo) {
      const misspelled = MISSPELLED_KIND[line.kind as keyof typeof CANONICAL_KEY];
      this.#keyFact(misspelled, line);
    }
    if (line.missingColon) this.#keyFact(DiagnosticKind.missingColon, line);
  }

  /** A diagnostic quoting the line's key, as {@link LineCursor.key} shows it. */
  #keyFact(kind: number, line: LineCursor): void {
    if (this.#notRobotsText) return;
    if (line.text === this.#text && !line.bytesAsChars) {
      this.#log.span(kind, line.line, line.keyStart, line.keyEnd);
    } else {
      this.#log.string(kind, line.line, line.key());
    }
  }

  /** A diagnostic quoting the line's value, as {@link LineCursor.value} shows it. */
  #valueFact(kind: number, line: LineCursor): void {
    if (this.#notRobotsText) return;
    if (line.text === this.#text && (line.plain || !line.bytesAsChars)) {
      this.#log.span(kind, line.line, line.valueStart, line.valueEnd);
    } else {
      this.#log.string(kind, line.line, line.value());
    }
  }

  #userAgent(line: LineCursor): void {
    if (this.#usageBeforeRules !== null) {
      // Google's parser (which decides access here) ignores usage lines, so the user agents
      // around it form one group; a parser reading the attach draft literally, where a usage
      // line is a rule, would start a new group here. Say so rather than pick silently.
      this.warning(
        this.#usageBeforeRules,
        'usage-between-user-agents',
        "usage line between User-agent lines: Google reads the user agents before and after it as one group (and so does waymark), but a crawler that counts it as a rule starts a new group after it; put usage lines after the group's User-agent lines",
      );
      this.#usageBeforeRules = null;
    }
    const value = line.value();
    const global = isGlobalUserAgent(value);
    const token = global ? '' : productToken(value);
    const current = this.#current;
    if (current === null || this.#currentHasRules) {
      const ruleFrom = this.#rulesLength / RULE_FIELDS;
      // Arrays made with their first entry are that size: most groups have one user agent.
      this.#current = {
        userAgents: [value],
        tokens: global ? [] : [token],
        global,
        ruleFrom,
        ruleTo: ruleFrom,
        crawlDelay: null,
        usage: [],
        line: line.line,
      };
      this.#groups.push(this.#current);
      this.#currentHasRules = false;
    } else {
      current.userAgents.push(value);
      if (global) current.global = true;
      else current.tokens.push(token);
    }
    if (global) return;
    if (token.length === 0) this.#valueFact(DiagnosticKind.invalidUserAgent, line);
    else if (token !== value) this.#valueFact(DiagnosticKind.userAgentNotToken, line);
  }

  #rule(line: LineCursor): void {
    const directive = line.kind as 'allow' | 'disallow';
    if (this.#current === null) {
      this.error(
        line.line,
        'rule-outside-group',
        `${CANONICAL_KEY[directive]} before any User-agent line; ignored`,
      );
      return;
    }
    const rules = this.#rules;
    const at = this.#rulesLength;
    this.#rulesLength = at + RULE_FIELDS;
    let empty: boolean;
    if (line.text === this.#text) {
      // The value is its own pattern: kept as offsets, made a string only when needed. A
      // value to be percent-normalised is kept as offsets too (end as -2 - end) and
      // normalised when its rule is first read: most checks never read most groups.
      rules[at] = line.valueStart;
      rules[at + 1] = line.plain ? line.valueEnd : -2 - line.valueEnd;
      empty = line.valueEnd === line.valueStart;
      this.#bytesAsChars = line.bytesAsChars;
    } else {
      const pattern = line.pattern() ?? '';
      rules[at] = this.#patterns.length;
      rules[at + 1] = -1;
      this.#patterns.push(pattern);
      empty = pattern.length === 0;
    }
    rules[at + 2] = line.line;
    rules[at + 3] = directive === 'allow' ? 1 : 0;
    this.#current.ruleTo++;
    this.#currentHasRules = true;
    this.#usageBeforeRules = null;
    // The value's own first char decides as the pattern's would (a non-ASCII char or `%`
    // becomes `%`), without reading an escaped pattern that may not be flat yet.
    const first = line.valueFirstChar();
    if (!empty && first !== 0x2f && first !== 0x2a) {
      this.#valueFact(DiagnosticKind.patternNotPath, line);
    }
  }

  #sitemap(line: LineCursor): void {
    const value = line.value();
    if (value.length === 0) {
      this.warning(line.line, 'empty-sitemap', 'Sitemap line has no URL; ignored');
      return;
    }
    const url = sitemapUrl(value, this.#base, this.#origin);
    if ('problem' in url) {
      const why = url.problem === 'not-http' ? 'an http(s)' : 'an absolute';
      this.error(line.line, 'invalid-sitemap-url', `sitemap "${value}" is not ${why} URL; ignored`);
      return;
    }
    if (url.relative && !this.#notRobotsText) {
      // The resolved URL is the string after the value.
      this.#log.string(DiagnosticKind.relativeSitemapUrl, line.line, value);
      this.#log.strings.push(url.href);
    }
    this.#addSitemap(url.href);
  }

  #addSitemap(href: string): void {
    const sitemaps = this.#sitemaps;
    if (sitemaps.length < FEW_SITEMAPS) {
      if (!sitemaps.includes(href)) sitemaps.push(href);
      return;
    }
    this.#seenSitemaps ??= new Set(sitemaps);
    if (this.#seenSitemaps.has(href)) return;
    this.#seenSitemaps.add(href);
    sitemaps.push(href);
  }

  /** A Content-Usage or Content-Signal line: reported, and attached to its group. */
  #usage(line: LineCursor): void {
    const { preference, problems } = readUsageLine(lineRecord(line));
    for (const problem of problems) {
      this.#report(problem.severity, line.line, problem.code, problem.message, 1);
    }
    if (this.#current === null) {
      this.warning(
        line.line,
        'usage-outside-group',
        `${CANONICAL_KEY[preference.field]} before any User-agent line applies to no crawler; kept, but never applied`,
      );
      this.#strayUsage.push(preference);
      return;
    }
    this.#current.usage.push(preference);
    if (!this.#currentHasRules) this.#usageBeforeRules ??= line.line;
  }

  #unsupported(line: LineCursor): void {
    if (!line.crawlDelay) {
      this.#keyFact(DiagnosticKind.unsupportedDirective, line);
      return;
    }
    if (this.#current === null) {
      this.warning(
        line.line,
        'crawl-delay-outside-group',
        'Crawl-delay before any User-agent line; ignored',
      );
      return;
    }
    const value = line.value();
    const seconds = isDecimal(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(seconds)) {
      this.error(
        line.line,
        'invalid-crawl-delay',
        `Crawl-delay "${value}" is not a number of seconds; ignored`,
      );
      return;
    }
    if (!this.#notRobotsText) this.#log.span(DiagnosticKind.unsupportedCrawlDelay, line.line, 0, 0);
    if (this.#current.crawlDelay === null) this.#current.crawlDelay = seconds;
    else
      this.warning(
        line.line,
        'duplicate-crawl-delay',
        'the group already has a Crawl-delay; this one is ignored',
      );
  }

  build(): RobotsTxt {
    const rules = this.#rules;
    // An exact copy: the result keeps no unused room, and the array is the next parse's.
    const data = rules.slice(0, this.#rulesLength);
    if (rules.length <= MAX_SPARE_RULES) spareRules = rules;
    return new RobotsTxt({
      store: new RuleStore(
        this.#text,
        data,
        this.#patterns,
        this.#groups,
        null,
        this.#bytesAsChars,
      ),
      usageOutsideGroups: this.#strayUsage,
      sitemaps: this.#sitemaps,
      diagnostics: this.#log,
      source: 'file',
    });
  }
}

/** Sitemaps a file may list before duplicates are looked up in a set. */
const FEW_SITEMAPS = 16;

/**
 * The rule numbers array of the last parse, written over by the next one: a parse grows no
 * array rule by rule (each growth a copy) and keeps an exact copy (an array grown by push
 * has up to half its room unused, which the result would keep for as long as it lives).
 * Null while a builder holds it; a second builder at the same time makes its own.
 */
let spareRules: number[] | null = [];

/** Rule numbers of a file with more rules than this are not kept for the next parse. */
const MAX_SPARE_RULES = 16_384;

/** The recorded kind of a misspelling of each key. */
const MISSPELLED_KIND = Object.fromEntries(
  MISSPELLED_KEYS.map((key, i) => [key, DiagnosticKind.misspelled + i]),
) as Record<keyof typeof CANONICAL_KEY, number>;
