import type { CrawlResultFields, FrontierItem, TakenItem } from '../crawl-state.ts';
import type { CrawlEvent, SkipReason } from '../types.ts';
import type { SharedCrawlOptions } from './crawl-settings.ts';
import { FEEDS_KEY, pageData } from './feed-candidates.ts';
import type { PageOutcome } from './page-fetch.ts';

/** Frontier priorities: lower runs first. robots.txt is fetched outside the frontier, first. */
export const PRIORITY_SITEMAP_URL = 10;
export const PRIORITY_LINK = 100;

/** What the crawler does with a page once its outcome is known. */
export type PageDecision =
  | {
      readonly kind: 'record';
      readonly result: CrawlResultFields;
      readonly discovered: FrontierItem[];
      readonly event: CrawlEvent;
      /** Set for a URL left out, to count it by reason. */
      readonly skipped: SkipReason | null;
      /** On-site links not followed because they are deeper than `maxDepth`. */
      readonly depthCut?: number;
      /** On-site feeds the page names (with `feeds`); also kept in `result.data`. */
      readonly feeds?: readonly string[];
    }
  /** 429 or 503 with tries left: back in the queue, not before `until` (epoch ms). */
  | { readonly kind: 'retry'; readonly until: number };

/** What deciding needs from the crawl: its options and its view of URLs. */
export interface DecisionContext {
  readonly options: SharedCrawlOptions;
  /** `normalizeUrl` with the crawl's options; null for a URL that is not crawlable. */
  normalize(url: string, base?: string): string | null;
  /** On the crawl's site (its origin, or www. and bare host with `canonicalHost`). */
  onSite(url: string): boolean;
  /** Passes `include` and `exclude`. */
  passes(url: string): boolean;
  /** The origin of a URL `normalize` accepted. */
  originOf(url: string): string;
  readonly now: () => number;
}

/** A decision to record a result (not to retry). */
export type RecordDecision = Extract<PageDecision, { kind: 'record' }>;

/**
 * A URL left out: recorded with its reason, and the URLs it led to still queued. The feeds
 * a page left out names are kept with its result, for the run that confirms them.
 */
export function skipped(
  item: TakenItem,
  reason: SkipReason,
  status: number | null,
  detail: string | null,
  discovered: FrontierItem[] = [],
  feeds: readonly string[] = [],
): RecordDecision {
  return {
    kind: 'record',
    result: {
      status,
      outcome: 'skipped',
      reason,
      lastmod: null,
      finalUrl: null,
      data: pageData(detail, feeds),
    },
    discovered,
    event: { type: 'skipped', url: item.url, reason, status, detail },
    skipped: reason,
  };
}

/** The decision for a fetched page: in the sitemap or why not, and what it links to. */
export function decidePage(
  item: TakenItem,
  outcome: PageOutcome,
  context: DecisionContext,
): PageDecision {
  switch (outcome.kind) {
    case 'failed':
      return {
        kind: 'record',
        // The reason is the short cause (what a summary groups by), the data the whole message.
        result: {
          status: null,
          outcome: 'error',
          reason: outcome.cause,
          lastmod: null,
          finalUrl: null,
          data: outcome.message,
        },
        discovered: [],
        event: { type: 'error', url: item.url, message: outcome.message },
        skipped: null,
      };
    case 'status': {
      const { status } = outcome;
      const reason =
        status >= 500 ? 'server-error' : status >= 400 ? 'client-error' : 'unexpected-status';
      return skipped(item, reason, status, null);
    }
    case 'non-html':
      return skipped(item, 'non-html', outcome.status, outcome.contentType);
    case 'retry':
      return retry(item, outcome.status, outcome.afterMs, context);
    case 'redirect':
      return redirect(item, outcome.status, outcome.location, context);
    case 'html':
      return html(item, outcome, context);
  }
}

function retry(
  item: TakenItem,
  status: number,
  afterMs: number | null,
  context: DecisionContext,
): PageDecision {
  // `attempt` counts this item's earlier tries, across interruptions and resumes too.
  const attempts = item.attempt - 1;
  if (attempts >= context.options.maxRetries) {
    return skipped(item, 'server-error', status, `still ${status} after ${attempts} retries`);
  }
  // Retry-After when the server gives one (capped at 10 minutes), else back off exponentially.
  const wait = Math.min(afterMs ?? 1000 * 2 ** attempts, 600_000);
  return { kind: 'retry', until: context.now() + wait };
}

function redirect(
  item: TakenItem,
  status: number,
  location: string | null,
  context: DecisionContext,
): PageDecision {
  const target = location === null ? null : context.normalize(location, item.url);
  if (target === null) return skipped(item, 'redirect', status, 'no usable Location');
  if (!context.onSite(target)) return skipped(item, 'redirect-off-origin', status, target);
  // The count travels with the item, so the limit holds whichever worker takes each hop.
  const redirects = item.redirects + 1;
  if (redirects > context.options.maxRedirects) {
    return skipped(item, 'too-many-redirects', status, target);
  }
  const next: FrontierItem = {
    url: target,
    origin: context.originOf(target),
    priority: item.priority,
    depth: item.depth,
    via: item.url,
    kind: item.kind,
    redirects,
  };
  return skipped(item, 'redirect', status, target, [next]);
}

function html(
  item: TakenItem,
  outcome: Extract<PageOutcome, { kind: 'html' }>,
  context: DecisionContext,
): PageDecision {
  const { options } = context;
  const { facts } = outcome;
  const discovered: FrontierItem[] = [];
  const depth = item.depth + 1;
  const follow = !facts.robots.nofollow && !outcome.headerNofollow;
  const tooDeep = depth > options.maxDepth;
  let depthCut = 0;
  // Each URL once per page: links that differ only in a fragment are one link, and the
  // state counts every discovered item as one in-link of its URL.
  const found = new Set<string>();
  if (follow) {
    const { links } = facts;
    // Indexed, not for-of: Maglev keeps the iterator's result object per link.
    for (let i = 0; i < links.length; i++) {
      const url = context.normalize(links[i] as string);
      if (url === null || found.has(url) || !context.onSite(url) || !context.passes(url)) continue;
      found.add(url);
      if (tooDeep) {
        depthCut++;
        continue;
      }
      discovered.push({
        url,
        origin: context.originOf(url),
        priority: PRIORITY_LINK,
        depth,
        via: item.url,
        kind: 'page',
      });
    }
  }
  // Kept with the page's result, whatever it is: the run that confirms feeds reads them
  // from the crawl state, as every worker and every earlier run recorded them.
  const feeds = options.feeds ? namedFeeds(facts.feeds, context) : [];
  const canonical = facts.canonical === null ? null : context.normalize(facts.canonical);
  if (canonical !== null && canonical !== item.url) {
    // A step deeper, as a link is: a chain of canonicals (`/c?n=1` names `/c?n=2`, ...) is
    // otherwise a trap that --max-depth never cuts.
    if (context.onSite(canonical) && !found.has(canonical) && context.passes(canonical)) {
      if (tooDeep) depthCut++;
      else {
        discovered.push({
          url: canonical,
          origin: context.originOf(canonical),
          priority: PRIORITY_LINK,
          depth,
          via: item.url,
          kind: 'page',
        });
      }
    }
    return {
      ...skipped(item, 'canonical-elsewhere', outcome.status, canonical, discovered, feeds),
      depthCut,
      feeds,
    };
  }
  if (facts.robots.noindex) {
    const left = skipped(item, 'noindex-meta', outcome.status, null, discovered, feeds);
    return { ...left, depthCut, feeds };
  }
  if (outcome.headerNoindex) {
    const left = skipped(item, 'noindex-header', outcome.status, null, discovered, feeds);
    return { ...left, depthCut, feeds };
  }
  const data: Record<string, unknown> = {};
  if (options.hreflang && facts.alternates.length > 0) data['alternates'] = facts.alternates;
  if (options.images && facts.images.length > 0) {
    data['images'] = facts.images.map((image) => ({ loc: image.loc }));
  }
  if (feeds.length > 0) data[FEEDS_KEY] = feeds;
  return {
    kind: 'record',
    result: {
      status: outcome.status,
      outcome: 'listed',
      reason: null,
      lastmod: options.lastmod === 'none' ? null : outcome.header.lastModified,
      finalUrl: null,
      data: Object.keys(data).length > 0 ? JSON.stringify(data) : null,
    },
    discovered,
    event: {
      type: 'fetched',
      url: item.url,
      status: outcome.status,
      listed: true,
      links: discovered.length,
    },
    skipped: null,
    depthCut,
    feeds,
  };
}

/** The on-site feeds a page names (`<link rel="alternate">`), normalised, each once. */
function namedFeeds(links: readonly { readonly href: string }[], context: DecisionContext) {
  const feeds = new Set<string>();
  for (const link of links) {
    const url = context.normalize(link.href);
    if (url !== null && context.onSite(url)) feeds.add(url);
  }
  return [...feeds];
}
