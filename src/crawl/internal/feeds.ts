import { openRequest } from '../../http/internal/open-request.ts';
import type { RobotsTxt } from '../../robots/index.ts';
import { errorMessage } from '../../shared/error-message.ts';
import { readSitemap } from '../../sitemap/index.ts';
import type { CrawlState } from '../crawl-state.ts';
import type { WaitForTurn } from './host-turn.ts';
import { type RequestContext, requestOptions } from './request-context.ts';
import type { RobotsGate } from './robots-gate.ts';

/** URLs that are usually feeds: `/feed`, `/rss`, `/atom`, `.rss`, `.atom`, `atom.xml`, `rss.xml`, `feed.xml`. */
const FEED_PATH =
  /(?:^|\/)(?:feed|rss|atom)(?:\/|$)|\.(?:rss|atom)$|(?:^|\/)(?:atom|rss|feed)\.xml$/i;

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5';

export function looksLikeFeed(url: string): boolean {
  return FEED_PATH.test(URL.parse(url)?.pathname ?? '');
}

export interface ConfirmFeedsOptions {
  /** Whether robots.txt lets the crawler fetch `url`. */
  readonly allowed: (url: string) => Promise<boolean>;
  /** Waits for the origin's turn before each request. */
  readonly waitForTurn: WaitForTurn;
  readonly context: RequestContext;
  readonly warn: (message: string) => Promise<void>;
}

/**
 * The candidates that really are feeds, sorted: each is fetched (when robots.txt allows) and
 * read with the sitemap reader, and kept when it reads as RSS or Atom.
 */
export async function confirmFeeds(
  candidates: readonly string[],
  options: ConfirmFeedsOptions,
): Promise<string[]> {
  const feeds: string[] = [];
  for (const url of [...candidates].sort()) {
    if (!(await options.allowed(url))) continue;
    try {
      const response = await openRequest(
        url,
        requestOptions(options.context, FEED_ACCEPT, options.waitForTurn),
      );
      if (response.status !== 200) {
        await response.cancel();
        continue;
      }
      const contentType = response.header('content-type');
      const { kind } = await readSitemap(response.body, {
        url: response.url,
        ...(contentType ? { contentType } : {}),
      });
      if (kind === 'rss' || kind === 'atom') feeds.push(url);
    } catch (error) {
      options.context.signal?.throwIfAborted();
      await options.warn(`feed ${url} could not be read: ${errorMessage(error)}`);
    }
  }
  return feeds;
}

export interface FeedHostRobotsOptions {
  readonly state: CrawlState;
  readonly robots: RobotsGate;
  readonly respectRobots: boolean;
  /** How long to wait before asking again while another worker fetches the file. */
  readonly pollMs: number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly signal: AbortSignal | undefined;
}

/**
 * A host's robots.txt before a feed of it is fetched: as the crawl state records it, else
 * fetched first (a resumed SQLite state keeps no host's outcome, and a feed may be on a host
 * no page of the crawl was on, with `canonicalHost`). Waits while another worker fetches it
 * (its claim passes on if that worker dies). Undefined when robots.txt is not obeyed.
 */
export async function feedHostRobots(
  origin: string,
  options: FeedHostRobotsOptions,
): Promise<RobotsTxt | undefined> {
  if (!options.respectRobots) return undefined;
  for (;;) {
    const known = await options.robots.known(origin);
    if (known !== null) return known;
    const claim = await options.state.claimRobots(origin);
    if (claim === 'fetch') return options.robots.fetch(origin);
    if (claim === 'known') return (await options.robots.known(origin)) ?? undefined;
    await options.sleep(options.pollMs, options.signal);
  }
}
