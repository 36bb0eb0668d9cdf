import type { FetchFunction } from '../../http/index.ts';
import { productToken, type RobotsTxt } from '../../robots/index.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { normalizeUrl, originOf as originOrNull, pathFilter, sameSite } from '../../url/index.ts';
import type { CrawlResultFields, CrawlState, FrontierItem, TakenItem } from '../frontier.ts';
import { openSqliteCrawlState } from '../sqlite-crawl-state.ts';
import type { CrawlEvent, CrawlOptions, CrawlSummary, SkipReason } from '../types.ts';
import { CRAWL_DEFAULTS } from './crawl-defaults.ts';
import { confirmFeeds } from './feeds.ts';
import { HostSchedule } from './host-schedule.ts';
import { fetchPage } from './page-fetch.ts';
import {
  type DecisionContext,
  decidePage,
  type PageDecision,
  PRIORITY_LINK,
  skipped,
} from './page-outcomes.ts';
import { RobotsGate } from './robots-gate.ts';
import { seedFromSitemaps } from './sitemap-seed.ts';

type Emit = (event: CrawlEvent) => Promise<void>;

/** A result waiting for the next commit (see `#commit`). */
interface PendingResult {
  readonly item: TakenItem;
  readonly result: CrawlResultFields;
  readonly discovered: readonly FrontierItem[];
}

/** Everything one crawl needs; `run()` once. */
export class Crawler {
  readonly #options: CrawlOptions;
  readonly #emit: Emit;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #userAgent: string;
  readonly #agentToken: string;
  readonly #schedule: HostSchedule;
  readonly #robots: RobotsGate;
  readonly #decision: DecisionContext;
  readonly #inFlight = new Set<Promise<void>>();
  /**
   * Results recorded since the last commit. Each still holds its request's slot: the loop
   * commits them before it takes more work, so what a `kill -9` can lose (requests in flight
   * plus results not yet committed) is never more than `concurrency` pages.
   */
  #pending: PendingResult[] = [];
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
    this.#robots = new RobotsGate({
      schedule: this.#schedule,
      userAgent: this.#userAgent,
      agentToken: this.#agentToken,
      timeoutMs: options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      respectRobots: options.respectRobots !== false,
      robotsError: options.robotsError ?? 'disallow',
      ignoreCrawlDelay: rate === 0,
      ...this.#fetchOption(),
      ...(options.signal ? { signal: options.signal } : {}),
      now: this.#now,
      emit,
      track: (task) => this.#track(task),
      onRobots: (origin, robots) => {
        if (origin === this.#origin && this.#seeding === null) this.#seeding = this.#seed(robots);
      },
    });
    const filter = pathFilter({
      ...(options.include ? { include: [...options.include] } : {}),
      ...(options.exclude ? { exclude: [...options.exclude] } : {}),
    });
    this.#decision = {
      options,
      normalize: (url, base) => this.#normalize(url, base),
      onSite: (url) => this.#onSite(url),
      passes: filter,
      originOf,
      redirectHops: new Map(),
      feedCandidates: new Set(),
      now: this.#now,
    };
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
      this.#commit(() => {});
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
      // The results that came in and the items that take their slots: one commit. An item
      // is taken (and its request started) only once the result it replaces is durable.
      const taken = this.#commit(() => {
        const items: TakenItem[] = [];
        while (this.#inFlight.size + items.length < concurrency) {
          if (this.#fetched + items.length >= maxPages) break;
          // One item at a time: booking a request changes whether its origin is ready.
          const [item] = state.take(1, (origin) => this.#robots.originReady(origin));
          if (item === undefined) break;
          this.#schedule.book(item.origin, this.#now());
          items.push(item);
        }
        return items;
      });
      for (const item of taken) this.#track(this.#process(item));
      if (this.#fetched >= maxPages) this.#stoppedBy = 'max-pages';
      if (this.#stoppedBy === 'max-pages' && this.#inFlight.size === 0) return;
      const idle = this.#inFlight.size === 0 && taken.length === 0 && this.#pending.length === 0;
      if (idle && this.#robots.pending === 0 && this.#seedingDone && state.counts().queued === 0)
        return;
      await this.#waitForWork();
    }
  }

  /**
   * Writes the pending results, then runs `fn`, as one transaction of the state when it
   * supports them (see `CrawlState.transaction`), else call by call.
   */
  #commit<T>(fn: () => T): T {
    const state = this.#state as CrawlState;
    const write = (): T => {
      const pending = this.#pending;
      this.#pending = [];
      for (const { item, result, discovered } of pending) {
        state.complete(item, result, discovered);
      }
      return fn();
    };
    return state.transaction ? state.transaction(write) : write();
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
    // Let the other responses that arrived in this turn of the event loop finish too, so
    // one commit records them all.
    await new Promise<void>((resolve) => setImmediate(resolve));
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

  #fetchOption(): { fetch?: FetchFunction } {
    return this.#options.fetch ? { fetch: this.#options.fetch } : {};
  }

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
    return confirmFeeds([...this.#decision.feedCandidates], {
      allowed: (url) => this.#robots.allows(url, originOf(url)),
      fetch: this.#politeFetch,
      userAgent: this.#userAgent,
      timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      maxBytes: this.#options.maxBodyBytes ?? CRAWL_DEFAULTS.maxBodyBytes,
      warn: (message) => this.#emit({ type: 'warning', message }),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
  }

  /** Queues the URLs of the site's sitemaps (named in robots.txt, or given). */
  async #seed(robots: RobotsTxt): Promise<void> {
    try {
      await seedFromSitemaps({
        urls: [
          ...(this.#options.sitemaps === false ? [] : robots.sitemaps),
          ...(this.#options.extraSitemaps ?? []),
        ],
        fetch: this.#politeFetch,
        userAgent: this.#userAgent,
        ...(this.#options.signal ? { signal: this.#options.signal } : {}),
        normalize: (url) => this.#normalize(url),
        onSite: (url) => this.#onSite(url),
        originOf,
        feedCandidates: this.#options.feeds ? this.#decision.feedCandidates : null,
        add: (items) => {
          this.#sitemapUrls += items.length;
          this.#state?.addMany(items);
          this.#wake?.();
        },
      });
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

  async #process(item: TakenItem): Promise<void> {
    if (!this.#robots.allows(item.url, item.origin)) {
      return this.#record(item, skipped(item, 'robots-disallowed', null, null));
    }
    if (!this.#decision.passes(item.url)) {
      return this.#record(item, skipped(item, 'excluded', null, null));
    }
    this.#fetched++;
    const outcome = await fetchPage(item.url, {
      ...this.#fetchOption(),
      userAgent: this.#userAgent,
      timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      maxBytes: this.#options.maxBodyBytes ?? CRAWL_DEFAULTS.maxBodyBytes,
      now: this.#now,
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
    return this.#record(item, decidePage(item, outcome, this.#decision));
  }

  /** Counts the decision and queues its result for the next commit; retries go back now. */
  async #record(item: TakenItem, decision: PageDecision): Promise<void> {
    if (decision.kind === 'retry') {
      this.#schedule.holdUntil(item.origin, decision.until);
      this.#state?.release(item, decision.until);
      this.#fetched--;
      return;
    }
    if (decision.skipped !== null) {
      this.#skipped[decision.skipped] = (this.#skipped[decision.skipped] ?? 0) + 1;
    } else if (decision.event.type === 'error') this.#errors++;
    else this.#listed++;
    this.#pending.push({ item, result: decision.result, discovered: decision.discovered });
    await this.#emit(decision.event);
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
