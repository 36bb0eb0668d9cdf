import type { Diagnostic } from '../shared/diagnostic.ts';

/** What one line of a robots.txt is. */
export type RobotsLineKind =
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'sitemap'
  /** An AI usage preference line (draft-ietf-aipref-attach); Google ignores it. */
  | 'content-usage'
  /** Cloudflare's Content Signals line (`Content-Signal: search=yes, ai-train=no`); Google ignores it. */
  | 'content-signal'
  /** A directive other crawlers use and Google ignores (`Crawl-delay`, `Host`, `Noindex`, ...). */
  | 'unsupported'
  /** A `key: value` line with a key nobody defines (`Unicorns: /extinct`). */
  | 'unknown'
  | 'empty'
  | 'comment'
  /** Text that is not a `key: value` line at all. */
  | 'invalid';

/** One line as the parser read it: the lint-level view of a robots.txt. */
export interface RobotsLine {
  /** 1-based line number (CR, LF and CRLF each end a line). */
  readonly line: number;
  readonly kind: RobotsLineKind;
  /** The key as written, trimmed; `''` for empty, comment and invalid lines. */
  readonly key: string;
  /** The value as written, comment removed and trimmed; decoded as UTF-8. */
  readonly value: string;
  /**
   * For allow and disallow: the value percent-normalised as it is matched. For content-usage
   * and content-signal lines: the path before the statement, normalised the same way, or
   * null when the line has no path (its value does not start with `/`).
   */
  readonly pattern: string | null;
  /** The key was accepted only as a known misspelling (`disalow`, `useragent`, `site-map`). */
  readonly typo: boolean;
  /** A space stood where the colon belongs (`Disallow /x`); accepted as Google does. */
  readonly missingColon: boolean;
  /** The line has a `#` comment (possibly after a directive). */
  readonly hasComment: boolean;
  /** The line was longer than 16,663 bytes; the rest of it was ignored. */
  readonly tooLong: boolean;
  /** The line's bytes are not valid UTF-8 (they are matched as percent-escapes). */
  readonly invalidUtf8: boolean;
}

export type RobotsDirective = 'allow' | 'disallow';

/** An allow or disallow rule of a group. */
export interface RobotsRule {
  readonly directive: RobotsDirective;
  /** The path pattern, percent-normalised (`/caf%C3%A9`); `*` and a final `$` are special. */
  readonly pattern: string;
  readonly line: number;
}

/** A group: the user-agent lines that open it and the rules that follow. */
export interface RobotsGroup {
  /** The user-agent values as written (`*`, `Googlebot`, `Googlebot-Image/1.0`). */
  readonly userAgents: readonly string[];
  readonly rules: readonly RobotsRule[];
  /** The group's first `Crawl-delay`, in seconds; null when it has none. */
  readonly crawlDelay: number | null;
  /** The group's `Content-Usage` and `Content-Signal` lines, in file order. */
  readonly usage: readonly UsagePreference[];
  /** Line of the group's first user-agent line. */
  readonly line: number;
}

/** A usage preference line's field name, lower-cased. */
export type UsageField = 'content-usage' | 'content-signal';

/**
 * One `Content-Usage` or `Content-Signal` line: the preferences a site states for what may
 * be done with content after it is crawled (draft-ietf-aipref-attach-05 section 3, Cloudflare's
 * Content Signals Policy). They apply only to URLs the group's crawlers may crawl.
 */
export interface UsagePreference {
  readonly field: UsageField;
  /**
   * The path the line is limited to, percent-normalised as Allow/Disallow patterns are
   * (`*` and a final `$` are special); null when the line has none and covers every path.
   */
  readonly path: string | null;
  /** The statement as written after the path (`train-ai=n, search=y`). */
  readonly value: string;
  /**
   * Every term whose value is a Token, with that value as written (`{ 'train-ai': 'n' }`),
   * unknown terms included. A term written twice keeps its last value. Empty when the
   * statement is not a valid Structured Fields Dictionary.
   */
  readonly preferences: Readonly<Record<string, string>>;
  /** Terms the field's vocabulary does not define, kept (the vocabulary is still moving). */
  readonly unknownTerms: readonly string[];
  /** The statement is a valid RFC 9651 Dictionary; when false it expresses nothing. */
  readonly valid: boolean;
  readonly line: number;
}

/** Why {@link RobotsTxt.usage} found the preferences it did. */
export type RobotsUsageReason =
  /** The URL may be crawled and at least one usage line applies. */
  | 'preferences'
  /** The URL may be crawled, but no usage line of the agent's group covers it. */
  | 'no-preferences'
  /** The URL may not be crawled: no preferences are implied (draft-ietf-aipref-attach 3.1). */
  | 'disallowed'
  /** robots.txt was unavailable (4xx): everything may be crawled, nothing is stated. */
  | 'unavailable'
  /** robots.txt was unreachable: nothing may be crawled. */
  | 'unreachable';

/** The usage preferences that apply to one URL for one crawler. */
export interface RobotsUsage {
  /** The path, parameters and query that were matched. */
  readonly path: string;
  /** The user agent as given. */
  readonly userAgent: string;
  /** Whether the agent may crawl the URL; preferences only ever apply when it may. */
  readonly allowed: boolean;
  readonly reason: RobotsUsageReason;
  /**
   * The lines that apply: for each field, the line whose path is the longest match (a line
   * without a path matches with length 0). Lines that tie all apply and are combined.
   */
  readonly preferences: readonly UsagePreference[];
  /**
   * The combined statement per field: term -> value, from the lines that apply. Values a
   * term does not define (`train-ai=no`) are left out; where tied lines disagree, the more
   * restrictive value wins (`n` over `y`, `no` over `yes`, `immediate` over `reference`
   * over `full`), as draft-ietf-aipref-vocab combines statements.
   */
  readonly effective: Readonly<Record<UsageField, Readonly<Record<string, string>>>>;
  /** The group the preferences came from (the group that decides access), or null. */
  readonly group: { readonly userAgents: readonly string[]; readonly line: number } | null;
}

/** Where a {@link RobotsTxt} came from (RFC 9309 section 2.3.1). */
export type RobotsSource =
  /** A fetched or given robots.txt body. */
  | 'file'
  /** 4xx: no robots.txt, everything is allowed. */
  | 'unavailable'
  /** 5xx, 429 or network failure: everything is disallowed. */
  | 'unreachable';

/** Why {@link RobotsTxt.explain} decided as it did. */
export type RobotsReason =
  /** A rule matched: `rule` and `group` say which. */
  | 'rule'
  /** A group applies to the agent but none of its rules matches the path. */
  | 'no-matching-rule'
  /** No group names the agent and there is no `*` group. */
  | 'no-matching-group'
  /** robots.txt was unreachable, but `/robots.txt` itself stays allowed (RFC 9309 2.2.2). */
  | 'robots-txt'
  | 'unavailable'
  | 'unreachable';

/** Which line decided, for people debugging a rule. */
export interface RobotsExplanation {
  readonly allowed: boolean;
  readonly reason: RobotsReason;
  readonly rule: RobotsRule | null;
  readonly group: { readonly userAgents: readonly string[]; readonly line: number } | null;
  /** The path, parameters and query that were matched. */
  readonly path: string;
  /** The user agent as given. */
  readonly userAgent: string;
}

/** A robots.txt as data: what {@link formatRobots} writes and `toPolicy()` returns. */
export interface RobotsPolicy {
  readonly groups: readonly RobotsPolicyGroup[];
  readonly sitemaps?: readonly string[];
}

export interface RobotsPolicyGroup {
  /** Product tokens (`Googlebot`, `*`): letters, `-` and `_` only. */
  readonly userAgents: readonly string[];
  /** At least one rule; `{ directive: 'disallow', pattern: '' }` allows everything. */
  readonly rules: readonly { readonly directive: RobotsDirective; readonly pattern: string }[];
  /** Seconds between requests, for crawlers that honour `Crawl-delay` (Google does not). */
  readonly crawlDelay?: number;
  /**
   * `Content-Usage` / `Content-Signal` lines, written after the user-agent lines. `path`
   * (optional) limits a line to URLs it matches; `value` is the statement
   * (`train-ai=n, search=y`).
   */
  readonly usage?: readonly RobotsPolicyUsage[];
}

/** A usage preference line of a {@link RobotsPolicyGroup}. */
export interface RobotsPolicyUsage {
  readonly field: UsageField;
  /** Starts with `/`; percent-normalised as Allow/Disallow patterns are. */
  readonly path?: string;
  readonly value: string;
}

export interface ParseRobotsOptions {
  /** The robots.txt URL: relative `Sitemap:` values are resolved against it. */
  readonly url?: string;
  /**
   * Bytes read before the rest is ignored (with a diagnostic). RFC 9309 asks crawlers to
   * read at least 500 KiB; default 512,000.
   */
  readonly maxBytes?: number;
}

export type { Diagnostic };
