// The counts of a crawl, read from its state one result at a time: what the crawl's summary
// reports and the crawl report shows, counted by one piece of code so the two always agree.
import { type LastmodSanity, LastmodSanityCheck } from '../../sitemap/lastmod-sanity.ts';
import type { CrawlResult, CrawlResultFields } from '../crawl-state.ts';
import type { SitemapComparison, SiteUnreachable, SkipReason } from '../types.ts';
import type { SharedCrawlOptions } from './crawl-settings.ts';
import type { RobotsUnreachable } from './robots-gate.ts';

/** Orphans and missing pages named in the comparison, at most. */
const SAMPLE = 1000;

export interface CrawlTotals {
  readonly fetched: number;
  readonly listed: number;
  readonly errors: number;
  readonly skipped: Partial<Record<SkipReason, number>>;
  readonly comparison: SitemapComparison;
  /** The lastmod checks over what the site's sitemaps say of each URL. */
  readonly lastmod: LastmodSanity;
  /** The start page's result, when it has one. */
  readonly startResult: CrawlResult | null;
}

/**
 * Counts over every result of the crawl, so a resumed crawl reports all of it, as the same
 * crawl without interruption would: pages requested, listed, left out by reason, failed,
 * the comparison with the site's sitemaps, and the lastmod checks over what they say. Feed
 * it each result with {@link add}.
 */
export class CrawlTally {
  readonly #start: string;
  #fetched = 0;
  #listed = 0;
  #errors = 0;
  #startResult: CrawlResult | null = null;
  readonly #skipped: Partial<Record<SkipReason, number>> = {};
  readonly #comparison = {
    orphans: 0,
    missing: 0,
    orphanUrls: [] as string[],
    missingUrls: [] as string[],
  };

  readonly #lastmod: LastmodSanityCheck;

  /**
   * `start`: the crawl's normalised start URL. `sitemapReadAt`: when each of the site's
   * sitemap files was read (`SitemapFileRecord.readAt`), for the lastmod checks.
   */
  constructor(start: string, sitemapReadAt: readonly number[] = []) {
    this.#start = start;
    this.#lastmod = new LastmodSanityCheck({ readAt: sitemapReadAt });
  }

  add(result: CrawlResult): void {
    if (result.url === this.#start) this.#startResult = result;
    const lastmod = result.sitemapLastmod;
    if (typeof lastmod === 'string') {
      this.#lastmod.add({
        loc: result.url,
        lastmod,
        lastModified: result.facts?.lastModified ?? null,
      });
    }
    if (wasRequested(result)) this.#fetched++;
    if (result.outcome === 'error') this.#errors++;
    if (result.outcome === 'skipped' && result.reason !== null) {
      const reason = result.reason as SkipReason;
      this.#skipped[reason] = (this.#skipped[reason] ?? 0) + 1;
    }
    if (result.outcome !== 'listed') return;
    this.#listed++;
    const comparison = this.#comparison;
    if (result.inSitemap && !result.linked) {
      comparison.orphans++;
      if (comparison.orphanUrls.length < SAMPLE) comparison.orphanUrls.push(result.url);
    } else if (result.linked && !result.inSitemap) {
      comparison.missing++;
      if (comparison.missingUrls.length < SAMPLE) comparison.missingUrls.push(result.url);
    }
  }

  get totals(): CrawlTotals {
    return {
      fetched: this.#fetched,
      listed: this.#listed,
      errors: this.#errors,
      skipped: this.#skipped,
      comparison: this.#comparison,
      lastmod: this.#lastmod.result(),
      startResult: this.#startResult,
    };
  }
}

/** The {@link CrawlTotals} of every result in `results`. */
export async function tally(
  results: AsyncIterable<CrawlResult>,
  start: string,
  sitemapReadAt: readonly number[] = [],
): Promise<CrawlTotals> {
  const counted = new CrawlTally(start, sitemapReadAt);
  for await (const result of results) counted.add(result);
  return counted.totals;
}

/** What decides whether the site could be crawled, beside the totals. */
export interface ReachFacts {
  readonly start: string;
  readonly shared: Pick<SharedCrawlOptions, 'respectRobots' | 'robotsError'>;
  /** How the start origin's robots.txt failed, when it did. */
  readonly robotsUnreachable: RobotsUnreachable | null;
}

/**
 * Why the site could not be crawled: its robots.txt could not be had and RFC 9309 says to
 * crawl nothing, or (nothing listed) the start page itself failed.
 */
export function siteUnreachable(facts: ReachFacts, totals: CrawlTotals): SiteUnreachable | null {
  const origin = new URL(facts.start).origin;
  const robots = facts.robotsUnreachable;
  const obeyed = facts.shared.respectRobots && facts.shared.robotsError !== 'allow';
  if (robots !== null && obeyed) {
    const where = `${origin}/robots.txt`;
    if (robots.status === 'network-error') {
      const detail = robots.detail ?? 'network error';
      return {
        origin,
        cause: 'robots-txt',
        status: null,
        detail,
        message: `site unreachable: ${detail} (${where}); RFC 9309 says crawl nothing`,
      };
    }
    return {
      origin,
      cause: 'robots-txt',
      status: robots.status,
      detail: null,
      message: `robots.txt answered ${robots.status}: RFC 9309 says crawl nothing (${where})`,
    };
  }
  const start = totals.startResult;
  if (totals.listed === 0 && start !== null && start.outcome === 'error') {
    const detail = start.reason ?? 'network error';
    return {
      origin,
      cause: 'start-page',
      status: null,
      detail,
      message: `site unreachable: ${detail} (${facts.start})`,
    };
  }
  return null;
}

/**
 * True for a result whose URL was requested: it has a status, or the request failed.
 * Left out before any request: robots.txt, the filters, a URL too long.
 */
function wasRequested(result: CrawlResultFields): boolean {
  return result.status !== null || result.outcome === 'error';
}
