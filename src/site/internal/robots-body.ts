import { formatRobots, type RobotsPolicyGroup } from '../../robots/index.ts';
import type { ReservedPaths } from '../reserved-paths.ts';
import type { SiteConfig } from '../site-config.ts';

/** The robots.txt groups: baseline plus configuration, anything revealing the admin path dropped. */
export interface RobotsPlan {
  readonly groups: readonly RobotsPolicyGroup[];
  /** Configured rules and user agents left out because they would reveal the admin path. */
  readonly dropped: readonly string[];
}

/**
 * Decided once per configuration: `User-agent: *` with a `Disallow` per published
 * reserved path, the configured rules, and `Allow: /`; then the configured groups. A rule
 * that would give the admin path away (matched against it by the robots engine, see
 * `ReservedPaths.revealsAdmin`) or a user agent that names it is dropped, so robots.txt
 * never reveals it.
 */
export function planRobots(config: SiteConfig, reserved: ReservedPaths): RobotsPlan {
  const dropped: string[] = [];
  const keepRule = (rule: { readonly pattern: string }): boolean => {
    if (!reserved.revealsAdmin(rule.pattern)) return true;
    dropped.push(rule.pattern);
    return false;
  };
  const keepAgent = (agent: string): boolean => {
    if (!reserved.agentNamesAdmin(agent) && !reserved.mentionsAdmin(agent)) return true;
    dropped.push(agent);
    return false;
  };
  const star: RobotsPolicyGroup = {
    userAgents: ['*'],
    rules: [
      ...reserved.disallowed().map((pattern) => ({ directive: 'disallow' as const, pattern })),
      ...config.robotsRules.filter(keepRule),
      { directive: 'allow', pattern: '/' },
    ],
  };
  const groups: RobotsPolicyGroup[] = [star];
  for (const group of config.robotsGroups) {
    const rules = group.rules.filter(keepRule);
    const userAgents = group.userAgents.filter(keepAgent);
    if (rules.length > 0 && userAgents.length > 0) groups.push({ ...group, userAgents, rules });
  }
  return { groups, dropped };
}

/**
 * The robots.txt text for one request's sitemap URL (null: no sitemap is served). When
 * even the sitemap URL would name the admin path (a host that happens to contain it), the
 * `Sitemap:` line is left out.
 */
export function robotsBody(
  plan: RobotsPlan,
  sitemapUrl: string | null,
  reserved: ReservedPaths,
): string {
  if (sitemapUrl === null || reserved.mentionsAdmin(sitemapUrl)) {
    return formatRobots({ groups: plan.groups });
  }
  return formatRobots({ groups: plan.groups, sitemaps: [sitemapUrl] });
}
