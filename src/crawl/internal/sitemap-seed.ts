import { openRequest } from '../../http/internal/open-request.ts';
import type { RobotsTxt } from '../../robots/index.ts';
import { printable } from '../../shared/printable.ts';
import type { SitemapReport } from '../../sitemap/index.ts';
import {
  canonical,
  type SitemapCandidate,
  type SitemapOpener,
  SitemapRefusal,
  sitemapResponseOf,
  walkSitemapsWith,
} from '../../sitemap/walk-sitemaps.ts';
import { MAX_REQUEST_URL_LENGTH, originOf as originOrNull } from '../../url/index.ts';
import type { FrontierItem } from '../crawl-state.ts';
import type { WaitForTurn } from './host-turn.ts';
import { PRIORITY_SITEMAP_URL } from './page-outcomes.ts';
import { FOLLOW_REDIRECTS, type RequestContext } from './request-context.ts';
import { fetchRobots } from './robots-fetch.ts';

/** URLs from the sitemaps go to the frontier this many at a time (one transaction each). */
const BATCH = 500;
/** Characters of a skipped URL shown in a warning. */
const SHOWN_URL_CHARS = 120;
/**
 * Skipped sitemaps warned about one by one; past that, one line counts the rest (a hostile
 * index can name the same refused sitemap a million times).
 */
const SKIP_WARNINGS = 10;

export interface SitemapSeedOptions {
  /** The sitemaps (or indexes) the crawled site's robots.txt names. */
  readonly fromRobots: readonly string[];
  /** Sitemaps the caller named: read wherever they are. */
  readonly given: readonly string[];
  /** Waits for the origin's turn before each request, like every other request. */
  readonly waitForTurn: WaitForTurn;
  /**
   * User agent, signal, and the time cap of every request (`--timeout`), sitemaps included;
   * sitemaps keep the walk's own size cap (50 MB by the protocol, five times a page's).
   */
  readonly context: RequestContext;
  /** The crawl's URL normalisation; null for a URL it does not crawl. */
  readonly normalize: (url: string) => string | null;
  /** On the crawl's site. */
  readonly onSite: (url: string) => boolean;
  readonly originOf: (url: string) => string;
  /** Queues a batch of the site's URLs from its sitemaps; the reading waits for it. */
  readonly add: (items: FrontierItem[]) => Promise<void> | void;
  /** Says why a sitemap or a URL in one was skipped. */
  readonly warn: (message: string) => Promise<void>;
  /** Each sitemap file's report, as the walk finishes with it. */
  readonly onReport?: (report: SitemapReport) => void;
}

/**
 * Reads the site's sitemaps as a stream and queues every URL on the site they name, ahead of
 * links, so orphan pages (no link reaches them) are crawled too. A sitemap that cannot be
 * read costs only itself; a throw (the crawl aborted) keeps what was queued before.
 *
 * Which sitemaps are read: the given ones; those on the crawled site (its origin, or its
 * host under the canonical-host rule); a child an index names on the index's own origin;
 * and a sitemap on another host only when that host's own robots.txt names it (sitemaps.org
 * cross-submission), which is fetched first, through the same polite fetch. Any other is
 * skipped with a warning that says why, as is a sitemap or URL longer than
 * `MAX_REQUEST_URL_LENGTH`.
 */
export async function seedFromSitemaps(options: SitemapSeedOptions): Promise<void> {
  const urls = [...options.fromRobots, ...options.given];
  if (urls.length === 0) return;
  const warnings: Promise<void>[] = [];
  const warn = (message: string) => warnings.push(options.warn(message));
  let batch: FrontierItem[] = [];
  let tooLong = 0;
  let firstTooLong = '';
  let skippedSitemaps = 0;
  const skipTooLong = (loc: string): void => {
    if (tooLong++ === 0) firstTooLong = loc;
  };
  try {
    const walk = walkSitemapsWith(
      urls,
      {
        userAgent: options.context.userAgent,
        timeoutMs: options.context.timeoutMs,
        ...(options.context.signal ? { signal: options.context.signal } : {}),
        // The crawl's own rule (below) decides for children on other origins too.
        allowCrossOrigin: true,
        checkSitemap: sitemapRule(options),
        onSitemap: (report) => {
          options.onReport?.(report);
          const message = skipWarning(report);
          if (message !== null && ++skippedSitemaps <= SKIP_WARNINGS) warn(message);
        },
      },
      sitemapOpener(options),
    );
    for await (const { entry } of walk) {
      // The length as written first (no parse for a URL of megabytes), then as serialised.
      if (entry.loc.length > MAX_REQUEST_URL_LENGTH) {
        skipTooLong(entry.loc);
        continue;
      }
      const url = options.normalize(entry.loc);
      if (url !== null && url.length > MAX_REQUEST_URL_LENGTH) {
        skipTooLong(entry.loc);
        continue;
      }
      if (url === null || !options.onSite(url)) continue;
      batch.push({
        url,
        origin: options.originOf(url),
        priority: PRIORITY_SITEMAP_URL,
        depth: 0,
        via: 'sitemap',
        kind: 'sitemap',
        lastmod: entry.lastmod ?? null,
      });
      if (batch.length >= BATCH) {
        const full = batch;
        batch = [];
        await options.add(full);
      }
    }
  } finally {
    try {
      // What was read before a failure is queued all the same.
      if (batch.length > 0) await options.add(batch);
    } finally {
      if (skippedSitemaps > SKIP_WARNINGS) {
        warn(`${skippedSitemaps - SKIP_WARNINGS} more sitemaps not read, for the reasons above`);
      }
      if (tooLong > 0) {
        warn(
          `${tooLong} URL${tooLong === 1 ? '' : 's'} in the sitemaps ${tooLong === 1 ? 'is' : 'are'} longer than ${MAX_REQUEST_URL_LENGTH} characters and skipped (first: ${shown(firstTooLong)})`,
        );
      }
      await Promise.all(warnings);
    }
  }
}

/**
 * The crawl's rule for which sitemaps are read (see {@link seedFromSitemaps}): true, or the
 * reason to skip. Another host's robots.txt is fetched once per host.
 */
function sitemapRule(options: SitemapSeedOptions) {
  const given = new Set(options.given.map(canonical));
  const robotsByOrigin = new Map<string, Promise<RobotsTxt>>();
  const robotsOf = (origin: string): Promise<RobotsTxt> => {
    let robots = robotsByOrigin.get(origin);
    if (robots === undefined) {
      robots = fetchRobots(origin, options.context, options.waitForTurn).then(
        (result) => result.robots,
      );
      robotsByOrigin.set(origin, robots);
    }
    return robots;
  };
  return async ({ url, parent, parentFinalUrl }: SitemapCandidate): Promise<true | string> => {
    if (parent === null && given.has(canonical(url))) return true;
    const origin = originOrNull(url);
    // Not an http(s) URL: the request refuses it and the walk reports why.
    if (origin === null || options.onSite(url)) return true;
    if (origin === originOrNull(parent ?? '') || origin === originOrNull(parentFinalUrl ?? '')) {
      return true;
    }
    const robots = await robotsOf(origin);
    if (robots.sitemaps.some((named) => canonical(named) === canonical(url))) return true;
    const named = parent === null ? 'robots.txt' : 'an index';
    return `named by ${named} but not on the crawled site, and ${origin}/robots.txt does not name it (sitemaps.org cross-submission)`;
  };
}

/**
 * The walk's requests, over the crawl's transport (the caller's fetch, or waymark's own),
 * each redirect hop waiting for its host's turn.
 */
function sitemapOpener(options: SitemapSeedOptions): SitemapOpener {
  return async (url, request) => {
    const named = originOrNull(url);
    const response = await openRequest(url, {
      ...request,
      fetch: options.context.fetch,
      ...FOLLOW_REDIRECTS,
      beforeSend: async (hop, signal) => {
        // A redirect may not take a sitemap where it could not have been named: off its own
        // origin and off the crawled site (a 302 to a host inside the crawler's network).
        if (originOrNull(hop) !== named && !options.onSite(hop)) {
          throw new SitemapRefusal(
            `it redirects to ${shown(hop)}, off its own origin and the crawled site`,
          );
        }
        await options.waitForTurn(hop, signal);
      },
    });
    return sitemapResponseOf(response);
  };
}

/**
 * The warning for a sitemap that was not read (the crawl's rules refused it, it failed, timed
 * out or answered an error); null when it was read, or named again (read once already).
 */
function skipWarning(report: SitemapReport): string | null {
  if (report.skipCode === null || report.skipCode === 'duplicate') return null;
  return `sitemap ${shown(report.url)} not read: ${report.skipped}`;
}

function shown(url: string): string {
  const text = printable(url);
  return text.length > SHOWN_URL_CHARS ? `${text.slice(0, SHOWN_URL_CHARS)}…` : text;
}
