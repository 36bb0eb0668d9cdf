// The crawl audit report's data: what Node gathers from a crawl state and embeds in the page
// as JSON, and what the page's script reads. Types only, so the page bundle can share them.
// Pages are rows of a fixed column order, not objects: a 100,000-URL report would otherwise
// repeat every key 100,000 times.

/** Version of this shape; the page refuses data of another version with a clear message. */
export const REPORT_DATA_VERSION = 1;

/** One robots.txt as the crawl met it, per origin. */
export interface ReportRobots {
  /** `https://example.com` */
  readonly origin: string;
  /** The robots.txt URL. */
  readonly url: string;
  /** HTTP status, or null when it could not be fetched at all. */
  readonly status: number | null;
  /**
   * How the crawl read it: `file` (a 2xx body), `unavailable` (4xx: everything allowed),
   * `unreachable` (5xx, 429 or a network failure: RFC 9309 says crawl nothing).
   */
  readonly source: 'file' | 'unavailable' | 'unreachable';
  /** What went wrong, for people (a network error, a status); null when nothing did. */
  readonly detail: string | null;
  /** The body as the crawl read it (capped at 500 KiB like the crawl's own read); null when there was none. */
  readonly text: string | null;
  /**
   * With `--robots-error allow`, an unreachable robots.txt was treated as absent (everything
   * allowed); false when the crawl obeyed RFC 9309 (crawl nothing).
   */
  readonly unreachableAllowed: boolean;
}

/** A reader problem in a sitemap file, at a line and column of that file. */
export interface ReportDiagnostic {
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** One sitemap file the crawl fetched or tried to. */
export interface ReportSitemap {
  readonly url: string;
  /** The index that named it, or null when robots.txt or the user named it. */
  readonly parent: string | null;
  readonly status: number | null;
  /** `urlset`, `index`, `text`, `rss`, `atom`, or null when it was not read. */
  readonly kind: string | null;
  /** URL entries in it (child sitemaps for an index). */
  readonly entries: number;
  /** Why it was not read (a message), or null when it was. */
  readonly skipped: string | null;
  /** Its diagnostics, the first 200 of them; `diagnosticsDropped` says how many more there were. */
  readonly diagnostics: readonly ReportDiagnostic[];
  readonly diagnosticsDropped: number;
  /** When the crawl read it (ISO 8601), for the "lastmod equals the generation time" check. */
  readonly fetchedAt: string | null;
}

/** Why a crawled URL is or is not in the written sitemap. */
export type ReportOutcome = 'listed' | 'skipped' | 'error';

/** The robots.txt rule that decided a URL: `[directive, pattern, line]`. */
export type ReportRule = readonly ['allow' | 'disallow', string, number];

/**
 * The column order of a page row. `PAGE_COLUMNS[i]` names `row[i]`; see {@link ReportPageRow}.
 */
export const PAGE_COLUMNS = [
  'url',
  'status',
  'outcome',
  'reason',
  'detail',
  'depth',
  'via',
  'linked',
  'sitemaps',
  'sitemapLastmod',
  'lastModified',
  'contentType',
  'ms',
  'title',
  'inlinks',
  'rule',
  'lastmod',
] as const;

/**
 * One URL the crawl met, as a row:
 * - `url`: the normalised URL (the crawl's key).
 * - `status`: HTTP status, or null (not requested, or a network error).
 * - `outcome`: `listed` (in the written sitemap), `skipped` (left out, see reason) or `error`.
 * - `reason`: null for listed; a skip reason (`noindex-meta`, `noindex-header`,
 *   `canonical-elsewhere`, `non-html`, `redirect`, `redirect-off-origin`, `too-many-redirects`,
 *   `client-error`, `server-error`, `unexpected-status`, `robots-disallowed`,
 *   `robots-unreachable`, `excluded`, `url-too-long`); for an error its cause
 *   (`timeout`, `ECONNREFUSED`, ...).
 * - `detail`: the canonical URL for `canonical-elsewhere`, the target for the redirect reasons,
 *   the media type for `non-html`, the message of an error; else null.
 * - `depth`: link depth when first found (sitemap URLs and the start are 0).
 * - `via`: the row index of the page where the crawl first found it, `'sitemap'`, or null for
 *   the start URL (and when the finder is not a row).
 * - `linked`: 1 when some crawled page links to it (or it is the start URL), else 0.
 * - `sitemaps`: how many of the site's sitemap files name it (0: none).
 * - `sitemapLastmod`: its `<lastmod>` in the first sitemap that named it, as written there
 *   (a date-only value stays date-only), or null.
 * - `lastModified`: the page's `Last-Modified` header as ISO 8601, or null.
 * - `contentType`: the media type of the response (no parameters), or null.
 * - `ms`: time from request to the end of the body, in milliseconds, or null.
 * - `title`: the HTML `<title>`, or null.
 * - `inlinks`: how many crawled pages link to it, counted up to 1,000 (at 1,000: at least).
 * - `rule`: for `robots-disallowed`, the rule that decided it; else null.
 * - `lastmod`: the `<lastmod>` waymark wrote for it in the new sitemap (listed pages only), or null.
 */
export type ReportPageRow = readonly [
  url: string,
  status: number | null,
  outcome: ReportOutcome,
  reason: string | null,
  detail: string | null,
  depth: number,
  via: number | 'sitemap' | null,
  linked: 0 | 1,
  sitemaps: number,
  sitemapLastmod: string | null,
  lastModified: string | null,
  contentType: string | null,
  ms: number | null,
  title: string | null,
  inlinks: number,
  rule: ReportRule | null,
  lastmod: string | null,
];

/** Everything the report shows, gathered once in Node and embedded in the page. */
export interface ReportData {
  readonly version: typeof REPORT_DATA_VERSION;
  /** When the report was made (ISO 8601). */
  readonly generatedAt: string;
  /** `waymark 0.1.0` */
  readonly generator: string;
  readonly crawl: {
    /** The start URL. */
    readonly start: string;
    /** The full User-Agent header the crawl sent. */
    readonly userAgent: string;
    /** The product token robots.txt groups are matched against (`waymark`). */
    readonly robotsAgent: string;
    readonly createdAt: string | null;
    readonly finishedAt: string | null;
    /** Wall time of the run that made the report, or null for a report from a saved state. */
    readonly durationMs: number | null;
    /** Pages fetched per second in that run, or null. */
    readonly pagesPerSecond: number | null;
    /** Why the crawl stopped early (`max-pages`, `interrupted`, ...), or null when it finished. */
    readonly stoppedBy: string | null;
    /** URLs left in the queue when it stopped early. */
    readonly notFetched: number;
    /** Links not followed because they were deeper than `maxDepth`. */
    readonly depthCut: number;
    /** Whether the crawl obeyed robots.txt. */
    readonly respectRobots: boolean;
    /** Pages requested, written to the sitemap, left out (by reason) and failed. */
    readonly fetched: number;
    readonly listed: number;
    readonly skipped: Readonly<Record<string, number>>;
    readonly errors: number;
    /** When the whole site could not be crawled (robots.txt unreachable, the start page failed): why. */
    readonly unreachable: string | null;
  };
  readonly robots: readonly ReportRobots[];
  readonly sitemaps: readonly ReportSitemap[];
  /** Every URL the crawl met, one row each, ordered by URL. */
  readonly pages: readonly ReportPageRow[];
}
