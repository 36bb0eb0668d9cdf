/**
 * robots.txt, read and decided exactly as Google does (RFC 9309 plus Google's documented
 * behaviour): parse any bytes, check URLs with longest-match rules, explain which line
 * decided, and write a robots.txt from a policy.
 *
 * @example
 * ```ts
 * import { parseRobots } from 'waymark/robots';
 * const robots = parseRobots('User-agent: *\nDisallow: /private/\n');
 * robots.isAllowed('https://example.com/private/x', 'MyBot'); // false
 * ```
 *
 * @module
 */
export type { FormatRobotsOptions } from './format-robots.ts';
export { formatRobots } from './format-robots.ts';
export { pathForMatching } from './internal/url-path.ts';
export { isValidUserAgent, productToken } from './internal/user-agent.ts';
export { DEFAULT_MAX_ROBOTS_BYTES, parseRobots } from './parse-robots.ts';
export type { RobotsFetchStatus } from './robots-for-status.ts';
export { robotsForStatus } from './robots-for-status.ts';
export { RobotsTxt } from './robots-txt.ts';
export { scanRobots } from './scan-robots.ts';
export type {
  Diagnostic,
  ParseRobotsOptions,
  RobotsDirective,
  RobotsExplanation,
  RobotsGroup,
  RobotsLine,
  RobotsLineKind,
  RobotsPolicy,
  RobotsPolicyGroup,
  RobotsReason,
  RobotsRule,
  RobotsSource,
} from './types.ts';
