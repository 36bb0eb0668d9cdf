import { WaymarkError } from '../shared/waymark-error.ts';
import { CANONICAL_KEY } from './internal/directive-key.ts';
import { escapePattern } from './internal/escape-pattern.ts';
import { isValidUserAgent } from './internal/user-agent.ts';
import type { RobotsPolicy, RobotsPolicyGroup } from './types.ts';

export interface FormatRobotsOptions {
  /** Text written first as `#` comment lines (one per line of the text). */
  readonly comment?: string;
}

/**
 * Writes a robots.txt from a policy. What it writes, {@link parseRobots} reads back to the
 * same policy: patterns are written percent-normalised, as they are matched, and sitemap
 * URLs as `new URL(x).href` spells them. Anything that could not be read back the same way
 * throws a `WaymarkError` with code `invalid-argument`: a user agent that is not `*` or a
 * product token, a group without rules (it would merge into the next group; write
 * `{ directive: 'disallow', pattern: '' }` to allow everything), a pattern with a line
 * break, a `#` or surrounding spaces, or one that does not start with `/` or `*`; a crawl
 * delay that is negative or needs an exponent; a sitemap that is not an absolute http(s)
 * URL or has a fragment.
 *
 * @example
 * ```ts
 * formatRobots({
 *   groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] }],
 *   sitemaps: ['https://example.com/sitemap.xml'],
 * });
 * // 'User-agent: *\nDisallow: /admin/\n\nSitemap: https://example.com/sitemap.xml\n'
 * ```
 */
export function formatRobots(policy: RobotsPolicy, options: FormatRobotsOptions = {}): string {
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
    if (agent !== '*' && !isValidUserAgent(agent)) {
      invalid(
        `${where}: user agent "${agent}" is not "*" or a product token (letters, "-" and "_")`,
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

function hasControlOrHash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x23) return true;
  }
  return false;
}

function sitemapHref(url: string): string {
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
