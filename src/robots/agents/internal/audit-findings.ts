import { hasErrors, type Severity } from '../../../shared/diagnostic.ts';
import { CANONICAL_KEY } from '../../internal/directive-key.ts';
import { isGlobalUserAgent, productToken } from '../../internal/user-agent.ts';
import type { RobotsTxt } from '../../robots-txt.ts';
import type { RobotsGroup, RobotsRule } from '../../types.ts';
import type { AuditFinding, CrawlerAudit } from '../audit-robots.ts';
import {
  type CrawlerRegistry,
  findCrawler,
  isAiPurpose,
  type KnownCrawler,
} from '../crawler-registry.ts';
import { userAgentFindings } from './agent-findings.ts';
import { type AddFinding as Add, list } from './finding-text.ts';

/** Every finding of an audit, in line order (then by code, for a stable order). */
export function auditFindings(
  robots: RobotsTxt,
  registry: CrawlerRegistry,
  audits: readonly CrawlerAudit[],
): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const add = (
    severity: Severity,
    line: number,
    code: string,
    message: string,
    hint: string,
    tokens: readonly string[] = [],
  ) => findings.push({ code, severity, message, line, column: 1, hint, tokens });

  if (robots.source === 'unreachable') {
    add(
      'error',
      1,
      'robots-unreachable',
      'robots.txt could not be read (a 5xx or 429 answer, or no answer): crawlers treat the whole site as disallowed, search engines included',
      'make /robots.txt answer 200 with the file, or 404 if there is none',
    );
  } else if (robots.source === 'unavailable') {
    add(
      'info',
      1,
      'robots-unavailable',
      'there is no robots.txt (a 4xx answer): every crawler may fetch everything',
      'serve a robots.txt to say what each crawler may do',
    );
  }
  if (robots.source === 'file' && robots.groups.length === 0 && hasErrors(robots.diagnostics)) {
    noRulesFinding(robots, add);
  }
  robots.groups.forEach((group) => {
    userAgentFindings(group, registry, add);
    namedCrawlerFindings(group, registry, add);
  });
  searchBlockedFindings(robots, registry, audits, add);
  missedGlobalRuleFindings(robots, add);
  return findings.sort((a, b) => a.line - b.line || a.code.localeCompare(b.code));
}

/**
 * A file that means to say something (it has errors) but holds no group: every crawler may
 * fetch everything, which the per-crawler tables show only as "allowed" everywhere.
 */
function noRulesFinding(robots: RobotsTxt, add: Add): void {
  const codes = new Set(robots.diagnostics.map((d) => d.code));
  const [what, hint] = codes.has('utf16-document')
    ? [' (it is UTF-16 text)', 'save the file as UTF-8']
    : codes.has('html-document')
      ? [' (it is an HTML or XML page)', 'serve the robots.txt file itself, as text/plain']
      : [
          '',
          'start each group with a User-agent line followed by its Allow and Disallow lines (waymark robots lint names the problem of each line)',
        ];
  add(
    'error',
    1,
    'no-rules-read',
    `crawlers read no rule from this file${what}: every crawler may fetch everything`,
    hint,
  );
}

/** Known crawlers a group names whose documentation says a line of the group has no effect. */
function namedCrawlerFindings(group: RobotsGroup, registry: CrawlerRegistry, add: Add): void {
  const crawlers = namedCrawlers(group, registry);
  const where = `the group at line ${group.line}`;
  if (group.crawlDelay !== null) {
    const ignoring = crawlers.filter((c) => c.honoursCrawlDelay === false);
    if (ignoring.length > 0) {
      const tokens = ignoring.map((c) => c.token);
      add(
        'warning',
        group.line,
        'crawl-delay-ignored',
        `${list(tokens)} ${tokens.length === 1 ? 'is' : 'are'} documented to ignore Crawl-delay, so the Crawl-delay of ${where} does not slow ${tokens.length === 1 ? 'it' : 'them'} down`,
        "use the operator's own crawl-rate setting (see each crawler's documentation), or answer 429/503 when overloaded",
        tokens,
      );
    }
  }
  const ignoring = crawlers.filter((c) => c.honoursRobotsTxt === false);
  if (ignoring.length > 0) {
    const tokens = ignoring.map((c) => c.token);
    add(
      'info',
      group.line,
      'ignores-robots-txt',
      `${list(tokens)} ${tokens.length === 1 ? 'is' : 'are'} documented not to obey robots.txt (for example when fetching for a user), so ${where} will not stop ${tokens.length === 1 ? 'it' : 'them'}`,
      'to keep such a crawler out, refuse it at the server (by its verified IP ranges or user agent)',
      tokens,
    );
  }
}

/** Search crawlers that may not fetch `/`, and the rule that blocks them. */
function searchBlockedFindings(
  robots: RobotsTxt,
  registry: CrawlerRegistry,
  audits: readonly CrawlerAudit[],
  add: Add,
): void {
  if (robots.source !== 'file') return;
  const aiNamed = robots.groups.flatMap((group) =>
    namedCrawlers(group, registry)
      .filter((c) => isAiPurpose(c.purpose))
      .map((c) => ({ token: c.token, line: group.line })),
  );
  // One finding per blocking rule, listing every search crawler it blocks.
  const byRule = new Map<
    RobotsRule,
    { tokens: string[]; global: boolean; aiInGroup: string[]; groupLine: number }
  >();
  for (const audit of audits) {
    const { crawler } = audit;
    if (crawler.purpose !== 'search' || !crawler.fetches || crawler.honoursRobotsTxt === false)
      continue;
    const root = audit.decisions[0];
    if (root === undefined || root.allowed || root.rule === null || root.group === null) continue;
    let entry = byRule.get(root.rule);
    if (entry === undefined) {
      const group = root.group;
      const aiInGroup = aiNamed.filter((ai) => ai.line === group.line).map((ai) => ai.token);
      entry = {
        tokens: [],
        global: audit.matchedBy === 'global',
        aiInGroup,
        groupLine: group.line,
      };
      byRule.set(root.rule, entry);
    }
    entry.tokens.push(crawler.token);
  }
  for (const [rule, { tokens, global, aiInGroup, groupLine }] of byRule) {
    const written = ruleText(rule);
    const blocked = `search crawler${tokens.length === 1 ? '' : 's'} ${list(tokens)}`;
    if (aiInGroup.length > 0) {
      add(
        'error',
        rule.line,
        'search-blocked-by-ai-rule',
        `"${written}" blocks the ${blocked} from the whole site: the group at line ${groupLine} names ${tokens.length === 1 ? 'it' : 'them'} together with AI crawlers (${list(aiInGroup)})`,
        `give ${list(tokens)} a group of ${tokens.length === 1 ? 'its' : 'their'} own, apart from the AI crawlers`,
        [...tokens, ...aiInGroup],
      );
    } else if (global && aiNamed.length > 0) {
      const ai = [...new Set(aiNamed.map((a) => a.token))];
      add(
        'error',
        rule.line,
        'search-blocked-by-ai-rule',
        `"${written}" in the * group blocks the ${blocked} from the whole site, since no group names them; the file's other groups are about AI crawlers (${list(ai)}), so this looks meant for AI crawlers only`,
        `name the AI crawlers to block in their own group with "Disallow: /", or add a group for ${list(tokens)} with the rules search engines should follow`,
        [...tokens, ...ai],
      );
    } else if (global) {
      // A group that names search crawlers alone and blocks them says what it means.
      add(
        'warning',
        rule.line,
        'search-blocked',
        `"${written}" blocks the ${blocked} from the whole site: its pages will drop out of their search results`,
        'if this is not a site meant to stay out of search (a staging copy), allow the search crawlers',
        tokens,
      );
    }
  }
}

/**
 * A group naming crawlers replaces the `*` group for them entirely. When it repeats most
 * of `*`'s rules, one it does not repeat was likely forgotten: it no longer applies to them.
 */
function missedGlobalRuleFindings(robots: RobotsTxt, add: Add): void {
  const globalRules = new Map<string, RobotsRule>();
  for (const group of robots.groups) {
    if (!group.userAgents.some(isGlobalUserAgent)) continue;
    for (const rule of group.rules) {
      if (rule.pattern !== '') globalRules.set(ruleKey(rule), rule);
    }
  }
  if (globalRules.size < 2) return;
  for (const group of robots.groups) {
    if (group.userAgents.some(isGlobalUserAgent)) continue;
    const tokens = group.userAgents.map(productToken).filter((t) => t !== '');
    const asToken = tokens[0];
    if (asToken === undefined) continue;
    const own = new Set(group.rules.map(ruleKey));
    const shared = [...globalRules.keys()].filter((key) => own.has(key)).length;
    if (shared === 0 || shared * 2 < globalRules.size) continue;
    // A rule not repeated word for word may still hold through another rule (`Disallow: /`).
    const missed = [...globalRules.values()].filter(
      (rule) =>
        !own.has(ruleKey(rule)) &&
        // Escaping a blanket `Disallow: /` is what a group for named crawlers is for.
        !(rule.directive === 'disallow' && samplePath(rule.pattern) === '/') &&
        robots.explain(samplePath(rule.pattern), asToken).allowed !== (rule.directive === 'allow'),
    );
    if (missed.length === 0) continue;
    // A long list helps nobody: the first few, and how many more.
    const shown = missed.slice(0, MAX_LISTED);
    const more = missed.length - shown.length;
    const missedText = shown.map((r) => `"${ruleText(r)}" (line ${r.line})`);
    if (more > 0) missedText.push(`${more} more`);
    add(
      'warning',
      group.line,
      'group-misses-global-rule',
      `the group at line ${group.line} (${list(tokens)}) repeats ${shared} of the ${globalRules.size} rules of the * group but not ${list(missedText)}: a group that names a crawler replaces the * group for it, so ${missed.length === 1 ? 'that rule no longer applies' : 'those rules no longer apply'} to ${list(tokens)}`,
      `add ${list([...shown.map((r) => `"${ruleText(r)}"`), ...(more > 0 ? [`${more} more`] : [])])} to this group if ${missed.length === 1 ? 'it' : 'they'} should apply to ${list(tokens)} too`,
      tokens,
    );
  }
}

/** Rules named in one finding at most; the rest are counted. */
const MAX_LISTED = 5;

function namedCrawlers(group: RobotsGroup, registry: CrawlerRegistry): KnownCrawler[] {
  const crawlers: KnownCrawler[] = [];
  for (const agent of group.userAgents) {
    if (isGlobalUserAgent(agent)) continue;
    const crawler = findCrawler(registry, agent) ?? findCrawler(registry, productToken(agent));
    if (crawler !== undefined && !crawlers.includes(crawler)) crawlers.push(crawler);
  }
  return crawlers;
}

function ruleKey(rule: RobotsRule): string {
  return `${rule.directive} ${rule.pattern}`;
}

function ruleText(rule: RobotsRule): string {
  return `${CANONICAL_KEY[rule.directive]}: ${rule.pattern}`;
}

/** A path the pattern matches: its wildcards matching nothing, its end anchor dropped. */
function samplePath(pattern: string): string {
  const path = pattern.replaceAll('*', '').replace(/\$$/, '');
  return path.startsWith('/') ? path : `/${path}`;
}
