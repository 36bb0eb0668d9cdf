import type { Diagnostic } from '../shared/diagnostic.ts';
import { DiagnosticLog } from './internal/diagnostic-log.ts';
import { type GroupAgents, groupAgents, RuleSelection } from './internal/rule-selection.ts';
import { type GroupHead, RULE_FIELDS, RuleStore } from './internal/rule-store.ts';
import { firstMatch } from './internal/rule-trie.ts';
import { pathForMatching } from './internal/url-path.ts';
import type {
  RobotsExplanation,
  RobotsGroup,
  RobotsPolicy,
  RobotsPolicyGroup,
  RobotsSource,
  RobotsUsage,
  UsagePreference,
} from './types.ts';
import { combineUsage } from './usage-statement.ts';

/**
 * `groups` is defined on each instance with this one getter (so that every RobotsTxt keeps
 * one shape): own and enumerable like the field it was, for `Object.keys`, spreading and
 * `JSON.stringify`. Its getter is set in the class's static block, which can read `#store`.
 */
const GROUPS_PROPERTY: PropertyDescriptor = { enumerable: true, configurable: false };

/** `diagnostics`, likewise: made from the parser's {@link DiagnosticLog} on first read. */
const DIAGNOSTICS_PROPERTY: PropertyDescriptor = { enumerable: true, configurable: false };

const NO_EFFECTIVE: RobotsUsage['effective'] = { 'content-usage': {}, 'content-signal': {} };

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
  // Own enumerable properties, in this order, as fields would be (they are set in the
  // constructor; `groups` and `diagnostics` are made on first read: see RuleStore and
  // DiagnosticLog).
  /** Groups in file order, duplicates not merged (merging happens when matching). */
  declare readonly groups: readonly RobotsGroup[];
  /**
   * `Content-Usage` / `Content-Signal` lines before any User-agent line: they belong to no
   * group and so apply to no crawler (a `usage-outside-group` warning says so), but are kept.
   */
  declare readonly usageOutsideGroups: readonly UsagePreference[];
  /** `Sitemap:` URLs in file order, absolute, without duplicates. */
  declare readonly sitemaps: readonly string[];
  /** Problems found while reading, in line order. */
  declare readonly diagnostics: readonly Diagnostic[];
  /** A file, or one of RFC 9309's outcomes for a robots.txt that could not be had. */
  declare readonly source: RobotsSource;

  /** The groups' rules, kept as numbers until someone reads `groups`. */
  readonly #store: RuleStore;
  /** `diagnostics` once made; until then they are facts in `#diagnosticLog`. */
  #diagnostics: readonly Diagnostic[] | null;
  #diagnosticLog: DiagnosticLog | null;
  #selections: Map<string, RuleSelection> | null = null;
  #lastAgent = '';
  #lastSelection: RuleSelection | null = null;

  /** @internal Use {@link parseRobots} or {@link robotsForStatus}. */
  constructor(init: {
    /** The groups as the parser keeps them. */
    store?: RuleStore;
    /** The groups as objects, when there is no `store`; none when neither is given. */
    groups?: readonly RobotsGroup[];
    /** Ignored: how each group is selected is worked out from `store` or `groups`. */
    agents?: readonly GroupAgents[];
    usageOutsideGroups?: readonly UsagePreference[];
    sitemaps: readonly string[];
    /** The diagnostics, or the parser's facts to make them from when first read. */
    diagnostics: readonly Diagnostic[] | DiagnosticLog;
    source: RobotsSource;
  }) {
    Object.defineProperty(this, 'groups', GROUPS_PROPERTY);
    this.#store = init.store ?? storeOf(init.groups ?? []);
    this.usageOutsideGroups = init.usageOutsideGroups ?? [];
    this.sitemaps = init.sitemaps;
    Object.defineProperty(this, 'diagnostics', DIAGNOSTICS_PROPERTY);
    const diagnostics = init.diagnostics;
    const log = diagnostics instanceof DiagnosticLog;
    this.#diagnostics = log ? null : diagnostics;
    this.#diagnosticLog = log ? diagnostics : null;
    this.source = init.source;
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
    // Repeated checks go straight to the built matcher (this keeps it inlined here).
    const trie = selection.trie;
    if (trie === null) return selection.allows(path);
    const rule = firstMatch(trie, path);
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
    const decisive = selection.match(path);
    if (decisive !== null) {
      return {
        ...base,
        allowed: decisive.allow,
        reason: 'rule',
        rule: decisive.rule,
        group: this.#groupRef(decisive.group),
      };
    }
    const group = selection.group;
    if (group < 0) return { ...base, allowed: true, reason: 'no-matching-group' };
    return { ...base, allowed: true, reason: 'no-matching-rule', group: this.#groupRef(group) };
  }

  /**
   * The usage preferences (`Content-Usage`, `Content-Signal`) that apply to `url` for
   * `userAgent`, as draft-ietf-aipref-attach-05 section 3.1 says: from the group that decides
   * access (the same selection as {@link RobotsTxt.isAllowed}), the line whose path is the
   * longest match, per field; and only when the URL may be crawled, since no preferences
   * are implied for disallowed URLs (`reason: 'disallowed'`). Each line says where it is.
   *
   * @example
   * ```ts
   * const robots = parseRobots(
   *   'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n',
   * );
   * robots.usage('https://example.com/ai-ok/test', 'bot').effective['content-usage']; // { 'train-ai': 'y' }
   * robots.usage('https://example.com/never/test', 'bot').reason; // 'disallowed'
   * ```
   */
  usage(url: string, userAgent: string): RobotsUsage {
    const access = this.explain(url, userAgent);
    const base = {
      path: access.path,
      userAgent,
      allowed: access.allowed,
      preferences: [],
      effective: NO_EFFECTIVE,
      group: access.group,
    };
    if (this.source !== 'file') return { ...base, reason: this.source };
    if (!access.allowed) return { ...base, reason: 'disallowed' };
    const selection = this.#select(userAgent);
    const group = selection.group;
    const lines = selection.usage(access.path);
    const groupRef = group < 0 ? null : this.#groupRef(group);
    if (lines.length === 0) return { ...base, group: groupRef, reason: 'no-preferences' };
    const statements = (field: UsagePreference['field']) =>
      lines.filter((line) => line.field === field).map((line) => line.preferences);
    return {
      ...base,
      group: groupRef,
      reason: 'preferences',
      preferences: lines,
      effective: {
        'content-usage': combineUsage('content-usage', statements('content-usage')),
        'content-signal': combineUsage('content-signal', statements('content-signal')),
      },
    };
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
   * Groups without rules or usage lines are left out: they cannot be written back on their
   * own. A group with usage lines but no rules (only ever the last group: a rule-less group
   * runs on into the next user-agent lines) gets `Disallow:` (allow everything), which decides
   * exactly as no rules do. Usage lines outside any group are not part of the policy.
   *
   * @example
   * ```ts
   * formatRobots(parseRobots(text).toPolicy()); // a clean copy of the rules in `text`
   * ```
   */
  toPolicy(): RobotsPolicy {
    return {
      groups: this.groups
        .filter((group) => group.rules.length > 0 || group.usage.length > 0)
        .map(policyGroup),
      sitemaps: [...this.sitemaps],
    };
  }

  /** Keyed by the caller's string as given, so a repeated check does no string work. */
  #select(userAgent: string): RuleSelection {
    const last = this.#lastSelection;
    if (last !== null && userAgent === this.#lastAgent) return last;
    return this.#selections?.get(userAgent) ?? this.#newSelection(userAgent);
  }

  #newSelection(userAgent: string): RuleSelection {
    const selection = new RuleSelection(this.#store, userAgent);
    const last = this.#lastSelection;
    if (last === null) {
      // Most callers ask for one agent only: that costs no map.
      this.#lastAgent = userAgent;
      this.#lastSelection = selection;
      return selection;
    }
    this.#selections ??= new Map([[this.#lastAgent, last]]);
    if (this.#selections.size >= SELECTION_CACHE_SIZE) this.#selections.clear();
    this.#selections.set(userAgent, selection);
    return selection;
  }

  #groupRef(index: number): { userAgents: readonly string[]; line: number } {
    const group = this.#store.heads[index] as GroupHead;
    return { userAgents: group.userAgents, line: group.line };
  }

  static {
    GROUPS_PROPERTY.get = function groups(this: RobotsTxt) {
      return this.#store.groups();
    };
    DIAGNOSTICS_PROPERTY.get = function diagnostics(this: RobotsTxt) {
      if (this.#diagnostics === null) {
        this.#diagnostics = (this.#diagnosticLog as DiagnosticLog).build();
        this.#diagnosticLog = null;
      }
      return this.#diagnostics;
    };
  }
}

/** A store holding `groups` (the same objects) with every pattern kept as a string. */
function storeOf(groups: readonly RobotsGroup[]): RuleStore {
  const data: number[] = [];
  const patterns: string[] = [];
  const heads: GroupHead[] = [];
  for (const group of groups) {
    const ruleFrom = data.length / RULE_FIELDS;
    for (const rule of group.rules) {
      data.push(patterns.length, -1, rule.line, rule.directive === 'allow' ? 1 : 0);
      patterns.push(rule.pattern);
    }
    const ruleTo = data.length / RULE_FIELDS;
    heads.push({ ...groupAgents(group), ...group, ruleFrom, ruleTo });
  }
  return new RuleStore('', data, patterns, heads, groups as RobotsGroup[]);
}

function policyGroup(group: RobotsGroup): RobotsPolicyGroup {
  const rules = group.rules.map(({ directive, pattern }) => ({ directive, pattern }));
  return {
    userAgents: [...group.userAgents],
    rules: rules.length > 0 ? rules : [{ directive: 'disallow', pattern: '' }],
    ...(group.crawlDelay === null ? {} : { crawlDelay: group.crawlDelay }),
    ...(group.usage.length === 0
      ? {}
      : {
          usage: group.usage.map(({ field, path, value }) =>
            path === null ? { field, value } : { field, path, value },
          ),
        }),
  };
}
