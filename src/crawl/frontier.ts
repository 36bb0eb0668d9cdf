/**
 * What a crawler asks of its crawl state: a deduplicating priority queue of URLs, split by
 * origin so politeness can hold an origin back, whose every step is durable, so a crawl can
 * stop at any instant (even `kill -9`) and resume without losing or repeating work.
 *
 * @module
 */

/** What a URL is fetched for. */
export type FrontierKind = 'robots' | 'sitemap' | 'page';

/** A URL to crawl, as the crawler adds it. */
export interface FrontierItem {
  /** Absolute URL to fetch. Deduplicated under its normalised form. */
  readonly url: string;
  /** The origin politeness is counted against, e.g. `https://example.com`. Not empty. */
  readonly origin: string;
  /** Lower is taken sooner. Any finite number. */
  readonly priority: number;
  /** Links followed from a seed: 0 for a seed. A non-negative integer. */
  readonly depth: number;
  /** Where the URL was found (the referring page or sitemap), or null for a seed. */
  readonly via: string | null;
  readonly kind: FrontierKind;
}

/** An item taken for crawling, from {@link Frontier.take}. */
export interface TakenItem extends FrontierItem {
  /** The item's id in the state; stable for the life of the state, also across a resume. */
  readonly id: number;
  /**
   * 1 the first time an item is taken, counting every earlier take that ended in a
   * {@link Frontier.release} or in an interruption (the process stopped while it was in
   * flight). A URL that keeps crashing the crawler shows up as a growing attempt count.
   */
  readonly attempt: number;
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
}

/** A recorded result, from {@link Frontier.results}: the item and its outcome. */
export interface CrawlResult extends CrawlResultFields {
  /** The URL as it was added. */
  readonly url: string;
  readonly kind: FrontierKind;
  readonly depth: number;
  readonly via: string | null;
  /** Reached by a link from a crawled page (the start page counts as linked). */
  readonly linked: boolean;
  /** Named by one of the site's own sitemaps. */
  readonly inSitemap: boolean;
}

/** Item counts, from {@link Frontier.counts}. `seen` = `queued` + `inFlight` + `done`. */
export interface FrontierCounts {
  /** Waiting to be taken, including released items whose `notBefore` is still ahead. */
  readonly queued: number;
  readonly inFlight: number;
  readonly done: number;
  /** Every URL ever added. */
  readonly seen: number;
}

/** Options of {@link Frontier.take}. */
export interface TakeOptions {
  /** Most items taken from one origin in this call. Default: no limit beyond `limit`. */
  readonly perOrigin?: number;
}

/** Options of {@link Frontier.complete}. */
export interface CompleteOptions {
  /** Stores this as the item's origin data (see {@link CrawlState.originData}), atomically. */
  readonly originData?: string;
}

/** A persistent, deduplicating, per-origin priority queue of URLs. */
export interface Frontier {
  /**
   * Adds an item unless its URL was ever added before (under its normalised form, whatever
   * became of it). Returns whether it was added.
   *
   * @example
   * ```ts
   * frontier.add({ url, origin: new URL(url).origin, priority: 0, depth: 0, via: null, kind: 'page' });
   * ```
   */
  add(item: FrontierItem): boolean;
  /**
   * {@link add} for many items in one transaction. Returns how many were new.
   *
   * @example
   * ```ts
   * const added = frontier.addMany(seeds);
   * ```
   */
  addMany(items: readonly FrontierItem[]): number;
  /**
   * Takes up to `limit` queued items and marks them in flight: lowest priority number first,
   * then shallowest depth, then first added; only from origins for which `originReady`
   * returns true (called at most once per origin per call, and must not call back into the
   * frontier). Released items whose `notBefore` has passed are queued again first.
   *
   * @example
   * ```ts
   * const batch = frontier.take(8, (origin) => politeness.ready(origin), { perOrigin: 1 });
   * ```
   */
  take(limit: number, originReady: (origin: string) => boolean, options?: TakeOptions): TakenItem[];
  /**
   * Records the result of an item in flight and adds the items it led to, in one
   * transaction: a page is never recorded without its links nor its links without it.
   * Returns how many of `discovered` were new. Throws when the item is not in flight.
   *
   * @example
   * ```ts
   * frontier.complete(item, { status: 200, outcome: 'listed', reason: null, lastmod: null, finalUrl: null, data: null }, links);
   * ```
   */
  complete(
    item: TakenItem,
    result: CrawlResultFields,
    discovered?: readonly FrontierItem[],
    options?: CompleteOptions,
  ): number;
  /**
   * Puts an item in flight back in the queue, at its old place, to be taken again no earlier
   * than `notBefore` (epoch milliseconds) when given. Throws when the item is not in flight.
   *
   * @example
   * ```ts
   * frontier.release(item, Date.now() + (retryAfterMs(header, Date.now()) ?? 60_000));
   * ```
   */
  release(item: TakenItem, notBefore?: number): void;
  /**
   * The earliest `notBefore` of released items still held back, or null when none is: when a
   * crawler whose queue is otherwise empty should call {@link take} again.
   *
   * @example
   * ```ts
   * const at = frontier.heldUntil();
   * if (at !== null) await sleep(at - Date.now());
   * ```
   */
  heldUntil(): number | null;
  /**
   * Item counts, kept as the state changes, so cheap to call often.
   *
   * @example
   * ```ts
   * const { queued, inFlight } = frontier.counts();
   * if (queued === 0 && inFlight === 0) finish();
   * ```
   */
  counts(): FrontierCounts;
  /**
   * Every recorded result, ordered by normalised URL, read as iterated (never all at once).
   * Do not change the frontier while iterating.
   *
   * @example
   * ```ts
   * for (const result of frontier.results()) if (result.outcome === 'listed') write(result);
   * ```
   */
  results(): IterableIterator<CrawlResult>;
}

/** A {@link Frontier} with what else a resumable crawl keeps: settings and per-origin data. */
export interface CrawlState extends Frontier {
  /** True when the state was opened with `resume` and held an earlier crawl. */
  readonly resumed: boolean;
  /**
   * A crawl-level value (the crawl options as JSON, so a resume can check they match), or
   * null when never set.
   *
   * @example
   * ```ts
   * const saved = state.meta('options');
   * if (saved !== null && saved !== JSON.stringify(options)) throw new Error('options differ');
   * state.setMeta('options', JSON.stringify(options));
   * ```
   */
  meta(key: string): string | null;
  /**
   * Sets a crawl-level value.
   *
   * @example
   * ```ts
   * state.setMeta('started', new Date().toISOString());
   * ```
   */
  setMeta(key: string, value: string): void;
  /**
   * What the crawler keeps about an origin (robots.txt outcome, crawl delay, ...), as
   * JSON text, or null when never set.
   *
   * @example
   * ```ts
   * const robots = state.originData('https://example.com');
   * ```
   */
  originData(origin: string): string | null;
  /**
   * Sets what the crawler keeps about an origin. To set it together with the result of the
   * item that produced it, use {@link CompleteOptions.originData} instead.
   *
   * @example
   * ```ts
   * state.setOriginData('https://example.com', JSON.stringify({ robots: 'allow-all' }));
   * ```
   */
  setOriginData(origin: string, data: string): void;
  /**
   * Optional. Runs `fn`, whose calls on this state become one durable step: all of them are
   * kept, or (when `fn` throws, or the process dies before it returns) none. A crawler uses
   * it to record several results and take the next items with one commit instead of one
   * each. A state without it makes every call durable on its own.
   *
   * @example
   * ```ts
   * state.transaction?.(() => {
   *   for (const { item, result, links } of finished) state.complete(item, result, links);
   *   return state.take(finished.length, ready);
   * });
   * ```
   */
  transaction?<T>(fn: () => T): T;
  /**
   * Closes the state; a temporary state is deleted. Idempotent.
   *
   * @example
   * ```ts
   * try { await crawl(state); } finally { state.close(); }
   * ```
   */
  close(): void;
}
