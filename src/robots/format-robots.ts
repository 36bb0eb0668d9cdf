import type { CrawlerRegistry } from './agents/crawler-registry.ts';
import { expandPurposePolicy, type PurposePolicy } from './agents/purpose-policy.ts';
import { writeRobots } from './internal/write-robots.ts';
import type { RobotsPolicy } from './types.ts';

export interface FormatRobotsOptions {
  /** Text written first as `#` comment lines (one per line of the text). */
  readonly comment?: string;
  /** The crawlers a policy's `purposes` expand to (default: the bundled registry). */
  readonly registry?: CrawlerRegistry;
}

/**
 * Writes a robots.txt from a policy. What it writes, {@link parseRobots} reads back to the
 * same policy: patterns are written percent-normalised, as they are matched, and sitemap
 * URLs as `new URL(x).href` spells them. Anything that could not be read back the same way
 * throws a `WaymarkError` with code `invalid-argument`: a user agent that is not `*`, a
 * product token, or a name of letters, digits, `.`, `-` and `_` that starts with a letter
 * (some operators document such names, `AI2Bot`; parsers read them by their token), a group without rules (it would merge into the next group; write
 * `{ directive: 'disallow', pattern: '' }` to allow everything), a pattern with a line
 * break, a `#` or surrounding spaces, or one that does not start with `/` or `*`; a crawl
 * delay that is negative or needs an exponent; a sitemap that is not an absolute http(s)
 * URL or has a fragment; a usage line (`Content-Usage`, `Content-Signal`) whose path does
 * not start with `/` or holds a space, `#` or control character, or whose value is not a
 * statement that reads back cleanly (it must parse, and its known terms must have values
 * they define; terms the vocabulary does not know are allowed).
 *
 *
 * A policy may also say, per purpose, whether the crawlers of that purpose may crawl
 * (`purposes`): it is expanded from the crawler registry (the bundled one, or
 * `options.registry`) by {@link expandPurposePolicy} first, so the file names each known
 * crawler in a group that says exactly that.
 *
 * @example
 * ```ts
 * formatRobots({
 *   groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] }],
 *   sitemaps: ['https://example.com/sitemap.xml'],
 * });
 * // 'User-agent: *\nDisallow: /admin/\n\nSitemap: https://example.com/sitemap.xml\n'
 *
 * formatRobots({ purposes: { 'ai-training': 'disallow', search: 'allow' } });
 * // 'User-agent: Amazonbot\nUser-agent: Applebot-Extended\n...\nDisallow: /\n\n...'
 * ```
 */
export function formatRobots(
  policy: RobotsPolicy | PurposePolicy,
  options: FormatRobotsOptions = {},
): string {
  const comment = options.comment === undefined ? {} : { comment: options.comment };
  if ('purposes' in policy && policy.purposes !== undefined) {
    return writeRobots(expandPurposePolicy(policy, options.registry), comment);
  }
  return writeRobots({ groups: policy.groups ?? [], ...sitemapsOf(policy) }, comment);
}

function sitemapsOf(policy: RobotsPolicy | PurposePolicy): { sitemaps?: readonly string[] } {
  return policy.sitemaps === undefined ? {} : { sitemaps: policy.sitemaps };
}
