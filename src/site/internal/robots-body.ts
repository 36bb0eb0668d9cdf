import { expandPurposePolicy } from '../../robots/agents/purpose-policy.ts';
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
 * reserved path, the configured rules, and `Allow: /`; then the configured groups; then,
 * with `robotsPurposes`, a group per purpose from the known-crawler registry
 * (`expandPurposePolicy`: crawlers of an allowed purpose get the `*` group's rules, so the
 * reserved paths stay disallowed for them; those of a disallowed purpose `Disallow: /`;
 * a crawler a configured group names keeps that group). A rule that would give the admin
 * path away (matched against it by the robots engine, see `ReservedPaths.revealsAdmin`)
 * or a user agent that names it is dropped, so robots.txt never reveals it.
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
  let groups: RobotsPolicyGroup[] = [star];
  for (const group of config.robotsGroups) {
    const rules = group.rules.filter(keepRule);
    const userAgents = group.userAgents.filter(keepAgent);
    if (rules.length > 0 && userAgents.length > 0) groups.push({ ...group, userAgents, rules });
  }
  if (Object.keys(config.robotsPurposes).length > 0) {
    const configured = groups.length;
    const expanded = expandPurposePolicy({ groups, purposes: config.robotsPurposes }).groups;
    groups = [...expanded.slice(0, configured)];
    // The purpose groups' rules are the `*` group's, already checked; their agents are not.
    for (const group of expanded.slice(configured)) {
      const userAgents = group.userAgents.filter(keepAgent);
      if (userAgents.length > 0) groups.push({ ...group, userAgents });
    }
  }
  // A crawler reads only the group that names it, so the usage lines go into every group
  // that lets its crawlers fetch anything (a group's own `usage` stays as configured).
  const usage = config.robotsUsage.filter((line) => {
    const reveals =
      (line.path !== undefined && reserved.revealsAdmin(line.path)) ||
      reserved.mentionsAdmin(line.value);
    if (reveals) dropped.push(line.path ?? line.value);
    return !reveals;
  });
  if (usage.length > 0) {
    groups = groups.map((group) =>
      group.usage !== undefined || blocksEverything(group) ? group : { ...group, usage },
    );
  }
  return { groups, dropped };
}

function blocksEverything(group: RobotsPolicyGroup): boolean {
  const [only, ...rest] = group.rules;
  return rest.length === 0 && only?.directive === 'disallow' && only.pattern === '/';
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
