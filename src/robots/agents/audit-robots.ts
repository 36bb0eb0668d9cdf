import type { Diagnostic } from '../../shared/diagnostic.ts';
import { isGlobalUserAgent, isValidUserAgent, productToken } from '../internal/user-agent.ts';
import type { RobotsTxt } from '../robots-txt.ts';
import type { RobotsExplanation, RobotsGroup, RobotsSource } from '../types.ts';
import {
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  type CrawlerRegistry,
  type KnownCrawler,
} from './crawler-registry.ts';
import { auditFindings } from './internal/audit-findings.ts';
import { KNOWN_CRAWLERS } from './known-crawlers.ts';

/** Options of {@link auditRobots}. */
export interface RobotsAuditOptions {
  /** The crawlers to audit. Default: {@link KNOWN_CRAWLERS}. */
  readonly registry?: CrawlerRegistry;
  /** Paths or URLs checked besides `/` (`/admin/`, `https://example.com/shop?q=1`). */
  readonly paths?: readonly string[];
}

/**
 * How a crawler's decisions were reached: a group names its own token; a group names one
 * of its `fallback` tokens (and none names its own); only the `*` group applies; or no
 * group applies (none matches, or there is no file: see {@link RobotsAudit.source}).
 */
export type CrawlerMatch = 'token' | 'fallback' | 'global' | 'none';

/** May fetch `/` and every audited path, none of them, or some. */
export type CrawlerVerdict = 'allowed' | 'blocked' | 'partial';

/** Every crawler of a purpose allowed, every one blocked, or anything else. */
export type PurposeVerdict = 'all-allowed' | 'all-blocked' | 'mixed';

/** One crawler's result in a {@link RobotsAudit}. */
export interface CrawlerAudit {
  readonly crawler: KnownCrawler;
  readonly matchedBy: CrawlerMatch;
  /** The token the deciding group was chosen by: the crawler's, a fallback token, `*`, or null. */
  readonly matchedToken: string | null;
  /** The decision for `/`, then for each audited path, with the group and line that made it. */
  readonly decisions: readonly RobotsExplanation[];
  readonly verdict: CrawlerVerdict;
  /** The `Crawl-delay` of the group that applies, or null. */
  readonly crawlDelay: number | null;
}

/** The crawlers of one purpose and what they may do. */
export interface PurposeAudit {
  readonly purpose: CrawlerPurpose;
  readonly verdict: PurposeVerdict;
  readonly allowed: number;
  readonly blocked: number;
  readonly partial: number;
  readonly crawlers: readonly CrawlerAudit[];
}

/** A mistake or a surprise the audit found, with how to fix it. */
export interface AuditFinding extends Diagnostic {
  /** What to change in the file. */
  readonly hint: string;
  /** The known crawler tokens it concerns (may be empty). */
  readonly tokens: readonly string[];
}

/** What {@link auditRobots} found. */
export interface RobotsAudit {
  /** Whether there was a file, or RFC 9309's outcome for a missing or unreachable one. */
  readonly source: RobotsSource;
  /** The date of the registry used. */
  readonly registryChecked: string;
  /** The paths decided for every crawler: `/` first, then the requested ones. */
  readonly paths: readonly string[];
  /** Purposes that have crawlers in the registry, in {@link CRAWLER_PURPOSES} order. */
  readonly purposes: readonly PurposeAudit[];
  /** In line order; errors are mistakes, warnings likely ones, infos facts worth knowing. */
  readonly findings: readonly AuditFinding[];
}

/**
 * Audits a robots.txt by purpose: for each crawler of the registry (the bundled
 * {@link KNOWN_CRAWLERS} by default), whether it may fetch `/` and each of `paths`, and the
 * group and line that decided, grouped by purpose with a verdict per purpose. When no group
 * names a crawler, its `fallback` tokens are tried in order before the `*` group (as Google
 * documents for its own crawlers). Findings flag the usual mistakes: user-agent values that
 * are not the token they seem to be, search crawlers blocked by a rule meant for AI
 * crawlers, a specific group that copies `*`'s rules but misses one, `Crawl-delay` for a
 * crawler that ignores it, and rules for crawlers that do not obey robots.txt at all.
 *
 * @example
 * ```ts
 * const audit = auditRobots(parseRobots('User-agent: GPTBot\nDisallow: /\n'), { paths: ['/blog/'] });
 * audit.purposes.find((p) => p.purpose === 'ai-training')?.verdict; // 'mixed' (only GPTBot is blocked)
 * audit.findings.filter((f) => f.severity === 'error'); // []
 * ```
 */
export function auditRobots(robots: RobotsTxt, options: RobotsAuditOptions = {}): RobotsAudit {
  const registry = options.registry ?? KNOWN_CRAWLERS;
  const paths = [...new Set(['/', ...(options.paths ?? [])])];
  const named = namedTokens(robots.groups);
  const global: GlobalDecisions = { decisions: null, crawlDelay: globalDelay(robots) };
  const audits = registry.crawlers.map((crawler) =>
    auditCrawler(robots, crawler, paths, named, global),
  );
  const purposes: PurposeAudit[] = [];
  for (const purpose of CRAWLER_PURPOSES) {
    const crawlers = audits.filter((audit) => audit.crawler.purpose === purpose);
    if (crawlers.length === 0) continue;
    const count = (verdict: CrawlerVerdict) => crawlers.filter((c) => c.verdict === verdict).length;
    const allowed = count('allowed');
    const blocked = count('blocked');
    const verdict: PurposeVerdict =
      allowed === crawlers.length
        ? 'all-allowed'
        : blocked === crawlers.length
          ? 'all-blocked'
          : 'mixed';
    purposes.push({ purpose, verdict, allowed, blocked, partial: count('partial'), crawlers });
  }
  return {
    source: robots.source,
    registryChecked: registry.checked,
    paths: audits[0]?.decisions.map((d) => d.path) ?? paths,
    purposes,
    findings: auditFindings(robots, registry, audits),
  };
}

/** What the file's groups name (lower case), `*` left out: product tokens and whole values. */
interface Named {
  readonly tokens: ReadonlySet<string>;
  readonly values: ReadonlySet<string>;
}

function namedTokens(groups: readonly RobotsGroup[]): Named {
  const tokens = new Set<string>();
  const values = new Set<string>();
  for (const group of groups) {
    for (const agent of group.userAgents) {
      if (isGlobalUserAgent(agent)) continue;
      tokens.add(productToken(agent).toLowerCase());
      // Whole, and without a version: how a crawler with a documented non-token (`MJ12bot`)
      // is taken to be named.
      values.add(agent.toLowerCase());
      values.add((agent.split('/')[0] ?? '').toLowerCase());
    }
  }
  return { tokens, values };
}

/** What every crawler no group names gets from the `*` groups, worked out once per audit. */
interface GlobalDecisions {
  decisions: readonly RobotsExplanation[] | null;
  readonly crawlDelay: number | null;
}

/**
 * The decisions for `token` on each path. Every crawler no group names gets the `*` group's
 * decisions: they are made once and shared (a file with 30,000 rules would otherwise sort
 * them again for each crawler), under each crawler's own token.
 */
function decide(
  robots: RobotsTxt,
  paths: readonly string[],
  token: string,
  global: GlobalDecisions | null,
): RobotsExplanation[] {
  if (global === null) return paths.map((path) => robots.explain(path, token));
  global.decisions ??= paths.map((path) => robots.explain(path, token));
  return global.decisions.map((decision) => ({ ...decision, userAgent: token }));
}

function auditCrawler(
  robots: RobotsTxt,
  crawler: KnownCrawler,
  paths: readonly string[],
  named: Named,
  global: GlobalDecisions,
): CrawlerAudit {
  let matchedBy: CrawlerMatch;
  let asToken = crawler.token;
  const key = crawler.token.toLowerCase();
  if (named.tokens.has(key)) matchedBy = 'token';
  else if (!isValidUserAgent(crawler.token) && named.values.has(key)) {
    // A documented token that is not a product token (`MJ12bot`): a line naming it whole is
    // taken to mean it, and decided as the engine reads that line (by its token, `MJ`).
    matchedBy = 'token';
    asToken = productToken(crawler.token);
  } else {
    const fallback = crawler.fallback?.find((token) => named.tokens.has(token.toLowerCase()));
    if (fallback !== undefined) asToken = fallback;
    matchedBy = fallback === undefined ? 'global' : 'fallback';
  }
  let decisions = decide(robots, paths, asToken, matchedBy === 'global' ? global : null);
  if (matchedBy === 'global' && crawler.ignoresGlobalGroup === true) {
    // Only a group naming it restricts it: with none, it may fetch everything.
    decisions = decisions.map((d) => ({
      ...d,
      allowed: true,
      reason: 'no-matching-group',
      rule: null,
      group: null,
    }));
  }
  if (matchedBy === 'global' && !decisions.some((d) => d.group !== null)) matchedBy = 'none';
  if (robots.source !== 'file') matchedBy = 'none';
  const allowedCount = decisions.filter((d) => d.allowed).length;
  const verdict: CrawlerVerdict =
    allowedCount === decisions.length ? 'allowed' : allowedCount === 0 ? 'blocked' : 'partial';
  return {
    crawler,
    matchedBy,
    matchedToken: matchedBy === 'none' ? null : matchedBy === 'global' ? '*' : asToken,
    decisions,
    verdict,
    crawlDelay:
      robots.source !== 'file'
        ? null
        : matchedBy === 'global' || matchedBy === 'none'
          ? global.crawlDelay
          : robots.crawlDelay(asToken),
  };
}

/** The first Crawl-delay of the `*` groups: what every crawler no group names gets. */
function globalDelay(robots: RobotsTxt): number | null {
  for (const group of robots.groups) {
    if (group.crawlDelay !== null && group.userAgents.some(isGlobalUserAgent))
      return group.crawlDelay;
  }
  return null;
}
