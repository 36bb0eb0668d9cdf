import type { FetchFunction } from '../http/index.ts';
import type { LastmodSanity } from '../sitemap/lastmod-sanity.ts';
import type { CrawlState } from './crawl-state.ts';

/** Why a URL the crawl met is not in the sitemap. */
export type SkipReason =
  | 'robots-disallowed'
  /** robots.txt answered 5xx or 429, or could not be fetched: RFC 9309 says crawl nothing. */
  | 'robots-unreachable'
  /** Longer than `CRAWL_DEFAULTS.maxUrlLength` (8 KiB): not fetched. */
  | 'url-too-long'
  | 'excluded'
  | 'non-html'
  | 'redirect'
  | 'redirect-off-origin'
  | 'too-many-redirects'
  | 'unexpected-status'
  | 'client-error'
  | 'server-error'
  | 'noindex-meta'
  | 'noindex-header'
  | 'canonical-elsewhere';

/**
 * What a crawl is asked to do. Every option but the ones marked "this worker only" is stored
 * with the crawl when it is created and must be the same for every run of it (a resume, a
 * worker that joins): see {@link CrawlOptions.join}.
 */
export interface CrawlOptions {
  /**
   * Where the crawl starts; its origin (scheme, host, port) is the only one followed.
   * Required, unless `join` (the crawl then says where it started).
   */
  readonly start?: string;
  /** Treat `www.` + host and host as one site. */
  readonly canonicalHost?: boolean;
  /** Obey robots.txt (default true). */
  readonly respectRobots?: boolean;
  /** What an unreachable robots.txt (5xx, network) means: RFC 9309's 'disallow' (default) or 'allow'. */
  readonly robotsError?: 'disallow' | 'allow';
  /** Read the sitemaps robots.txt names, and queue their URLs (default true). */
  readonly sitemaps?: boolean;
  /** More sitemaps to read. */
  readonly extraSitemaps?: readonly string[];
  /** Pages requested at most, by the whole crawl (all its workers together). */
  readonly maxPages?: number;
  readonly maxDepth?: number;
  /** Requests at once, over all origins. This worker only. */
  readonly concurrency?: number;
  /** Requests per second per origin; 0 = no limit (and Crawl-delay ignored). */
  readonly rate?: number;
  /** Longest Crawl-delay honoured, seconds. */
  readonly maxCrawlDelay?: number;
  /** Time for one request: connecting, the headers and the whole body. */
  readonly timeoutMs?: number;
  /**
   * Bytes of one response body (a page, a feed) before it counts as an error, as
   * `maxBytes` of `waymark/http`, which enforces it (`--max-body` on the command line).
   */
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
  /** Retries after 429/503 with Retry-After. */
  readonly maxRetries?: number;
  /** Default `CRAWL_DEFAULTS.userAgent`: `waymark/<version> (+https://github.com/waymark)`. */
  readonly userAgent?: string;
  /** Path globs (picomatch) a URL must match / must not match. */
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly keepTracking?: boolean;
  readonly stripParams?: readonly string[];
  readonly stripQuery?: boolean;
  /** `lastmod` from the Last-Modified header (default) or none. */
  readonly lastmod?: 'header' | 'none';
  /** Keep hreflang alternates and images for the sitemap. */
  readonly hreflang?: boolean;
  readonly images?: boolean;
  /** Also find the site's RSS and Atom feeds (`summary.feeds`). */
  readonly feeds?: boolean;
  /** The SQLite file for the crawl state; null (default) uses a temporary file. This worker only. */
  readonly statePath?: string | null;
  /** Continue the crawl in `statePath`. This worker only. */
  readonly resume?: boolean;
  /**
   * Work on a crawl that exists, never create one: its start URL and options come from the
   * crawl state, and any option given here must equal the stored one. Without `join`, a
   * crawl is created, or (resume, a shared state) found and compared: the start URL and
   * every stored option must match, else an `invalid-argument` error names each that
   * differs. This worker only.
   */
  readonly join?: boolean;
  /**
   * A crawl state to use instead of the SQLite file (a shared store, such as PostgreSQL,
   * that other workers use at the same time): anything that implements `CrawlState`. The
   * crawl closes it when done. This worker only.
   */
  readonly state?: CrawlState;
  /** This worker only. */
  readonly fetch?: FetchFunction;
  /** Stops this worker cleanly. */
  readonly signal?: AbortSignal;
  /** Clock and sleep, so tests can drive time. This worker only. */
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What the crawl reports as it goes. */
export type CrawlEvent =
  | {
      readonly type: 'robots';
      readonly origin: string;
      readonly status: number | 'network-error';
      readonly source: string;
      readonly crawlDelay: number | null;
      /** For a network error, why (`ECONNREFUSED`, `timeout`, ...); otherwise null. */
      readonly detail: string | null;
    }
  | {
      readonly type: 'fetched';
      readonly url: string;
      readonly status: number;
      readonly listed: boolean;
      readonly links: number;
    }
  | {
      readonly type: 'skipped';
      readonly url: string;
      readonly reason: SkipReason;
      readonly status: number | null;
      readonly detail: string | null;
    }
  | { readonly type: 'error'; readonly url: string; readonly message: string }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'done'; readonly summary: CrawlSummary };

/**
 * What a crawl did. The counts are read from the crawl state, so they cover the whole crawl:
 * every run of it (a resume counts what the interrupted run recorded) and every worker.
 * `durationMs` and `rate` are this run's.
 */
export interface CrawlSummary {
  /** HTTP requests for pages (robots.txt and sitemaps not counted). */
  readonly fetched: number;
  /** Pages that go in the sitemap. */
  readonly listed: number;
  /** URLs left out, by reason. */
  readonly skipped: Readonly<Partial<Record<SkipReason, number>>>;
  readonly errors: number;
  /** URLs found in the site's sitemaps. */
  readonly sitemapUrls: number;
  readonly durationMs: number;
  /** `fetched` over this run's `durationMs`, per second. */
  readonly rate: number;
  /**
   * Stopped early: max pages reached with URLs still queued, or aborted (`signal`). An
   * aborted crawl writes nothing: resume it from its state.
   */
  readonly stoppedBy: 'max-pages' | 'aborted' | null;
  /**
   * Limits that cut the crawl short, when any did: `maxPages` with the URLs still queued,
   * `maxDepth` with the on-site links not followed because they lead deeper. Null when
   * the crawl reached everything it found.
   */
  readonly truncated: CrawlTruncation | null;
  /**
   * Why the site could not be crawled, when it could not (nothing is then listed or
   * written): its robots.txt answered 5xx or 429 or could not be fetched (RFC 9309 says
   * crawl nothing), or the start page could not be fetched.
   */
  readonly unreachable: SiteUnreachable | null;
  /**
   * The crawl against the site's own sitemaps, when it has any: listed pages the sitemaps
   * name but no link reaches (orphans), and listed pages the links reach but the sitemaps
   * leave out. Counts, and the first 1,000 URLs of each, by URL.
   */
  readonly sitemapComparison: SitemapComparison | null;
  /**
   * The lastmod checks (`checkLastmodSanity` of `waymark/sitemap`) over the `<lastmod>` the
   * site's sitemaps give the crawled URLs (each URL's first sitemap entry), against the
   * times the sitemap files were read and each page's own Last-Modified. Null when no
   * sitemap entry of a crawled URL has a lastmod.
   */
  readonly lastmodSanity: LastmodSanity | null;
  /** RSS and Atom feeds on the site, confirmed by reading them (with `feeds: true`), sorted. */
  readonly feeds: readonly string[];
}

export interface CrawlTruncation {
  readonly maxPages: { readonly limit: number; readonly queued: number } | null;
  readonly maxDepth: { readonly limit: number; readonly links: number } | null;
}

export interface SiteUnreachable {
  /** The start URL's origin. */
  readonly origin: string;
  /** What failed: the origin's robots.txt, or the start page itself. */
  readonly cause: 'robots-txt' | 'start-page';
  /** The HTTP status that decided (robots.txt 5xx or 429), or null for a network failure. */
  readonly status: number | null;
  /** The network failure (`ECONNREFUSED`, `ENOTFOUND`, `timeout`, ...), or null. */
  readonly detail: string | null;
  /**
   * One line for people: `site unreachable: ECONNREFUSED (http://…/robots.txt)` or
   * `robots.txt answered 503: RFC 9309 says crawl nothing (http://…/robots.txt)`.
   */
  readonly message: string;
}

export interface SitemapComparison {
  readonly orphans: number;
  readonly missing: number;
  readonly orphanUrls: readonly string[];
  readonly missingUrls: readonly string[];
}
