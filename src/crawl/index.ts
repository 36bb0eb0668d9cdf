/**
 * A polite crawler that turns a website into a correct sitemap: robots.txt first for every
 * origin, then the sitemaps it names, then pages by priority, with per-origin rate limits,
 * crash-safe state (SQLite for one process; PostgreSQL, or any other `CrawlState`, for many
 * workers on one crawl), and a typed event stream.
 *
 * @example
 * ```ts
 * import { crawl } from 'waymark/crawl';
 * const summary = await crawl({ start: 'https://example.com/', write: async (pages) => { for await (const page of pages) console.log(page.loc); } });
 * ```
 *
 * @module
 */

export type { LastmodFinding, LastmodSanity } from '../sitemap/lastmod-sanity.ts';
export type { CrawlRun, CrawlRunOptions } from './crawl.ts';
export { crawl, crawlSitemapPages } from './crawl.ts';
export type {
  CrawlRecord,
  CrawlResult,
  CrawlResultFields,
  CrawlState,
  FinishedItem,
  FrontierCounts,
  FrontierItem,
  FrontierKind,
  HostRobots,
  HostRobotsOutcome,
  NewCrawl,
  ReleasedItem,
  ResponseFacts,
  SitemapFileRecord,
  StepRequest,
  StepResult,
  TakenItem,
} from './crawl-state.ts';
export { CRAWL_DEFAULTS } from './internal/crawl-defaults.ts';
export type { CrawlWorker, PostgresCrawlStateOptions } from './postgres/postgres-crawl-state.ts';
export { openPostgresCrawlState, PostgresCrawlState } from './postgres/postgres-crawl-state.ts';
export type { SqliteCrawlStateOptions } from './sqlite-crawl-state.ts';
export { openSqliteCrawlState, SqliteCrawlState } from './sqlite-crawl-state.ts';
export type {
  CrawlEvent,
  CrawlOptions,
  CrawlSummary,
  CrawlTruncation,
  SitemapComparison,
  SiteUnreachable,
  SkipReason,
} from './types.ts';
