/**
 * What a crawler is for, as its operator documents it (its main purpose when it has several).
 *
 * - `search`: a search engine's index (Googlebot, Bingbot, Applebot).
 * - `ai-training`: collects pages to train generative models (GPTBot, ClaudeBot, CCBot), and
 *   control tokens that only say whether pages may be used so (Google-Extended).
 * - `ai-search`: indexes pages for answers in an AI search product (OAI-SearchBot).
 * - `ai-user-fetch`: fetches a page because a person asked an assistant to (ChatGPT-User).
 * - `ai-agent`: acts on pages for a person (browses, fills forms).
 * - `seo`: SEO and marketing tools (AhrefsBot, SemrushBot).
 * - `archive`: web archives (ia_archiver).
 * - `other`: anything else (link previews, monitoring, research).
 */
export type CrawlerPurpose =
  | 'search'
  | 'ai-training'
  | 'ai-search'
  | 'ai-user-fetch'
  | 'ai-agent'
  | 'seo'
  | 'archive'
  | 'other';

/**
 * Every {@link CrawlerPurpose}, in the order the audit and `waymark robots agents` list them.
 *
 * @example
 * ```ts
 * CRAWLER_PURPOSES.includes('ai-training'); // true
 * ```
 */
export const CRAWLER_PURPOSES: readonly CrawlerPurpose[] = Object.freeze([
  'search',
  'ai-training',
  'ai-search',
  'ai-user-fetch',
  'ai-agent',
  'seo',
  'archive',
  'other',
]);

/** How to tell the real crawler from an impostor using its name. */
export interface CrawlerVerification {
  /** Domain suffixes its reverse DNS names end with (`googlebot.com`). */
  readonly reverseDns?: readonly string[];
  /** URL of the operator's published list of the crawler's IP ranges. */
  readonly ipRanges?: string;
}

/** One crawler of a {@link CrawlerRegistry}, with the facts its operator documents. */
export interface KnownCrawler {
  /** The robots.txt product token as the operator documents it (`GPTBot`). */
  readonly token: string;
  readonly operator: string;
  readonly purpose: CrawlerPurpose;
  readonly description: string;
  /** The operator documents that it obeys robots.txt (`true`), that it does not (`false`), or neither (`null`). */
  readonly honoursRobotsTxt: boolean | null;
  /** The same for `Crawl-delay` (Google documents that it ignores it). */
  readonly honoursCrawlDelay: boolean | null;
  /**
   * `false` for a control token that never fetches on its own (Google-Extended): it only
   * reads the robots.txt group that names it.
   */
  readonly fetches: boolean;
  /** The operator's page about the crawler. */
  readonly documentation: string;
  readonly verify: CrawlerVerification;
  /**
   * Tokens whose group applies when no group names this one, in order (Google documents
   * that `Googlebot-Image` follows `Googlebot`'s group then).
   */
  readonly fallback?: readonly string[];
  /**
   * `true` when the operator documents that the crawler ignores the `*` group, so that only
   * a group naming it (or a `fallback` token) restricts it: Google's special-case crawlers
   * such as AdsBot-Google.
   */
  readonly ignoresGlobalGroup?: boolean;
  readonly notes?: string;
  /** The page the facts came from. */
  readonly source: string;
  /** The date (YYYY-MM-DD) the source confirmed the facts. */
  readonly checked: string;
}

/** A dated list of known crawlers: the bundled {@link KNOWN_CRAWLERS}, or your own. */
export interface CrawlerRegistry {
  /** The date (YYYY-MM-DD) the registry as a whole was last checked. */
  readonly checked: string;
  readonly crawlers: readonly KnownCrawler[];
}

/**
 * `extra` laid over `base`: a crawler of `extra` replaces the one of `base` with the same
 * token (compared case-insensitively, as robots.txt compares them) in its place; the others
 * are added at the end. The result is dated with the earlier of the two dates, since some
 * of its facts were checked then.
 *
 * @example
 * ```ts
 * const mine = parseCrawlerRegistry(await readFile('crawlers.json', 'utf8')).registry;
 * const registry = mergeCrawlerRegistries(KNOWN_CRAWLERS, mine);
 * ```
 */
export function mergeCrawlerRegistries(
  base: CrawlerRegistry,
  extra: CrawlerRegistry,
): CrawlerRegistry {
  const replacements = new Map<string, KnownCrawler>();
  for (const crawler of extra.crawlers) {
    const key = crawler.token.toLowerCase();
    if (!replacements.has(key)) replacements.set(key, crawler);
  }
  const used = new Set<string>();
  const crawlers: KnownCrawler[] = [];
  for (const crawler of base.crawlers) {
    const key = crawler.token.toLowerCase();
    if (used.has(key)) continue;
    used.add(key);
    crawlers.push(replacements.get(key) ?? crawler);
  }
  for (const [key, crawler] of replacements) {
    if (used.has(key)) continue;
    used.add(key);
    crawlers.push(crawler);
  }
  return { checked: earlierDate(base.checked, extra.checked), crawlers };
}

/** The earlier of two YYYY-MM-DD dates; an empty date counts as unknown, not as earliest. */
function earlierDate(a: string, b: string): string {
  if (a === '') return b;
  if (b === '') return a;
  return a < b ? a : b;
}

/**
 * The crawlers of `registry` with the given purposes (all when `purposes` is empty), in
 * registry order.
 *
 * @example
 * ```ts
 * crawlersByPurpose(KNOWN_CRAWLERS, ['ai-training']).map((c) => c.token); // ['GPTBot', ...]
 * ```
 */
export function crawlersByPurpose(
  registry: CrawlerRegistry,
  purposes: readonly CrawlerPurpose[] = [],
): KnownCrawler[] {
  return registry.crawlers.filter(
    (crawler) => purposes.length === 0 || purposes.includes(crawler.purpose),
  );
}

/**
 * The crawler of `registry` with this product token (case-insensitive), or undefined.
 *
 * @example
 * ```ts
 * findCrawler(KNOWN_CRAWLERS, 'gptbot')?.operator; // 'OpenAI'
 * ```
 */
export function findCrawler(registry: CrawlerRegistry, token: string): KnownCrawler | undefined {
  const wanted = token.toLowerCase();
  return registry.crawlers.find((crawler) => crawler.token.toLowerCase() === wanted);
}

/**
 * True for the purposes of AI products: `ai-training`, `ai-search`, `ai-user-fetch`,
 * `ai-agent`.
 *
 * @example
 * ```ts
 * isAiPurpose('ai-search'); // true
 * ```
 */
export function isAiPurpose(purpose: CrawlerPurpose): boolean {
  return purpose.startsWith('ai-');
}
