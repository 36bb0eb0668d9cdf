/**
 * What a crawler asks of its crawl state, whichever store holds it (an SQLite file for one
 * process, PostgreSQL for many workers on many machines): a deduplicating priority queue of
 * URLs split by host (origin), the politeness and robots.txt outcome of each host, and the
 * crawl's own record. Every step is durable, so a crawl can stop at any instant (even
 * `kill -9`) and go on without losing or repeating work.
 *
 * The state, not the crawler, decides when a host may be requested again: the crawl's gap
 * between requests, raised by the host's Crawl-delay and pushed back by Retry-After. With
 * many workers that is what keeps them polite together.
 *
 * @module
 */

import type { Diagnostic } from '../shared/diagnostic.ts';

/** What a URL is fetched for. */
export type FrontierKind = 'robots' | 'sitemap' | 'page';

/** A URL to crawl, as the crawler adds it. */
export interface FrontierItem {
  /** Absolute URL to fetch. Deduplicated under its normalised form. */
  readonly url: string;
  /** The host (origin) politeness is counted against, e.g. `https://example.com`. Not empty. */
  readonly origin: string;
  /** Lower is taken sooner. Any finite number. */
  readonly priority: number;
  /** Links followed from a seed: 0 for a seed. A non-negative integer. */
  readonly depth: number;
  /** Where the URL was found (the referring page or sitemap), or null for a seed. */
  readonly via: string | null;
  readonly kind: FrontierKind;
  /**
   * Redirects followed to reach this URL: 0 (the default) for a URL found by a link or a
   * sitemap; one more than its item's for a redirect's target. A non-negative integer. It
   * travels with the item, so `maxRedirects` holds whichever worker takes each hop.
   */
  readonly redirects?: number;
  /**
   * For an item named by a sitemap (kind `sitemap`): its `<lastmod>` there, as the sitemap
   * reader gave it; the state keeps the first one met, for the crawl report.
   */
  readonly lastmod?: string | null;
}

/** An item taken for crawling, from {@link CrawlState.step}. */
export interface TakenItem extends FrontierItem {
  /** The item's id in the state; stable for the life of the crawl. */
  readonly id: number;
  /**
   * 1 the first time an item is taken, counting every earlier take that ended in a release
   * or in an interruption (its worker stopped while it was in flight). A URL that keeps
   * crashing workers shows up as a growing attempt count. It is also the lease's fence: a
   * result is recorded only for the attempt that holds the item.
   */
  readonly attempt: number;
  /** As added (see {@link FrontierItem.redirects}); 0 when it was left out. */
  readonly redirects: number;
}

/** The outcome of crawling one item, as the crawler records it. */
export interface CrawlResultFields {
  /** HTTP status of the last response, or null when there was none (a network error). */
  readonly status: number | null;
  /** `listed`: belongs in the output; `skipped`: deliberately left out; `error`: failed. */
  readonly outcome: 'listed' | 'skipped' | 'error';
  /** Why it was skipped or failed (`robots-disallowed`, `noindex`, `timeout`, ...). */
  readonly reason: string | null;
  /** Last modification, as an ISO 8601 string, when known. */
  readonly lastmod: string | null;
  /** The URL that answered after redirects, when it differs from `url`. */
  readonly finalUrl: string | null;
  /** JSON text for extras such as hreflang alternates or images. */
  readonly data: string | null;
  /** What the response said about the page, for the crawl report; null or absent when none. */
  readonly facts?: ResponseFacts | null;
}

/** What a response said about its page, beyond its outcome: kept for the crawl report. */
export interface ResponseFacts {
  /** The HTML `<title>`, whitespace collapsed, at most 1,000 characters; null when none. */
  readonly title: string | null;
  /** The media type of the response, lower case, no parameters (`text/html`); null when none. */
  readonly contentType: string | null;
  /** The `Last-Modified` header, as ISO 8601; null when absent or unreadable. */
  readonly lastModified: string | null;
  /** Milliseconds from sending the request to the end of the body (or of the failure). */
  readonly ms: number | null;
}

/** A recorded result, from {@link CrawlState.results}: the item and its outcome. */
export interface CrawlResult extends CrawlResultFields {
  /** The URL as it was added. */
  readonly url: string;
  readonly kind: FrontierKind;
  readonly depth: number;
  readonly via: string | null;
  /** Reached by a link from a crawled page (the start page counts as linked). */
  readonly linked: boolean;
  /** Named by one of the site's own sitemaps (or reached by a redirect from such a URL). */
  readonly inSitemap: boolean;
  /**
   * How many times links on crawled pages led here (each page counted once; the start page,
   * redirects and sitemaps are not links), up to 1,000: at 1,000 it is at least that many.
   * Absent from states that do not count.
   */
  readonly inlinks?: number;
  /** How many times the site's sitemaps named this very URL (not a redirect to it). */
  readonly sitemaps?: number;
  /** Its `<lastmod>` in the first sitemap entry that named it, or null. */
  readonly sitemapLastmod?: string | null;
}

/** Item counts over the whole crawl (all workers). `seen` = `queued` + `inFlight` + `done`. */
export interface FrontierCounts {
  /** Waiting to be taken, including released items still held back. */
  readonly queued: number;
  readonly inFlight: number;
  readonly done: number;
  /** Every URL ever added. */
  readonly seen: number;
}

/** The crawl itself, as its state records it: what it is and how far it got. */
export interface CrawlRecord {
  /** The normalised start URL. */
  readonly start: string;
  /**
   * The crawl's options as the creating worker stored them (JSON text); a joining worker
   * crawls with these, so every worker crawls alike.
   */
  readonly options: string;
  /** Milliseconds between two requests to one host, before Crawl-delay: 1000 / rate, or 0. */
  readonly gapMs: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** The site's sitemaps have been read to the end (or there were none to read). */
  readonly sitemapsRead: boolean;
  /** On-site URLs the sitemaps named, as counted by the reading that finished. */
  readonly sitemapUrls: number;
  /** On-site links not followed because they lead past `maxDepth`, over all results. */
  readonly depthCut: number;
  /** Recorded results whose URL was requested (`FinishedItem.requested`), over all workers. */
  readonly requested: number;
  /** When a worker found the crawl finished and took the output (see `claimFinish`), or null. */
  readonly finishedAt: number | null;
}

/** What {@link CrawlState.create} stores. */
export interface NewCrawl {
  readonly start: string;
  readonly options: string;
  readonly gapMs: number;
}

/**
 * A host's robots.txt outcome, fetched by one worker and kept for all of them: enough to
 * rebuild the same `RobotsTxt` anywhere (`robotsForStatus(status, body, { url })`).
 */
export interface HostRobots {
  /** The status that decided, or `network-error`. */
  readonly status: number | 'network-error';
  /** For a network error, why (`ECONNREFUSED`, `timeout`, ...); otherwise null. */
  readonly detail: string | null;
  /** Where the file was read, after redirects. */
  readonly url: string;
  /** The file's bytes (at most what RFC 9309 says to read), for a 2xx; otherwise null. */
  readonly body: Uint8Array | null;
  /**
   * Milliseconds between requests to this host from now on: the crawl's gap, raised to the
   * host's Crawl-delay (as capped by the crawl's options).
   */
  readonly gapMs: number;
}

/**
 * One sitemap file the crawl read or tried to, as kept for the crawl report: the walk's
 * report of it, with its diagnostics capped (a hostile file can have millions).
 */
export interface SitemapFileRecord {
  readonly url: string;
  /** The index that named it, or null when robots.txt or the user did. */
  readonly parent: string | null;
  readonly status: number | null;
  /** `urlset`, `index`, `text`, `rss`, `atom`; null when it was not read. */
  readonly kind: string | null;
  /** URL entries in it, or child sitemaps for an index. */
  readonly entries: number;
  /** Why it was not read, or null. */
  readonly skipped: string | null;
  /** The first {@link SITEMAP_FILE_DIAGNOSTICS} diagnostics. */
  readonly diagnostics: readonly Diagnostic[];
  /** Diagnostics past those. */
  readonly diagnosticsDropped: number;
  /** When it was read, epoch milliseconds. */
  readonly readAt: number;
}

/** Diagnostics kept per sitemap file: see {@link SitemapFileRecord}. */
export const SITEMAP_FILE_DIAGNOSTICS = 100;

/** A host's robots.txt outcome as stored, from {@link CrawlState.robotsOutcomes}. */
export interface HostRobotsOutcome extends Omit<HostRobots, 'gapMs'> {
  /** `https://example.com` */
  readonly origin: string;
}

/** An item finished by this worker, to record (see {@link StepRequest.finished}). */
export interface FinishedItem {
  readonly item: TakenItem;
  readonly result: CrawlResultFields;
  /** The URLs it led to; recorded in the same transaction as the result. */
  readonly discovered: readonly FrontierItem[];
  /** On-site links it had that were not followed because they lead past `maxDepth`. */
  readonly depthCut: number;
  /** Its URL was requested (it counts against `maxPages`); false when left out before. */
  readonly requested: boolean;
}

/** An item in flight to put back (see {@link StepRequest.released}). */
export interface ReleasedItem {
  readonly item: TakenItem;
  /**
   * Epoch ms before which neither the item nor any other URL of its host is taken again
   * (Retry-After pauses the host for every worker), or null to queue it again at once.
   */
  readonly notBefore: number | null;
}

/** One step of a worker, applied in one transaction: see {@link CrawlState.step}. */
export interface StepRequest {
  /** Results to record, each in the same transaction that ends its lease. */
  readonly finished: readonly FinishedItem[];
  readonly released: readonly ReleasedItem[];
  /** Take up to this many items from hosts that are ready. 0 only records. */
  readonly take: number;
  /**
   * Take no more than `maxRequested - requested` items, `requested` as this step leaves it
   * (see {@link StepResult.requested}): the crawl's page limit less this worker's requests
   * not yet recorded, so the limit is checked against every worker's recorded pages of this
   * very transaction, not of the worker's previous step. Omitted: no limit.
   */
  readonly maxRequested?: number;
}

/** What a step did and found. */
export interface StepResult {
  /**
   * Taken items, each booked against its host: a host whose gap is above 0 gives at most
   * one item per step, and is not ready again until a gap later.
   */
  readonly taken: readonly TakenItem[];
  /**
   * Hosts whose robots.txt this worker is now to fetch, then report with
   * {@link CrawlState.settleRobots}: hosts with queued items and no robots.txt outcome that
   * no live worker is fetching. Each is booked as a request to that host.
   */
  readonly robots: readonly string[];
  /**
   * Finished items not recorded because their lease had passed to another worker (this
   * worker was taken for dead): the other worker's result counts.
   */
  readonly lost: number;
  /**
   * False when the crawl has nothing left anywhere: no item queued or in flight (in any
   * worker, this one's included), no robots.txt being fetched, and the sitemaps read.
   */
  readonly open: boolean;
  /**
   * Milliseconds until the soonest host with queued items is ready again, 0 when one is
   * ready now, or null when no queued item waits on a host's turn.
   */
  readonly waitMs: number | null;
  /** {@link CrawlRecord.requested} after this step: pages requested by all workers together. */
  readonly requested: number;
}

/**
 * A crawl's state: one crawl, shared by every worker that opened it. Implementations:
 * `openSqliteCrawlState` (one process) and `openPostgresCrawlState` (many workers). Both
 * pass one conformance suite.
 *
 * Calls are asynchronous and may be made concurrently by one worker; each is atomic. A
 * state whose store fails for a moment (a database restart) retries with backoff before it
 * gives up with an error.
 */
export interface CrawlState {
  /** Where the state lives, for messages: a file path, or `postgres <crawl> on <host>`. */
  readonly location: string;
  /**
   * The crawl's record, or null when the state holds no crawl yet.
   *
   * @example
   * ```ts
   * const record = await state.crawl();
   * if (record !== null && record.start !== start) throw new Error(`a crawl of ${record.start}`);
   * ```
   */
  crawl(): Promise<CrawlRecord | null>;
  /**
   * Creates the crawl, unless another worker did first: either way, returns the record now
   * stored, for the caller to compare with what it asked for.
   *
   * @example
   * ```ts
   * const record = await state.create({ start, options: JSON.stringify(options), gapMs: 250 });
   * ```
   */
  create(crawl: NewCrawl): Promise<CrawlRecord>;
  /**
   * Adds the items whose URL was never added before (under its normalised form, whatever
   * became of it), in one transaction; an item already known still gets marked as linked or
   * in a sitemap. Returns how many were new.
   *
   * Every item counts, new or known (and so does every item a step records as discovered):
   * a `page` item with a `via` and no `redirects` is one in-link of its URL, a `sitemap` item
   * with no `redirects` one naming by a sitemap (see {@link CrawlResult.inlinks}).
   *
   * @example
   * ```ts
   * await state.add([{ url, origin: new URL(url).origin, priority: 0, depth: 0, via: null, kind: 'page' }]);
   * ```
   */
  add(items: readonly FrontierItem[]): Promise<number>;
  /**
   * One worker step, in one transaction: records the finished items and the URLs they led
   * to, puts the released ones back, then takes up to `take` items, the ready host first
   * (the one whose turn came soonest), then its best URLs (lowest priority number, then
   * shallowest, then first added). Hosts without a robots.txt outcome give no items; the
   * step hands out their robots.txt fetches instead (see {@link StepResult.robots}).
   *
   * Once the crawl is finished (`finishedAt` set by {@link claimFinish}), a step takes
   * nothing and hands out no robots.txt fetch: the output was written from what was
   * recorded, so nothing may be crawled after it (a worker stopped at `maxPages` claims the
   * finish while others may still ask for items on an older count of pages).
   *
   * @example
   * ```ts
   * const { taken, open, waitMs } = await state.step({ finished, released: [], take: 8 });
   * ```
   */
  step(request: StepRequest): Promise<StepResult>;
  /**
   * Claims the fetch of a host's robots.txt, even when nothing of that host is queued (the
   * start host, whose sitemaps come first): `fetch` when this worker is now to fetch it (a
   * request to the host is booked), `known` when an outcome is recorded, `busy` when
   * another live worker is fetching it.
   *
   * @example
   * ```ts
   * if ((await state.claimRobots(origin)) === 'fetch') await state.settleRobots(origin, await fetchIt(origin));
   * ```
   */
  claimRobots(origin: string): Promise<'fetch' | 'known' | 'busy'>;
  /**
   * Records a host's robots.txt outcome, for every worker, and its gap from now on; the
   * host's next request waits one new gap after the robots.txt request.
   *
   * @example
   * ```ts
   * await state.settleRobots(origin, { status: 404, detail: null, url: `${origin}/robots.txt`, body: null, gapMs: 250 });
   * ```
   */
  settleRobots(origin: string, robots: HostRobots): Promise<void>;
  /**
   * A host's robots.txt outcome, or null when none is recorded yet.
   *
   * @example
   * ```ts
   * const robots = await state.robots('https://example.com');
   * ```
   */
  robots(origin: string): Promise<HostRobots | null>;
  /**
   * Every host's robots.txt outcome the state holds, for the crawl report, in origin order.
   *
   * @example
   * ```ts
   * for (const robots of await state.robotsOutcomes()) console.log(robots.origin, robots.status);
   * ```
   */
  robotsOutcomes(): Promise<readonly HostRobotsOutcome[]>;
  /**
   * Books a request outside the queue (a sitemap, a feed) against its host: returns 0 when
   * it may start now (and is booked), else the milliseconds to wait before asking again.
   *
   * @example
   * ```ts
   * for (let wait = await state.reserve(origin); wait > 0; wait = await state.reserve(origin)) await sleep(wait);
   * ```
   */
  reserve(origin: string): Promise<number>;
  /**
   * Claims the reading of the site's sitemaps: true for the one worker that is now to read
   * them (until it reports with {@link settleSitemaps} or is taken for dead), false when
   * they are read or another live worker is reading them.
   *
   * @example
   * ```ts
   * if (await state.claimSitemaps()) await state.settleSitemaps(await readThem());
   * ```
   */
  claimSitemaps(): Promise<boolean>;
  /**
   * Records that the sitemaps were read to the end and named `sitemapUrls` on-site URLs; or,
   * with null, that this worker gave up on them (the start host's robots.txt could not be
   * had): they no longer keep the crawl open, `sitemapsRead` stays false, and the next state
   * opened on this crawl (a resume, a new worker) may claim them again.
   *
   * @example
   * ```ts
   * await state.settleSitemaps(1200);
   * ```
   */
  settleSitemaps(sitemapUrls: number | null, files?: readonly SitemapFileRecord[]): Promise<void>;
  /**
   * The sitemap files the reading that finished went through (see {@link settleSitemaps}),
   * in the order they were read; empty before that.
   *
   * @example
   * ```ts
   * for (const file of await state.sitemapFiles()) console.log(file.url, file.entries);
   * ```
   */
  sitemapFiles(): Promise<readonly SitemapFileRecord[]>;
  /**
   * Claims the crawl's output once nothing is left to do: true for exactly one caller per
   * crawl (the worker that writes `--out`), which also sets `finishedAt`; false when the
   * crawl is not finished or another worker claimed it.
   *
   * `stopped`: the caller stopped the crawl at its page limit (`maxPages`), so items still
   * queued do not keep it from being finished: it is once nothing is in flight in any
   * worker, no robots.txt fetch is claimed and not settled, and the sitemaps are settled.
   *
   * @example
   * ```ts
   * if (await state.claimFinish()) await writeSitemap(state.results());
   * ```
   */
  claimFinish(stopped?: boolean): Promise<boolean>;
  /**
   * Item counts over the whole crawl. May cost a count over the store: for progress, not
   * for every step.
   *
   * @example
   * ```ts
   * const { queued, inFlight, done } = await state.counts();
   * ```
   */
  counts(): Promise<FrontierCounts>;
  /**
   * Every recorded result, ordered by normalised URL, read as iterated (never all at once).
   *
   * @example
   * ```ts
   * for await (const result of state.results()) if (result.outcome === 'listed') write(result);
   * ```
   */
  results(): AsyncIterable<CrawlResult>;
  /**
   * Closes the state; this worker's items still in flight go back to the queue at once
   * (they would otherwise wait for the lease to expire). A temporary state is deleted.
   * Idempotent.
   *
   * @example
   * ```ts
   * try { await crawl({ start, state }); } finally { await state.close(); }
   * ```
   */
  close(): Promise<void>;
}
