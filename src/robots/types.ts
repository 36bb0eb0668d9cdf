import type { Diagnostic } from '../shared/diagnostic.ts';

/** What one line of a robots.txt is. */
export type RobotsLineKind =
  | 'user-agent'
  | 'allow'
  | 'disallow'
  | 'sitemap'
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
  /** For allow and disallow: the value percent-normalised as it is matched. */
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
  /** Line of the group's first user-agent line. */
  readonly line: number;
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
