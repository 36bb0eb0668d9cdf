import { WaymarkError } from '../../shared/waymark-error.ts';
import type { RobotsPolicy, RobotsPolicyGroup, RobotsPolicyUsage } from '../types.ts';
import { parseUsageStatement } from '../usage-statement.ts';
import { CANONICAL_KEY } from './directive-key.ts';
import { escapePattern } from './escape-pattern.ts';
import { isWritableUserAgent } from './user-agent.ts';

// The writer behind formatRobots, apart from it so that expanding a policy by purpose
// (which writes and reads back candidate rules) can use it without an import cycle.

/** Writes plain groups and sitemaps; see formatRobots for what it refuses and why. */
export function writeRobots(
  policy: RobotsPolicy,
  options: { readonly comment?: string } = {},
): string {
  const blocks: string[] = [];
  if (options.comment !== undefined) {
    blocks.push(
      options.comment
        .split(/\r\n|\r|\n/)
        .map((text) => (text ? `# ${text}` : '#'))
        .join('\n'),
    );
  }
  policy.groups.forEach((group, index) => {
    blocks.push(formatGroup(group, index));
  });
  const sitemaps = (policy.sitemaps ?? []).map(
    (url) => `${CANONICAL_KEY.sitemap}: ${sitemapHref(url)}`,
  );
  if (sitemaps.length > 0) blocks.push(sitemaps.join('\n'));
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

function formatGroup(group: RobotsPolicyGroup, index: number): string {
  const where = `group ${index + 1}`;
  if (group.userAgents.length === 0) invalid(`${where} has no user agents`);
  if (group.rules.length === 0) {
    invalid(
      `${where} has no rules; use { directive: 'disallow', pattern: '' } to allow everything`,
    );
  }
  const lines: string[] = [];
  for (const agent of group.userAgents) {
    if (agent !== '*' && !isWritableUserAgent(agent)) {
      invalid(
        `${where}: user agent "${agent}" is not "*", a product token (letters, "-" and "_") or a documented name (a letter, then letters, digits, ".", "-" and "_")`,
      );
    }
    lines.push(`${CANONICAL_KEY['user-agent']}: ${agent}`);
  }
  if (group.crawlDelay !== undefined) {
    // Crawlers read Crawl-delay as plain decimal: refuse what would be written with an exponent.
    if (
      !Number.isFinite(group.crawlDelay) ||
      group.crawlDelay < 0 ||
      /e/i.test(String(group.crawlDelay))
    ) {
      invalid(
        `${where}: crawl delay ${group.crawlDelay} is not a plain non-negative number of seconds`,
      );
    }
    lines.push(`Crawl-delay: ${group.crawlDelay}`);
  }
  for (const usage of group.usage ?? []) lines.push(usageLine(usage, where));
  for (const rule of group.rules) {
    const pattern = rule.pattern;
    if (hasControlOrHash(pattern) || pattern.trim() !== pattern) {
      invalid(
        `${where}: pattern "${pattern}" has a control character, a "#" or surrounding spaces`,
      );
    }
    if (pattern.length > 0 && pattern[0] !== '/' && pattern[0] !== '*') {
      invalid(`${where}: pattern "${pattern}" does not start with "/" or "*"`);
    }
    if (rule.directive !== 'allow' && rule.directive !== 'disallow') {
      invalid(`${where}: directive "${String(rule.directive)}" is not "allow" or "disallow"`);
    }
    const written = escapePattern(pattern);
    lines.push(`${CANONICAL_KEY[rule.directive]}:${written ? ` ${written}` : ''}`);
  }
  return lines.join('\n');
}

function usageLine(usage: RobotsPolicyUsage, where: string): string {
  const { field, path, value } = usage;
  if (field !== 'content-usage' && field !== 'content-signal') {
    invalid(`${where}: usage field "${String(field)}" is not "content-usage" or "content-signal"`);
  }
  const key = CANONICAL_KEY[field];
  if (path !== undefined) {
    // The path ends at the first blank (draft-ietf-aipref-attach-05 section 3.2).
    if (path[0] !== '/' || hasControlOrHash(path) || path.includes(' ')) {
      invalid(
        `${where}: ${key} path "${path}" must start with "/" and hold no space, "#" or control character`,
      );
    }
  }
  if (hasControlOrHash(value) || value.trim() !== value || value.length === 0) {
    invalid(
      `${where}: ${key} value "${value}" is empty or has a control character, a "#" or surrounding spaces`,
    );
  }
  const problem = parseUsageStatement(field, value).problems.find((p) => p.severity !== 'info');
  if (problem !== undefined) invalid(`${where}: ${problem.message}`);
  return `${key}: ${path === undefined ? '' : `${escapePattern(path)} `}${value}`;
}

function hasControlOrHash(text: string): boolean {
  return text.includes('#') || hasControl(text);
}

/** A character below U+0020, or DEL: no robots.txt line can carry one. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function sitemapHref(url: string): string {
  // The URL parser drops tabs and line breaks without a word: `https://e/\nDisallow: /`
  // would come out as one URL the writer never meant.
  if (hasControl(url) || url.trim() !== url) {
    invalid(`sitemap "${url}" has a control character or surrounding spaces`);
  }
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    invalid(`sitemap "${url}" is not an absolute http(s) URL`);
  }
  // A `#` would start a comment, and a fragment means nothing to a sitemap fetch anyway.
  if (parsed.href.includes('#')) invalid(`sitemap "${url}" has a fragment ("#")`);
  return parsed.href;
}

function invalid(message: string): never {
  throw new WaymarkError('invalid-argument', `cannot write robots.txt: ${message}`);
}
