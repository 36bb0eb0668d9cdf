import type { ResponseFacts, TakenItem } from '../crawl-state.ts';
import { CRAWL_DEFAULTS } from './crawl-defaults.ts';
import { fetchPage, type PageOutcome } from './page-fetch.ts';
import { type DecisionContext, decidePage, type PageDecision, skipped } from './page-outcomes.ts';
import type { RequestContext } from './request-context.ts';
import type { RobotsGate } from './robots-gate.ts';

/** Characters of a page's title kept for the crawl report. */
const MAX_TITLE_CHARS = 1000;

/** What crawling one item needs. */
export interface PageWork {
  readonly robots: RobotsGate;
  readonly decision: DecisionContext;
  readonly context: RequestContext;
  /** The normalised start URL: fetched whatever the filters say. */
  readonly start: string;
}

/** What became of a taken item. */
export interface ItemOutcome {
  readonly decision: PageDecision;
  /** Its URL was requested (it counts against `maxPages`). */
  readonly requested: boolean;
}

/**
 * Crawls one taken item: robots.txt and the filters first, then the request. `decided` is
 * called once, as soon as it is known whether the URL will be requested (before the
 * request leaves; without a wait when this worker has the host's robots.txt), so the worker
 * can count it against `maxPages` before it takes more.
 */
export async function crawlItem(
  item: TakenItem,
  work: PageWork,
  decided: (requested: boolean) => void,
): Promise<ItemOutcome> {
  const leftOut = (decision: PageDecision): ItemOutcome => {
    decided(false);
    return { decision, requested: false };
  };
  if (item.url.length > CRAWL_DEFAULTS.maxUrlLength) {
    const detail = `${item.url.length} characters, more than ${CRAWL_DEFAULTS.maxUrlLength}`;
    return leftOut(skipped(item, 'url-too-long', null, detail));
  }
  // The state hands out items of hosts whose robots.txt outcome is recorded: this worker's
  // own fetch, or another worker's, read once.
  const robots = work.robots.cached(item.origin) ?? (await work.robots.known(item.origin));
  const verdict = work.robots.verdict(item.url, robots ?? undefined);
  if (verdict !== 'allowed') {
    const reason = verdict === 'unreachable' ? 'robots-unreachable' : 'robots-disallowed';
    return leftOut(skipped(item, reason, null, null));
  }
  // The start page is fetched whatever the filters say: the crawl goes on from its links.
  const excluded = !work.decision.passes(item.url);
  if (excluded && item.url !== work.start) {
    return leftOut(skipped(item, 'excluded', null, null));
  }
  decided(true);
  let decision: PageDecision;
  try {
    // Wall time, not the crawl's clock (tests inject one that does not move).
    const started = performance.now();
    const outcome = await fetchPage(item.url, work.context);
    const facts = responseFacts(outcome, performance.now() - started);
    decision = withFacts(decidePage(item, outcome, work.decision), facts);
  } catch (error) {
    work.context.signal?.throwIfAborted();
    return { decision: internalError(item, error), requested: true };
  }
  if (excluded && decision.kind === 'record' && decision.skipped === null) {
    const { discovered, feeds = [] } = decision;
    decision = skipped(item, 'excluded', decision.result.status, null, discovered, feeds);
  }
  return { decision, requested: true };
}

/** What the response said, kept with the page's result for the crawl report. */
function responseFacts(outcome: PageOutcome, ms: number): ResponseFacts {
  const header = outcome.kind === 'failed' ? null : outcome.header;
  const title = outcome.kind === 'html' ? outcome.facts.title : null;
  return {
    title: title === null ? null : title.slice(0, MAX_TITLE_CHARS),
    contentType: header?.mediaType ?? null,
    lastModified: header?.lastModified ?? null,
    ms: Math.round(ms),
  };
}

function withFacts(decision: PageDecision, facts: ResponseFacts): PageDecision {
  return decision.kind === 'record'
    ? { ...decision, result: { ...decision.result, facts } }
    : decision;
}

/**
 * A failure of the crawler itself on one page: recorded as the page's error, so the crawl
 * goes on and ends (an item left in flight would keep it open).
 */
function internalError(item: TakenItem, error: unknown): PageDecision {
  const message = `internal error: ${(error as Error)?.message ?? String(error)}`;
  return {
    kind: 'record',
    result: {
      status: null,
      outcome: 'error',
      reason: 'internal-error',
      lastmod: null,
      finalUrl: null,
      data: message,
    },
    discovered: [],
    event: { type: 'error', url: item.url, message },
    skipped: null,
  };
}
