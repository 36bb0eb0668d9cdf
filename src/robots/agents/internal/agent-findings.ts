import { isGlobalUserAgent, isValidUserAgent, productToken } from '../../internal/user-agent.ts';
import type { RobotsGroup } from '../../types.ts';
import { type CrawlerRegistry, findCrawler, type KnownCrawler } from '../crawler-registry.ts';
import type { AddFinding as Add } from './finding-text.ts';
import { similarCrawler } from './similar-token.ts';

/** User-agent values that do not name the crawler they seem to name. */
export function userAgentFindings(group: RobotsGroup, registry: CrawlerRegistry, add: Add): void {
  const where = `group at line ${group.line}`;
  for (const value of group.userAgents) {
    if (isGlobalUserAgent(value)) continue;
    const token = productToken(value);
    const known = token === '' ? undefined : findCrawler(registry, token);
    if (token === value) {
      if (known === undefined) nearMiss(value, where, group.line, registry, add);
      continue;
    }
    // The value is more than a product token: matchers read only the token it starts with.
    const documented = documentedNonToken(registry, value);
    if (documented !== undefined) {
      add(
        'warning',
        group.line,
        'agent-token-not-rfc',
        `User-agent "${value}" (${where}) names ${documented.token} as ${documented.operator} documents it, but that is not an RFC 9309 product token: Google's matcher reads it as "${token}", and whether ${documented.token} obeys this group depends on its own matcher`,
        'keep the line; to be sure the crawler stays out, also refuse it at the server',
        [documented.token],
      );
      continue;
    }
    const similar = similarCrawler(registry, value);
    const meant = similar?.sure === true ? similar.crawler : undefined;
    if (meant !== undefined && meant.token.toLowerCase() !== token.toLowerCase()) {
      misread(value, token, where, group.line, meant, known, add);
    } else if (token === '') {
      add(
        'warning',
        group.line,
        'agent-no-token',
        `User-agent "${value}" (${where}) does not start with a product token (letters, "-" and "_"), so Google's matcher and waymark match it to no crawler`,
        'name crawlers by their product token, e.g. "User-agent: GPTBot"',
      );
    } else if (known !== undefined) {
      add(
        'warning',
        group.line,
        'agent-extra-text',
        `User-agent "${value}" (${where}) is read as its product token "${token}" by Google and waymark, so it applies to ${known.token}; parsers that compare the whole value may skip this group`,
        `write just "User-agent: ${token}"`,
        [known.token],
      );
    }
    // Anything else names an unknown crawler; `robots lint` reports the value itself.
  }
}

/** A valid token that names no known crawler but is spelt almost like one. */
function nearMiss(
  value: string,
  where: string,
  line: number,
  registry: CrawlerRegistry,
  add: Add,
): void {
  const similar = similarCrawler(registry, value);
  if (similar === null) return;
  const meant = similar.crawler.token;
  add(
    similar.sure ? 'error' : 'warning',
    line,
    'agent-near-miss',
    `User-agent "${value}" (${where}) names no known crawler; ${similar.sure ? 'it is' : 'it looks like'} a misspelling of ${meant}, which this group does not apply to`,
    `write "User-agent: ${meant}"`,
    [meant],
  );
}

/** A value that surely means `meant` but is read as another token (`ChatGPT User`). */
function misread(
  value: string,
  token: string,
  where: string,
  line: number,
  meant: KnownCrawler,
  known: KnownCrawler | undefined,
  add: Add,
): void {
  const read = `User-agent "${value}" (${where}) is read as its product token "${token}" (a product token has only letters, "-" and "_")`;
  const followed = meant.fallback?.some((t) => t.toLowerCase() === token.toLowerCase()) === true;
  if (followed && known === undefined) {
    add(
      'warning',
      line,
      'agent-extra-text',
      `${read}, whose group ${meant.token} follows only while no group names ${meant.token} itself`,
      `write "User-agent: ${meant.token}" to name it, or "User-agent: ${token}" to mean all that follow ${token}`,
      [meant.token],
    );
    return;
  }
  const appliesTo =
    token === ''
      ? 'which matches no crawler'
      : known === undefined
        ? 'which names no known crawler'
        : `so this group applies to ${known.token}`;
  add(
    'error',
    line,
    token === '' ? 'agent-no-token' : 'agent-misread',
    `${read}, ${appliesTo}: it does not apply to ${meant.token}`,
    `write "User-agent: ${meant.token}"`,
    known === undefined ? [meant.token] : [meant.token, known.token],
  );
}

/**
 * The crawler whose documented token is not a product token (`MJ12bot`) that `value`
 * names: the token itself, or the token and a version (`MJ12bot/v1.4`).
 */
function documentedNonToken(registry: CrawlerRegistry, value: string): KnownCrawler | undefined {
  const lower = value.toLowerCase();
  return registry.crawlers.find((crawler) => {
    if (isValidUserAgent(crawler.token)) return false;
    const token = crawler.token.toLowerCase();
    return lower === token || lower.startsWith(`${token}/`);
  });
}
