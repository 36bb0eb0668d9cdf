import type { CrawlState } from '../crawl-state.ts';
import type { CrawlSummary } from '../types.ts';
import type { OpenedCrawl } from './crawl-record.ts';
import type { SharedCrawlOptions } from './crawl-settings.ts';
import type { RobotsGate, RobotsUnreachable } from './robots-gate.ts';

/** What a worker's run found, beside the results in the crawl state. */
export interface CrawlRunFacts {
  readonly start: string;
  readonly shared: SharedCrawlOptions;
  readonly durationMs: number;
  readonly stoppedBy: CrawlSummary['stoppedBy'];
  /** URLs still queued when `maxPages` stopped the crawl. */
  readonly queuedAtStop: number;
  /** On-site links not followed because of `maxDepth`, over the whole crawl. */
  readonly depthCut: number;
  readonly sitemapUrls: number;
  /** How the start origin's robots.txt failed, when it did. */
  readonly robotsUnreachable: RobotsUnreachable | null;
  /** This run writes the crawl's output: it claimed the finish, or found the crawl finished. */
  readonly writes: boolean;
}

/** How a run ended, as the worker saw it. */
export interface RunEnd {
  readonly began: number;
  readonly now: number;
  readonly stoppedBy: CrawlSummary['stoppedBy'];
  readonly queuedAtStop: number;
  readonly writes: boolean;
  /** On-site URLs this worker queued from the sitemaps (they count when their reading was cut). */
  readonly sitemapsQueued: number;
}

/** The facts of a run, the crawl-wide ones read from the state. */
export async function runFacts(
  state: CrawlState,
  crawl: OpenedCrawl,
  robots: RobotsGate,
  end: RunEnd,
): Promise<CrawlRunFacts> {
  const record = (await state.crawl()) ?? crawl.record;
  let { stoppedBy, queuedAtStop } = end;
  // A crawl found finished says what stopped it then.
  if (
    record.finishedAt !== null &&
    stoppedBy === null &&
    record.requested >= crawl.shared.maxPages
  ) {
    queuedAtStop = (await state.counts()).queued;
    if (queuedAtStop > 0) stoppedBy = 'max-pages';
  }
  return {
    start: crawl.start,
    shared: crawl.shared,
    durationMs: Math.max(1, end.now - end.began),
    stoppedBy,
    queuedAtStop,
    depthCut: record.depthCut,
    sitemapUrls: record.sitemapsRead ? record.sitemapUrls : end.sitemapsQueued,
    robotsUnreachable: await robots.unreachable(new URL(crawl.start).origin),
    writes: end.writes,
  };
}

/** What a crawl warns of as it starts: limits off, and a start URL its own filters leave out. */
export function startWarnings(crawl: OpenedCrawl, passes: (url: string) => boolean): string[] {
  const { shared, start } = crawl;
  const warnings: string[] = [];
  if (shared.rate === 0) {
    warnings.push(
      'rate limit off (--rate 0): Crawl-delay is ignored too; crawl only sites you own this way',
    );
  }
  if (!shared.respectRobots) {
    warnings.push('robots.txt is ignored (--ignore-robots): crawl only sites you own this way');
  }
  if (!passes(start)) {
    warnings.push(
      `the start URL ${start} does not pass --include/--exclude: it is fetched for its links but not listed`,
    );
  }
  return warnings;
}
