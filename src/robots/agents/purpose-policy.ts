import { isGlobalUserAgent, isWritableUserAgent, productToken } from '../internal/user-agent.ts';
import { writeRobots } from '../internal/write-robots.ts';
import { parseRobots } from '../parse-robots.ts';
import type { RobotsPolicy, RobotsPolicyGroup } from '../types.ts';
import {
  CRAWLER_PURPOSES,
  type CrawlerPurpose,
  type CrawlerRegistry,
  type KnownCrawler,
} from './crawler-registry.ts';
import { KNOWN_CRAWLERS } from './known-crawlers.ts';

/** What a policy by purpose says for the crawlers of one purpose. */
export type PurposeDecision = 'allow' | 'disallow';

/**
 * A robots.txt policy that may also say, per purpose, whether its crawlers may crawl:
 * `{ purposes: { 'ai-training': 'disallow', search: 'allow' } }`, plus explicit groups and
 * sitemaps as in any {@link RobotsPolicy}.
 */
export interface PurposePolicy extends Partial<RobotsPolicy> {
  readonly purposes?: Partial<Record<CrawlerPurpose, PurposeDecision>>;
}

type Rule = RobotsPolicyGroup['rules'][number];

/**
 * Turns a policy by purpose into plain groups, from the registry (the bundled
 * {@link KNOWN_CRAWLERS} by default), so that the file {@link formatRobots} writes from it
 * audits exactly as asked: each crawler of a `disallow` purpose is named in a group with
 * `Disallow: /`; each crawler of an `allow` purpose is named in a group that repeats the
 * rules of the `*` group (so it is still kept out of `/admin/` when `*` is), except rules
 * that would keep it out of `/` itself, which are meant for unknown crawlers; with no `*`
 * group it gets `Disallow:` (everything allowed). The `*` group's `Crawl-delay` is repeated
 * too, except for crawlers documented to ignore it. Explicit groups come first, unchanged,
 * and win: a token an explicit group names is not added to any purpose group. Registry
 * names that are not product tokens are written as documented (`AI2Bot`) when a line can
 * hold them, and skipped otherwise (`Screaming Frog SEO Spider`). Control tokens
 * (`fetches: false`, such as Google-Extended) are written like any other.
 *
 * @example
 * ```ts
 * const policy = expandPurposePolicy({
 *   purposes: { 'ai-training': 'disallow', search: 'allow' },
 *   groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] }],
 * });
 * formatRobots(policy); // 'User-agent: *\nDisallow: /admin/\n\nUser-agent: Googlebot\n...'
 * ```
 */
export function expandPurposePolicy(
  policy: PurposePolicy,
  registry: CrawlerRegistry = KNOWN_CRAWLERS,
): RobotsPolicy {
  const explicit = policy.groups ?? [];
  const taken = new Set<string>();
  const globalRules: Rule[] = [];
  let globalDelay: number | undefined;
  for (const group of explicit) {
    for (const agent of group.userAgents) {
      if (!isGlobalUserAgent(agent)) taken.add(productToken(agent).toLowerCase());
    }
    if (group.userAgents.some(isGlobalUserAgent)) {
      globalRules.push(...group.rules);
      globalDelay ??= group.crawlDelay;
    }
  }
  const allowRules = rulesKeepingRoot(globalRules);
  const groups: RobotsPolicyGroup[] = [...explicit];
  for (const purpose of CRAWLER_PURPOSES) {
    const decision = policy.purposes?.[purpose];
    if (decision === undefined) continue;
    const crawlers = registry.crawlers.filter((crawler) => {
      const key = crawler.token.toLowerCase();
      if (crawler.purpose !== purpose || taken.has(key) || !isWritableUserAgent(crawler.token)) {
        return false;
      }
      taken.add(key);
      return true;
    });
    if (decision === 'disallow') {
      addGroup(groups, crawlers, [{ directive: 'disallow', pattern: '/' }], undefined);
    } else if (globalDelay === undefined) {
      addGroup(groups, crawlers, allowRules, undefined);
    } else {
      const ignoring = (c: KnownCrawler) => c.honoursCrawlDelay === false;
      addGroup(
        groups,
        crawlers.filter((c) => !ignoring(c)),
        allowRules,
        globalDelay,
      );
      addGroup(groups, crawlers.filter(ignoring), allowRules, undefined);
    }
  }
  return {
    groups,
    ...(policy.sitemaps === undefined ? {} : { sitemaps: policy.sitemaps }),
  };
}

function addGroup(
  groups: RobotsPolicyGroup[],
  crawlers: readonly KnownCrawler[],
  rules: readonly Rule[],
  crawlDelay: number | undefined,
): void {
  if (crawlers.length === 0) return;
  groups.push({
    userAgents: crawlers.map((crawler) => crawler.token),
    rules,
    ...(crawlDelay === undefined ? {} : { crawlDelay }),
  });
}

/**
 * The `*` rules an allowed crawler gets: all of them when they let it fetch `/`; otherwise
 * all but the Disallow rules that match `/` (a `Disallow: /` for unknown crawlers must not
 * block a purpose the policy allows). With no rule left, `Disallow:`, which allows all.
 */
function rulesKeepingRoot(rules: readonly Rule[]): readonly Rule[] {
  const written = rules.filter((rule) => rule.pattern !== '');
  // With no Disallow rule that matches `/` left, nothing can keep a crawler out of `/`.
  const kept =
    written.length === 0 || allowsRoot(written)
      ? written
      : written.filter((rule) => rule.directive === 'allow' || allowsRoot([rule]));
  return kept.length === 0 ? [{ directive: 'disallow', pattern: '' }] : kept;
}

/** Whether a group with just these rules lets a crawler fetch `/`, as the engine decides. */
function allowsRoot(rules: readonly Rule[]): boolean {
  const text = writeRobots({ groups: [{ userAgents: ['*'], rules }] });
  return parseRobots(text).isAllowed('/', 'any');
}
