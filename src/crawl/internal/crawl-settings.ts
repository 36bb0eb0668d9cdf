import type { FetchFunction } from '../../http/index.ts';
import { abortableSleep, MAX_TIMEOUT_MS } from '../../shared/abortable-sleep.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { pathFilter } from '../../url/index.ts';
import type { CrawlOptions } from '../types.ts';
import { CRAWL_DEFAULTS } from './crawl-defaults.ts';

/**
 * The options every worker of a crawl shares, each with its default applied: stored with the
 * crawl (as JSON, in this key order) when it is created, compared when it is found again.
 */
export interface SharedCrawlOptions {
  readonly canonicalHost: boolean;
  readonly respectRobots: boolean;
  readonly robotsError: 'disallow' | 'allow';
  readonly sitemaps: boolean;
  readonly extraSitemaps: readonly string[];
  readonly maxPages: number;
  readonly maxDepth: number;
  readonly rate: number;
  readonly maxCrawlDelay: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly maxRetries: number;
  readonly userAgent: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly keepTracking: boolean;
  readonly stripParams: readonly string[];
  readonly stripQuery: boolean;
  readonly lastmod: 'header' | 'none';
  readonly hreflang: boolean;
  readonly images: boolean;
  readonly feeds: boolean;
}

type SharedKey = keyof SharedCrawlOptions;

/** Every shared option, its default, and the command line flag that sets it (for messages). */
const SHARED: { readonly [K in SharedKey]: { default: SharedCrawlOptions[K]; flag: string } } = {
  canonicalHost: { default: false, flag: '--canonical-host' },
  respectRobots: { default: true, flag: '--ignore-robots' },
  robotsError: { default: 'disallow', flag: '--robots-error' },
  sitemaps: { default: true, flag: '--no-sitemaps' },
  extraSitemaps: { default: [], flag: '--sitemap' },
  maxPages: { default: CRAWL_DEFAULTS.maxPages, flag: '--max-pages' },
  maxDepth: { default: CRAWL_DEFAULTS.maxDepth, flag: '--max-depth' },
  rate: { default: CRAWL_DEFAULTS.rate, flag: '--rate' },
  maxCrawlDelay: { default: CRAWL_DEFAULTS.maxCrawlDelay, flag: '--max-crawl-delay' },
  timeoutMs: { default: CRAWL_DEFAULTS.timeoutMs, flag: '--timeout' },
  maxBytes: { default: CRAWL_DEFAULTS.maxBytes, flag: '--max-body' },
  maxRedirects: { default: CRAWL_DEFAULTS.maxRedirects, flag: '' },
  maxRetries: { default: CRAWL_DEFAULTS.maxRetries, flag: '' },
  userAgent: { default: CRAWL_DEFAULTS.userAgent, flag: '--user-agent' },
  include: { default: [], flag: '--include' },
  exclude: { default: [], flag: '--exclude' },
  keepTracking: { default: false, flag: '--keep-tracking' },
  stripParams: { default: [], flag: '--strip-param' },
  stripQuery: { default: false, flag: '--strip-query' },
  lastmod: { default: 'header', flag: '--lastmod' },
  hreflang: { default: false, flag: '--hreflang' },
  images: { default: false, flag: '--images' },
  feeds: { default: false, flag: '--feeds' },
};

const SHARED_KEYS = Object.keys(SHARED) as SharedKey[];

/** What only this worker decides: how it works, not what the crawl is. */
export interface WorkerSettings {
  readonly concurrency: number;
  readonly join: boolean;
  readonly fetch: FetchFunction | undefined;
  readonly signal: AbortSignal | undefined;
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** {@link CrawlOptions} resolved once: every default applied. */
export interface CrawlSettings {
  /** The start URL as given (not normalised yet: that takes the shared options). */
  readonly start: string | null;
  readonly shared: SharedCrawlOptions;
  /** The shared options the caller gave (the rest are defaults), to compare on `join`. */
  readonly given: ReadonlySet<SharedKey>;
  readonly worker: WorkerSettings;
}

/** Resolves the options once; a number that is not finite and 0 or more is refused. */
export function resolveCrawlSettings(options: CrawlOptions): CrawlSettings {
  const shared: Record<string, unknown> = {};
  const given = new Set<SharedKey>();
  for (const key of SHARED_KEYS) {
    const value = options[key];
    if (value !== undefined) given.add(key);
    shared[key] = value === undefined ? SHARED[key].default : copied(value);
  }
  for (const key of SHARED_KEYS) {
    const value = shared[key];
    if (typeof value === 'number' && !(Number.isFinite(value) && value >= 0)) {
      throw new WaymarkError(
        'invalid-argument',
        `${key} must be a finite number, 0 or more, not ${value}`,
      );
    }
  }
  // setTimeout's range: past it a timer fires at once, and every request would time out.
  const timeoutMs = shared['timeoutMs'] as number;
  if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw new WaymarkError(
      'invalid-argument',
      `timeoutMs must be a number of milliseconds above 0, at most ${MAX_TIMEOUT_MS}, not ${timeoutMs}`,
    );
  }
  // A glob that does not compile is refused now, before a crawl is created with it.
  pathFilter({
    include: [...(shared['include'] as string[])],
    exclude: [...(shared['exclude'] as string[])],
  });
  if (options.start === undefined && options.join !== true) {
    throw new WaymarkError(
      'invalid-argument',
      'start is missing: the URL the crawl starts from (or join a crawl that exists)',
    );
  }
  return {
    start: options.start ?? null,
    shared: shared as unknown as SharedCrawlOptions,
    given,
    worker: {
      concurrency: Math.max(1, Math.floor(options.concurrency ?? CRAWL_DEFAULTS.concurrency)),
      join: options.join === true,
      fetch: options.fetch,
      signal: options.signal,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? abortableSleep,
    },
  };
}

function copied(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : value;
}

/** The shared options as the crawl stores them: JSON, keys in a fixed order. */
export function sharedOptionsJson(shared: SharedCrawlOptions): string {
  return JSON.stringify(shared, SHARED_KEYS);
}

/** Milliseconds between two requests to one host, before Crawl-delay. */
export function baseGapMs(shared: SharedCrawlOptions): number {
  return shared.rate > 0 ? 1000 / shared.rate : 0;
}

/**
 * The shared options a crawl stored: an option it does not name takes today's default (a
 * crawl made by an older waymark); one this waymark does not know, or of the wrong type,
 * is refused, since the crawl could not be crawled alike.
 */
export function storedSharedOptions(json: string, location: string): SharedCrawlOptions {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = null;
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    throw new WaymarkError(
      'invalid-argument',
      `the crawl in ${location} has unreadable options: ${json.slice(0, 200)}`,
    );
  }
  const record = stored as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !(key in SHARED));
  if (unknown.length > 0) {
    throw new WaymarkError(
      'invalid-argument',
      `the crawl in ${location} has options this waymark does not know (${unknown.join(', ')}): crawl it with the waymark that made it`,
    );
  }
  const shared: Record<string, unknown> = {};
  for (const key of SHARED_KEYS) {
    const fallback = SHARED[key].default;
    const value = record[key] ?? fallback;
    if (Array.isArray(fallback) !== Array.isArray(value) || typeof fallback !== typeof value) {
      throw new WaymarkError(
        'invalid-argument',
        `the crawl in ${location} has an unreadable ${key}: ${JSON.stringify(value)}`,
      );
    }
    shared[key] = value;
  }
  return shared as unknown as SharedCrawlOptions;
}

/**
 * Each option of `keys` whose value differs between the stored and the given options, for
 * a message: `rate (--rate): stored 4, given 2`.
 */
export function differingOptions(
  stored: SharedCrawlOptions,
  given: SharedCrawlOptions,
  keys: Iterable<SharedKey> = SHARED_KEYS,
): string[] {
  const differences: string[] = [];
  for (const key of keys) {
    const was = JSON.stringify(stored[key]);
    const now = JSON.stringify(given[key]);
    if (was === now) continue;
    const flag = SHARED[key].flag;
    differences.push(`${key}${flag === '' ? '' : ` (${flag})`}: stored ${was}, given ${now}`);
  }
  return differences;
}
