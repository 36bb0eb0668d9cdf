import type { Diagnostic } from '../shared/diagnostic.ts';
import {
  type CompiledGroup,
  compileGroups,
  firstMatch,
  type RuleSelection,
  selectRules,
} from './internal/rule-selection.ts';
import { pathForMatching } from './internal/url-path.ts';
import type { RobotsExplanation, RobotsGroup, RobotsPolicy, RobotsSource } from './types.ts';

/** Distinct user agents whose rule selection is kept; callers rarely use more than a few. */
const SELECTION_CACHE_SIZE = 64;

/**
 * A parsed robots.txt: answers whether a URL may be crawled, and why. Made by
 * {@link parseRobots} or {@link robotsForStatus}; immutable and safe to share.
 *
 * URLs are matched as given, byte for byte, against percent-normalised patterns, as Google
 * does: pass URLs already percent-encoded, as `new URL(x).href` produces. A raw `é` in a
 * URL will not match a rule written `/é` (which reads as `/%C3%A9`).
 *
 * `/robots.txt` gets no special treatment in a parsed file: Google's spec tests expect
 * `Disallow: /` to cover it. (A crawler fetches robots.txt before asking anything, so this
 * never stops it reading the file.) Only an unreachable robots.txt, which disallows
 * everything, still allows `/robots.txt`, so that it can be fetched again (RFC 9309 2.2.2).
 *
 * @example
 * ```ts
 * const robots = parseRobots('User-agent: *\nDisallow: /private/\n');
 * robots.isAllowed('https://example.com/private/x', 'MyBot'); // false
 * robots.explain('https://example.com/private/x', 'MyBot').rule?.line; // 2
 * ```
 */
export class RobotsTxt {
  /** Groups in file order, duplicates not merged (merging happens when matching). */
  readonly groups: readonly RobotsGroup[];
  /** `Sitemap:` URLs in file order, absolute, without duplicates. */
  readonly sitemaps: readonly string[];
  /** Problems found while reading, in line order. */
  readonly diagnostics: readonly Diagnostic[];
  /** A file, or one of RFC 9309's outcomes for a robots.txt that could not be had. */
  readonly source: RobotsSource;

  readonly #compiled: readonly CompiledGroup[];
  readonly #selections = new Map<string, RuleSelection>();

  /** @internal Use {@link parseRobots} or {@link robotsForStatus}. */
  constructor(init: {
    groups: readonly RobotsGroup[];
    sitemaps: readonly string[];
    diagnostics: readonly Diagnostic[];
    source: RobotsSource;
  }) {
    this.groups = init.groups;
    this.sitemaps = init.sitemaps;
    this.diagnostics = init.diagnostics;
    this.source = init.source;
    this.#compiled = compileGroups(init.groups);
  }

  /**
   * Whether `userAgent` may crawl `url`. `url` is a full URL or a path. `userAgent` is the
   * crawler's product token (`Googlebot`), compared whole and case-insensitively with the
   * tokens of the file's user-agent lines, as Google compares it: pass the token, not the
   * whole User-Agent header (see {@link productToken}).
   *
   * @example
   * ```ts
   * parseRobots('User-agent: *\nDisallow: /\nAllow: /$\n').isAllowed('https://a.example/', 'bot'); // true
   * ```
   */
  isAllowed(url: string, userAgent: string): boolean {
    // The same decision as explain(), without building the explanation: this is the hot path.
    const path = pathForMatching(url);
    if (this.source === 'unavailable') return true;
    if (this.source === 'unreachable') return path === '/robots.txt';
    const selection = this.#select(userAgent);
    const rule = firstMatch(
      selection.specificGroup >= 0 ? selection.specific : selection.global,
      path,
    );
    return rule === null || rule.allow;
  }

  /**
   * The decision for `url` and the line that made it.
   *
   * @example
   * ```ts
   * const why = parseRobots('User-agent: *\nDisallow: /a\nAllow: /a/b\n').explain('/a/b/c', 'bot');
   * // { allowed: true, reason: 'rule', rule: { directive: 'allow', pattern: '/a/b', line: 3 }, ... }
   * ```
   */
  explain(url: string, userAgent: string): RobotsExplanation {
    const path = pathForMatching(url);
    const base = { path, userAgent, rule: null, group: null };
    if (this.source === 'unavailable') return { ...base, allowed: true, reason: 'unavailable' };
    if (this.source === 'unreachable') {
      return path === '/robots.txt'
        ? { ...base, allowed: true, reason: 'robots-txt' }
        : { ...base, allowed: false, reason: 'unreachable' };
    }

    const selection = this.#select(userAgent);
    const useSpecific = selection.specificGroup >= 0;
    const decisive = firstMatch(useSpecific ? selection.specific : selection.global, path);
    if (decisive !== null) {
      return {
        ...base,
        allowed: decisive.allow,
        reason: 'rule',
        rule: decisive.rule,
        group: this.#groupRef(decisive.group),
      };
    }
    const group = useSpecific ? selection.specificGroup : selection.globalGroup;
    if (group < 0) return { ...base, allowed: true, reason: 'no-matching-group' };
    return { ...base, allowed: true, reason: 'no-matching-rule', group: this.#groupRef(group) };
  }

  /**
   * The `Crawl-delay` in seconds for `userAgent`'s group (the first one given), or null.
   * Google ignores `Crawl-delay`; Bing, Yandex and many smaller crawlers honour it.
   *
   * @example
   * ```ts
   * parseRobots('User-agent: *\nCrawl-delay: 2\nDisallow:\n').crawlDelay('bot'); // 2
   * ```
   */
  crawlDelay(userAgent: string): number | null {
    return this.#select(userAgent).crawlDelay;
  }

  /**
   * The groups and sitemaps as plain data, for {@link formatRobots} or for inspection.
   * Groups without rules are left out: they cannot be written back on their own.
   *
   * @example
   * ```ts
   * formatRobots(parseRobots(text).toPolicy()); // a clean copy of the rules in `text`
   * ```
   */
  toPolicy(): RobotsPolicy {
    return {
      groups: this.groups
        .filter((group) => group.rules.length > 0)
        .map((group) => ({
          userAgents: [...group.userAgents],
          rules: group.rules.map(({ directive, pattern }) => ({ directive, pattern })),
          ...(group.crawlDelay === null ? {} : { crawlDelay: group.crawlDelay }),
        })),
      sitemaps: [...this.sitemaps],
    };
  }

  /** Keyed by the caller's string as given, so a repeated check does no string work. */
  #select(userAgent: string): RuleSelection {
    let selection = this.#selections.get(userAgent);
    if (selection === undefined) {
      selection = selectRules(this.#compiled, userAgent);
      if (this.#selections.size >= SELECTION_CACHE_SIZE) this.#selections.clear();
      this.#selections.set(userAgent, selection);
    }
    return selection;
  }

  #groupRef(index: number): { userAgents: readonly string[]; line: number } {
    const group = this.groups[index] as RobotsGroup;
    return { userAgents: group.userAgents, line: group.line };
  }
}
