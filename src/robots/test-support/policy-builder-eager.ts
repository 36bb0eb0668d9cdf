// The parser's builder as it was before diagnostics were recorded as facts and built on first
// read (verbatim but for import paths and the class name): the eager twin that
// internal/diagnostic-log.test.ts holds the lazy diagnostics to.

import type { Diagnostic, Severity } from '../../shared/diagnostic.ts';
import { isDecimal } from '../internal/crawl-delay.ts';
import { CANONICAL_KEY } from '../internal/directive-key.ts';
import type { LineCursor } from '../internal/line-cursor.ts';
import { notRobotsText } from '../internal/policy-builder.ts';
import { readRobotsText } from '../internal/robots-text.ts';
import { type GroupHead, RULE_FIELDS, RuleStore } from '../internal/rule-store.ts';
import { lineRecord, MAX_LINE_BYTES, scanLines } from '../internal/scan-lines.ts';
import { readBase, sitemapUrl } from '../internal/sitemap-line.ts';
import { readUsageLine } from '../internal/usage-line.ts';
import { isGlobalUserAgent, productToken } from '../internal/user-agent.ts';
import { DEFAULT_MAX_ROBOTS_BYTES } from '../parse-robots.ts';
import { RobotsTxt } from '../robots-txt.ts';
import type { ParseRobotsOptions, UsagePreference } from '../types.ts';

interface OpenGroup extends GroupHead {
  userAgents: string[];
  tokens: string[];
  global: boolean;
  ruleTo: number;
  crawlDelay: number | null;
  usage: UsagePreference[];
}

/** Turns scanned lines into groups, following RFC 9309 section 2.1 and Google's parser. */
export class EagerPolicyBuilder {
  readonly #base: string | undefined;
  /** The base's origin when the base is a plain http(s) URL, for `/path` sitemaps. */
  readonly #origin: string | null;
  readonly #groups: OpenGroup[] = [];
  /** The text lines are read from: rule patterns are kept as offsets into it. */
  #text = '';
  /** Per rule, the numbers of a {@link RuleStore}. */
  readonly #rules: number[] = [];
  /** Patterns that are not a plain slice of the text. */
  readonly #patterns: string[] = [];
  readonly #sitemaps: string[] = [];
  /** Made once a file has many sitemaps; a few are compared directly. */
  #seenSitemaps: Set<string> | null = null;
  readonly #diagnostics: Diagnostic[] = [];
  readonly #strayUsage: UsagePreference[] = [];
  #current: OpenGroup | null = null;
  #currentHasRules = false;
  /** Line of a usage line read since the last user-agent line, while the group has no rules. */
  #usageBeforeRules: number | null = null;
  #notRobotsText = false;
  /** Each char of the text is one byte: how the store normalises the values it keeps raw. */
  #bytesAsChars = false;

  constructor(base: string | undefined) {
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

  info(line: number, code: string, message: string, column = 1): void {
    this.#report('info', line, code, message, column);
  }

  #report(severity: Severity, line: number, code: string, message: string, column: number): void {
    // In an HTML page or a UTF-16 file every line is wrong in some way; the one error that
    // says what the document is (added by checkDocument) says it all.
    if (this.#notRobotsText) return;
    this.#diagnostics.push({ code, severity, message, line, column });
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
    const problem = notRobotsText(text);
    if (problem === null) return;
    this.error(1, problem.code, problem.message);
    this.#notRobotsText = true;
  }

  add(line: LineCursor): void {
    if (line.invalidUtf8) {
      this.warning(
        line.line,
        'invalid-utf8',
        'line is not valid UTF-8; its bytes are matched as percent-escapes',
      );
    }
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
        if (!this.#notRobotsText) {
          this.warning(
            line.line,
            'unknown-directive',
            `unknown directive "${line.key()}"; ignored`,
          );
        }
        return;
      case 'invalid':
        this.error(line.line, 'invalid-line', 'line is not a "key: value" directive; ignored');
        return;
      default:
        return;
    }
  }

  #lineDiagnostics(line: LineCursor): void {
    if (line.tooLong) {
      this.warning(
        line.line,
        'line-too-long',
        `line is longer than ${MAX_LINE_BYTES} bytes; the rest of it is ignored`,
        MAX_LINE_BYTES + 1,
      );
    }
    if (line.typo) {
      const canonical = CANONICAL_KEY[line.kind as keyof typeof CANONICAL_KEY];
      this.warning(
        line.line,
        'misspelled-directive',
        `"${line.key()}" is a misspelling of "${canonical}"; Google accepts it, other crawlers may not`,
      );
    }
    if (line.missingColon) {
      this.warning(
        line.line,
        'missing-colon',
        `"${line.key()}" is not followed by a colon; Google accepts it, other crawlers may not`,
      );
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
      const ruleFrom = this.#rules.length / RULE_FIELDS;
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
    if (token.length === 0) {
      this.warning(
        line.line,
        'invalid-user-agent',
        `user-agent "${value}" has no product token (letters, "-" and "_"); it matches no crawler`,
      );
    } else if (token !== value) {
      this.warning(
        line.line,
        'user-agent-not-token',
        `user-agent "${value}" is matched as its product token "${token}"`,
      );
    }
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
    let empty: boolean;
    if (line.text === this.#text) {
      // The value is its own pattern: kept as offsets, made a string only when needed. A
      // value to be percent-normalised is kept as offsets too (end as -2 - end) and
      // normalised when its rule is first read: most checks never read most groups.
      rules.push(line.valueStart, line.plain ? line.valueEnd : -2 - line.valueEnd);
      empty = line.valueEnd === line.valueStart;
      this.#bytesAsChars = line.bytesAsChars;
    } else {
      const pattern = line.pattern() ?? '';
      rules.push(this.#patterns.length, -1);
      this.#patterns.push(pattern);
      empty = pattern.length === 0;
    }
    rules.push(line.line, directive === 'allow' ? 1 : 0);
    this.#current.ruleTo++;
    this.#currentHasRules = true;
    this.#usageBeforeRules = null;
    // The value's own first char decides as the pattern's would (a non-ASCII char or `%`
    // becomes `%`), without reading an escaped pattern that may not be flat yet.
    const first = line.valueFirstChar();
    if (!empty && first !== 0x2f && first !== 0x2a) {
      this.error(
        line.line,
        'pattern-not-path',
        `pattern "${line.value()}" does not start with "/" or "*", so it never matches a URL path`,
      );
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
    if (url.relative) {
      this.warning(
        line.line,
        'relative-sitemap-url',
        `sitemap "${value}" is relative; read as ${url.href}`,
      );
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
      this.info(
        line.line,
        'unsupported-directive',
        `"${line.key()}" is not part of RFC 9309 and Google ignores it`,
      );
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
    this.info(
      line.line,
      'unsupported-directive',
      '"Crawl-delay" is not part of RFC 9309 and Google ignores it (Bing and Yandex honour it)',
    );
    if (this.#current.crawlDelay === null) this.#current.crawlDelay = seconds;
    else
      this.warning(
        line.line,
        'duplicate-crawl-delay',
        'the group already has a Crawl-delay; this one is ignored',
      );
  }

  build(): RobotsTxt {
    // Nearly always already in line order (a stable sort would change nothing then).
    if (!inLineOrder(this.#diagnostics)) this.#diagnostics.sort((a, b) => a.line - b.line);
    return new RobotsTxt({
      store: new RuleStore(
        this.#text,
        exactSize(this.#rules),
        this.#patterns,
        this.#groups,
        null,
        this.#bytesAsChars,
      ),
      usageOutsideGroups: this.#strayUsage,
      sitemaps: this.#sitemaps,
      diagnostics: this.#diagnostics,
      source: 'file',
    });
  }
}

/** Sitemaps a file may list before duplicates are looked up in a set. */
const FEW_SITEMAPS = 16;

/**
 * A long array grown by push has up to half its room unused, which the result would keep
 * (and the garbage collector copy) for as long as it lives: a copy is exactly as long.
 */
function exactSize(numbers: number[]): number[] {
  return numbers.length >= 64 ? numbers.slice() : numbers;
}

function inLineOrder(diagnostics: readonly Diagnostic[]): boolean {
  for (let i = 1; i < diagnostics.length; i++) {
    if ((diagnostics[i] as Diagnostic).line < (diagnostics[i - 1] as Diagnostic).line) return false;
  }
  return true;
}

/** `parseRobots` as it was, on the eager builder. */
export function parseRobotsEager(
  input: string | Uint8Array,
  options: ParseRobotsOptions = {},
): RobotsTxt {
  const maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_MAX_ROBOTS_BYTES);
  const builder = new EagerPolicyBuilder(options.url);
  const { text, bytesAsChars, cut } = readRobotsText(input, maxBytes);
  if (cut !== null) {
    builder.warning(
      1,
      'size-limit',
      `robots.txt is ${cut.size} bytes; only the first ${cut.read} (whole lines within ${maxBytes}) are read`,
    );
  }
  builder.checkDocument(text);
  scanLines(text, bytesAsChars, builder, builder.isNotRobotsText);
  return builder.build();
}
