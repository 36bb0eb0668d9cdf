/**
 * A polite crawler that turns a website into a correct sitemap: robots.txt first for every
 * origin, then the sitemaps it names, then pages by priority, with per-origin rate limits,
 * crash-safe state in SQLite, and a typed event stream.
 *
 * @example
 * ```ts
 * import { crawl } from 'waymark/crawl';
 * const summary = await crawl({ start: 'https://example.com/', write: (pages) => console.log([...pages].length) });
 * ```
 *
 * @module
 */
export type { CrawlRun, CrawlRunOptions } from './crawl.ts';
export { crawl } from './crawl.ts';
export type {
  CompleteOptions,
  CrawlResult,
  CrawlResultFields,
  CrawlState,
  Frontier,
  FrontierCounts,
  FrontierItem,
  FrontierKind,
  TakenItem,
  TakeOptions,
} from './frontier.ts';
export { CRAWL_DEFAULTS } from './internal/crawl-defaults.ts';
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
