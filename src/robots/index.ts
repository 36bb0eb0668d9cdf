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
export type {
  AuditFinding,
  CrawlerAudit,
  CrawlerMatch,
  CrawlerVerdict,
  PurposeAudit,
  PurposeVerdict,
  RobotsAudit,
  RobotsAuditOptions,
} from './agents/audit-robots.ts';
export { auditRobots } from './agents/audit-robots.ts';
export type {
  CrawlerPurpose,
  CrawlerRegistry,
  CrawlerVerification,
  KnownCrawler,
} from './agents/crawler-registry.ts';
export {
  CRAWLER_PURPOSES,
  crawlersByPurpose,
  findCrawler,
  isAiPurpose,
  mergeCrawlerRegistries,
} from './agents/crawler-registry.ts';
export { KNOWN_CRAWLERS } from './agents/known-crawlers.ts';
export type { CrawlerRegistryReading } from './agents/parse-crawler-registry.ts';
export { parseCrawlerRegistry } from './agents/parse-crawler-registry.ts';
export type { PurposeDecision, PurposePolicy } from './agents/purpose-policy.ts';
export { expandPurposePolicy } from './agents/purpose-policy.ts';
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
  RobotsPolicyUsage,
  RobotsReason,
  RobotsRule,
  RobotsSource,
  RobotsUsage,
  RobotsUsageReason,
  UsageField,
  UsagePreference,
} from './types.ts';
export type { UsageProblem, UsageStatement, UsageVocabulary } from './usage-statement.ts';
export { parseUsageStatement, USAGE_VOCABULARY } from './usage-statement.ts';
