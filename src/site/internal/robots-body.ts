import { formatRobots, type RobotsPolicyGroup } from '../../robots/index.ts';
import type { ReservedPaths } from '../reserved-paths.ts';
import type { SiteConfig } from '../site-config.ts';

/** The robots.txt groups: baseline plus configuration, anything naming the admin path dropped. */
export interface RobotsPlan {
  readonly groups: readonly RobotsPolicyGroup[];
  /** Configured rules left out because they name the admin path. */
  readonly dropped: readonly string[];
}

/**
 * Decided once per configuration: `User-agent: *` with a `Disallow` per published
 * reserved path, the configured rules, and `Allow: /`; then the configured groups. A
 * rule or user agent that mentions the admin path is dropped, so robots.txt never
 * reveals it.
 */
export function planRobots(config: SiteConfig, reserved: ReservedPaths): RobotsPlan {
  const dropped: string[] = [];
  const keep = (pattern: string): boolean => {
    if (!reserved.mentionsAdmin(pattern)) return true;
    dropped.push(pattern);
    return false;
  };
  const star: RobotsPolicyGroup = {
    userAgents: ['*'],
    rules: [
      ...reserved.disallowed().map((pattern) => ({ directive: 'disallow' as const, pattern })),
      ...config.robotsRules.filter((rule) => keep(rule.pattern)),
      { directive: 'allow', pattern: '/' },
    ],
  };
  const groups: RobotsPolicyGroup[] = [star];
  for (const group of config.robotsGroups) {
    const rules = group.rules.filter((rule) => keep(rule.pattern));
    const userAgents = group.userAgents.filter((agent) => keep(agent));
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
  if (sitemapUrl === null) return formatRobots({ groups: plan.groups });
  const text = formatRobots({ groups: plan.groups, sitemaps: [sitemapUrl] });
  return reserved.mentionsAdmin(text) ? formatRobots({ groups: plan.groups }) : text;
}
