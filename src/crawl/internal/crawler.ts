import type { FetchFunction } from '../../http/index.ts';
import { productToken, type RobotsTxt } from '../../robots/index.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { walkSitemaps } from '../../sitemap/index.ts';
import { normalizeUrl, originOf as originOrNull, pathFilter, sameSite } from '../../url/index.ts';
import type { CrawlResultFields, CrawlState, FrontierItem, TakenItem } from '../frontier.ts';
import { openSqliteCrawlState } from '../sqlite-crawl-state.ts';
import type { CrawlEvent, CrawlOptions, CrawlSummary, SkipReason } from '../types.ts';
import { confirmFeeds, looksLikeFeed } from './feeds.ts';
import { HostSchedule } from './host-schedule.ts';
import { fetchPage } from './page-fetch.ts';
import { fetchRobots } from './robots-fetch.ts';

/** Frontier priorities: lower runs first. robots.txt is fetched outside the frontier, first. */
const PRIORITY_SITEMAP_URL = 10;
const PRIORITY_LINK = 100;

export const CRAWL_DEFAULTS = {
  maxPages: 5000,
  maxDepth: 10,
  concurrency: 8,
  rate: 4,
  maxCrawlDelay: 30,
  timeoutMs: 15_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  maxRetries: 2,
} as const;

type Emit = (event: CrawlEvent) => Promise<void>;

/** Everything one crawl needs; `run()` once. */
export class Crawler {
  readonly #options: CrawlOptions;
  readonly #emit: Emit;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #userAgent: string;
  readonly #agentToken: string;
  readonly #schedule: HostSchedule;
  readonly #robots = new Map<string, RobotsTxt>();
  readonly #robotsPending = new Set<string>();
  readonly #redirectHops = new Map<string, number>();
  readonly #filter: (url: string) => boolean;
  readonly #inFlight = new Set<Promise<void>>();
  /** Possible feeds, confirmed at the end; few per site, so kept in memory. */
  readonly #feedCandidates = new Set<string>();
  #state: CrawlState | null = null;
  #start = '';
  #origin = '';
  #seeding: Promise<void> | null = null;
  /** The site's sitemaps have been read (or there were none): no more URLs will come from them. */
  #seedingDone = false;
  #fetched = 0;
  #listed = 0;
  #errors = 0;
  #sitemapUrls = 0;
  readonly #skipped: Partial<Record<SkipReason, number>> = {};
  #stoppedBy: CrawlSummary['stoppedBy'] = null;
  #wake: (() => void) | null = null;

  constructor(options: CrawlOptions, emit: Emit) {
    this.#options = options;
    this.#emit = emit;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#userAgent = options.userAgent ?? 'waymark (+https://github.com/waymark)';
    this.#agentToken = productToken(this.#userAgent);
    const rate = options.rate ?? CRAWL_DEFAULTS.rate;
    this.#schedule = new HostSchedule({
      rate,
      maxCrawlDelay: options.maxCrawlDelay ?? CRAWL_DEFAULTS.maxCrawlDelay,
    });
    this.#filter = pathFilter({
      ...(options.include ? { include: [...options.include] } : {}),
      ...(options.exclude ? { exclude: [...options.exclude] } : {}),
    });
  }

  #normalize(url: string, base?: string): string | null {
    const o = this.#options;
    return normalizeUrl(url, {
      ...(base === undefined ? {} : { base }),
      ...(o.keepTracking ? { keepTracking: true } : {}),
      ...(o.stripParams ? { stripParams: [...o.stripParams] } : {}),
      ...(o.stripQuery ? { stripQuery: true } : {}),
    });
  }

  #onSite(url: string): boolean {
    return sameSite(url, this.#origin, { canonicalHost: this.#options.canonicalHost === true });
  }

  async run(): Promise<CrawlSummary> {
    const began = this.#now();
    const start = this.#normalize(this.#options.start);
    if (start === null) {
      throw new WaymarkError(
        'invalid-argument',
        `not an absolute http(s) URL: ${this.#options.start}`,
      );
    }
    this.#start = start;
    this.#origin = originOf(start);
    if ((this.#options.rate ?? CRAWL_DEFAULTS.rate) === 0) {
      await this.#emit({
        type: 'warning',
        message:
          'rate limit off (--rate 0): Crawl-delay is ignored too; crawl only sites you own this way',
      });
    }
    if (this.#options.respectRobots === false) {
      await this.#emit({
        type: 'warning',
        message: 'robots.txt is ignored (--ignore-robots): crawl only sites you own this way',
      });
    }
    // A caller's own store (a shared one, say) or the SQLite file.
    this.#state =
      this.#options.state ??
      openSqliteCrawlState(this.#options.statePath ?? null, {
        resume: this.#options.resume === true,
      });
    // A resumed crawl counts what the interrupted run already did against its limits.
    if (this.#state.resumed) this.#fetched = this.#state.counts().done;
    try {
      this.#state.add({
        url: start,
        origin: this.#origin,
        priority: PRIORITY_LINK,
        depth: 0,
        via: null,
        kind: 'page',
      });
      await this.#loop();
      await Promise.all(this.#inFlight);
      await this.#seeding;
      return this.#summary(began);
    } catch (error) {
      this.#state.close();
      throw error;
    }
  }

  /** The crawl state, open after `run()` until the caller closes it (to read the results). */
  get state(): CrawlState {
    if (this.#state === null) throw new WaymarkError('usage', 'the crawl has not started');
    return this.#state;
  }

  async #loop(): Promise<void> {
    const state = this.#state as CrawlState;
    const concurrency = Math.max(1, this.#options.concurrency ?? CRAWL_DEFAULTS.concurrency);
    const maxPages = this.#options.maxPages ?? CRAWL_DEFAULTS.maxPages;
    const signal = this.#options.signal;
    for (;;) {
      if (signal?.aborted) {
        this.#stoppedBy = 'aborted';
        return;
      }
      let started = false;
      while (this.#inFlight.size < concurrency) {
        if (this.#fetched >= maxPages) {
          this.#stoppedBy = 'max-pages';
          break;
        }
        // One item at a time: booking a request changes whether its origin is ready.
        const [item] = state.take(1, (origin) => this.#originReady(origin));
        if (item === undefined) break;
        this.#schedule.book(item.origin, this.#now());
        this.#track(this.#process(item));
        started = true;
      }
      if (this.#stoppedBy === 'max-pages' && this.#inFlight.size === 0) return;
      const idle = this.#inFlight.size === 0 && !started;
      if (
        idle &&
        this.#robotsPending.size === 0 &&
        this.#seedingDone &&
        state.counts().queued === 0
      )
        return;
      await this.#waitForWork();
    }
  }

  /** Sleeps until a request finishes, robots.txt arrives, or an origin's turn comes. */
  async #waitForWork(): Promise<void> {
    const hint = this.#schedule.waitHint(this.#now());
    const wake = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    await Promise.race([
      wake,
      this.#sleep(Math.min(Math.max(hint, 5), 1000), this.#options.signal).catch(() => {}),
    ]);
    this.#wake = null;
  }

  #track(task: Promise<void>): void {
    const tracked = task
      .catch(async (error: unknown) => {
        this.#errors++;
        await this.#emit({ type: 'error', url: '', message: (error as Error).message });
      })
      .finally(() => {
        this.#inFlight.delete(tracked);
        this.#wake?.();
      });
    this.#inFlight.add(tracked);
  }

  /** True when a page of `origin` may be requested now; starts its robots.txt fetch if needed. */
  #originReady(origin: string): boolean {
    if (!this.#schedule.robotsKnown(origin)) {
      if (!this.#robotsPending.has(origin)) {
        this.#robotsPending.add(origin);
        this.#track(this.#loadRobots(origin));
      }
      return false;
    }
    return this.#schedule.ready(origin, this.#now());
  }

  async #loadRobots(origin: string): Promise<void> {
    // robots.txt is the first request to every origin, and counts for its politeness too.
    this.#schedule.book(origin, this.#now());
    const { robots, status } = await fetchRobots(origin, {
      userAgent: this.#userAgent,
      timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      ...this.#fetchOption(),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
    let effective = robots;
    if (robots.source === 'unreachable' && this.#options.robotsError === 'allow') {
      const { robotsForStatus } = await import('../../robots/index.ts');
      effective = robotsForStatus(404);
      await this.#emit({
        type: 'warning',
        message: `robots.txt of ${origin} is unreachable (${status}); crawling it anyway because of --robots-error allow. RFC 9309 says to stay away.`,
      });
    }
    this.#robots.set(origin, effective);
    const ignoreDelay = (this.#options.rate ?? CRAWL_DEFAULTS.rate) === 0;
    const crawlDelay = ignoreDelay ? null : effective.crawlDelay(this.#agentToken);
    this.#schedule.setRobots(origin, crawlDelay);
    this.#robotsPending.delete(origin);
    await this.#emit({ type: 'robots', origin, status, source: effective.source, crawlDelay });
    if (origin === this.#origin && this.#seeding === null) this.#seeding = this.#seed(effective);
  }

  #fetchOption(): { fetch?: FetchFunction } {
    return this.#options.fetch ? { fetch: this.#options.fetch } : {};
  }

  /** Queues the URLs of the site's sitemaps (named in robots.txt, or given). */
  /** A fetch that waits for the origin's turn, like every other request (sitemaps, feeds). */
  readonly #politeFetch: FetchFunction = async (url, init) => {
    const origin = URL.parse(url)?.origin ?? '';
    while (this.#schedule.robotsKnown(origin) && !this.#schedule.ready(origin, this.#now())) {
      await this.#sleep(Math.max(5, this.#schedule.waitHint(this.#now())), this.#options.signal);
    }
    this.#schedule.book(origin, this.#now());
    return (this.#options.fetch ?? globalThis.fetch)(url, init);
  };

  /** The feeds among the candidates, confirmed by reading them (see `confirmFeeds`). */
  async confirmFeeds(): Promise<string[]> {
    return confirmFeeds([...this.#feedCandidates], {
      allowed: (url) => {
        const robots = this.#robots.get(originOf(url));
        return (
          this.#options.respectRobots === false ||
          robots === undefined ||
          robots.isAllowed(url, this.#agentToken)
        );
      },
      fetch: this.#politeFetch,
      userAgent: this.#userAgent,
      timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      maxBytes: this.#options.maxBodyBytes ?? CRAWL_DEFAULTS.maxBodyBytes,
      warn: (message) => this.#emit({ type: 'warning', message }),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
  }

  async #seed(robots: RobotsTxt): Promise<void> {
    try {
      const urls = [
        ...(this.#options.sitemaps === false ? [] : robots.sitemaps),
        ...(this.#options.extraSitemaps ?? []),
      ];
      if (urls.length === 0) return;
      const batch: FrontierItem[] = [];
      for await (const { entry } of walkSitemaps(urls, {
        fetch: this.#politeFetch,
        userAgent: this.#userAgent,
        ...(this.#options.signal ? { signal: this.#options.signal } : {}),
      })) {
        const url = this.#normalize(entry.loc);
        if (url === null || !this.#onSite(url)) continue;
        this.#sitemapUrls++;
        if (this.#options.feeds && looksLikeFeed(url)) this.#feedCandidates.add(url);
        batch.push({
          url,
          origin: originOf(url),
          priority: PRIORITY_SITEMAP_URL,
          depth: 0,
          via: 'sitemap',
          kind: 'sitemap',
        });
        if (batch.length >= 500) this.#flush(batch);
      }
      this.#flush(batch);
    } catch (error) {
      await this.#emit({
        type: 'warning',
        message: `reading the sitemaps failed: ${(error as Error).message}`,
      });
    } finally {
      this.#seedingDone = true;
      this.#wake?.();
    }
  }

  #flush(batch: FrontierItem[]): void {
    if (batch.length === 0) return;
    this.#state?.addMany(batch.splice(0));
    this.#wake?.();
  }

  async #process(item: TakenItem): Promise<void> {
    const robots = this.#robots.get(item.origin);
    if (
      this.#options.respectRobots !== false &&
      robots !== undefined &&
      !robots.isAllowed(item.url, this.#agentToken)
    ) {
      return this.#skip(item, 'robots-disallowed', null, null);
    }
    if (!this.#filter(item.url)) return this.#skip(item, 'excluded', null, null);
    this.#fetched++;
    const outcome = await fetchPage(item.url, {
      ...this.#fetchOption(),
      userAgent: this.#userAgent,
      timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      maxBytes: this.#options.maxBodyBytes ?? CRAWL_DEFAULTS.maxBodyBytes,
      now: this.#now,
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
    switch (outcome.kind) {
      case 'failed':
        this.#errors++;
        this.#complete(item, { status: null, outcome: 'error', reason: outcome.message }, []);
        return this.#emit({ type: 'error', url: item.url, message: outcome.message });
      case 'status':
        return this.#skip(
          item,
          outcome.status >= 500
            ? 'server-error'
            : outcome.status >= 400
              ? 'client-error'
              : 'unexpected-status',
          outcome.status,
          null,
        );
      case 'non-html':
        return this.#skip(item, 'non-html', outcome.status, outcome.contentType);
      case 'retry':
        return this.#retry(item, outcome.status, outcome.afterMs);
      case 'redirect':
        return this.#redirect(item, outcome.status, outcome.location);
      case 'html':
        return this.#html(item, outcome);
    }
  }

  async #retry(item: TakenItem, status: number, afterMs: number | null): Promise<void> {
    // `attempt` counts this item's earlier tries, across interruptions and resumes too.
    const attempts = item.attempt - 1;
    if (attempts >= (this.#options.maxRetries ?? CRAWL_DEFAULTS.maxRetries)) {
      return this.#skip(item, 'server-error', status, `still ${status} after ${attempts} retries`);
    }
    // Retry-After when the server gives one (capped at 10 minutes), else back off exponentially.
    const wait = Math.min(afterMs ?? 1000 * 2 ** attempts, 600_000);
    const until = this.#now() + wait;
    this.#schedule.holdUntil(item.origin, until);
    this.#state?.release(item, until);
    this.#fetched--;
  }

  async #redirect(item: TakenItem, status: number, location: string | null): Promise<void> {
    const target = location === null ? null : this.#normalize(location, item.url);
    if (target === null) return this.#skip(item, 'redirect', status, 'no usable Location');
    if (!this.#onSite(target)) return this.#skip(item, 'redirect-off-origin', status, target);
    const hops = (this.#redirectHops.get(item.url) ?? 0) + 1;
    if (hops > (this.#options.maxRedirects ?? CRAWL_DEFAULTS.maxRedirects)) {
      return this.#skip(item, 'too-many-redirects', status, target);
    }
    this.#redirectHops.set(target, hops);
    const next: FrontierItem = {
      url: target,
      origin: originOf(target),
      priority: item.priority,
      depth: item.depth,
      via: item.url,
      kind: item.kind,
    };
    return this.#skip(item, 'redirect', status, target, [next]);
  }

  async #html(
    item: TakenItem,
    outcome: Extract<Awaited<ReturnType<typeof fetchPage>>, { kind: 'html' }>,
  ): Promise<void> {
    const { facts } = outcome;
    const discovered: FrontierItem[] = [];
    const depth = item.depth + 1;
    const follow = !facts.robots.nofollow && !outcome.headerNofollow;
    if (follow && depth <= (this.#options.maxDepth ?? CRAWL_DEFAULTS.maxDepth)) {
      for (const link of facts.links) {
        const url = this.#normalize(link);
        if (url === null || !this.#onSite(url) || !this.#filter(url)) continue;
        discovered.push({
          url,
          origin: originOf(url),
          priority: PRIORITY_LINK,
          depth,
          via: item.url,
          kind: 'page',
        });
      }
    }
    if (this.#options.feeds) {
      for (const feed of facts.feeds) {
        const url = this.#normalize(feed.href);
        if (url !== null && this.#onSite(url)) this.#feedCandidates.add(url);
      }
    }
    const canonical = facts.canonical === null ? null : this.#normalize(facts.canonical);
    if (canonical !== null && canonical !== item.url) {
      if (this.#onSite(canonical)) {
        discovered.push({
          url: canonical,
          origin: originOf(canonical),
          priority: PRIORITY_LINK,
          depth: item.depth,
          via: item.url,
          kind: 'page',
        });
      }
      return this.#skip(item, 'canonical-elsewhere', outcome.status, canonical, discovered);
    }
    if (facts.robots.noindex)
      return this.#skip(item, 'noindex-meta', outcome.status, null, discovered);
    if (outcome.headerNoindex)
      return this.#skip(item, 'noindex-header', outcome.status, null, discovered);
    const data: Record<string, unknown> = {};
    if (this.#options.hreflang && facts.alternates.length > 0)
      data['alternates'] = facts.alternates;
    if (this.#options.images && facts.images.length > 0)
      data['images'] = facts.images.map((image) => ({ loc: image.loc }));
    const lastmod = this.#options.lastmod === 'none' ? null : outcome.lastModified;
    this.#listed++;
    this.#complete(
      item,
      {
        status: outcome.status,
        outcome: 'listed',
        reason: null,
        lastmod,
        data: Object.keys(data).length > 0 ? JSON.stringify(data) : null,
      },
      discovered,
    );
    await this.#emit({
      type: 'fetched',
      url: item.url,
      status: outcome.status,
      listed: true,
      links: discovered.length,
    });
  }

  async #skip(
    item: TakenItem,
    reason: SkipReason,
    status: number | null,
    detail: string | null,
    discovered: FrontierItem[] = [],
  ): Promise<void> {
    this.#skipped[reason] = (this.#skipped[reason] ?? 0) + 1;
    this.#complete(
      item,
      { status, outcome: 'skipped', reason, lastmod: null, data: detail },
      discovered,
    );
    await this.#emit({ type: 'skipped', url: item.url, reason, status, detail });
  }

  #complete(
    item: TakenItem,
    result: Pick<CrawlResultFields, 'status' | 'outcome' | 'reason'> & Partial<CrawlResultFields>,
    discovered: FrontierItem[],
  ): void {
    this.#state?.complete(
      item,
      { lastmod: null, finalUrl: null, data: null, ...result },
      discovered,
    );
  }

  #summary(began: number): CrawlSummary {
    const durationMs = Math.max(1, this.#now() - began);
    return {
      fetched: this.#fetched,
      listed: this.#listed,
      skipped: { ...this.#skipped },
      errors: this.#errors,
      sitemapUrls: this.#sitemapUrls,
      durationMs,
      rate: (this.#fetched * 1000) / durationMs,
      stoppedBy: this.#stoppedBy,
      sitemapComparison: null,
      feeds: [],
    };
  }
}

/** The origin of a URL `normalizeUrl` accepted (always http(s), so never null). */
function originOf(url: string): string {
  return originOrNull(url) ?? '';
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
