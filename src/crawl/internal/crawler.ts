import type { FetchFunction } from '../../http/index.ts';
import { productToken, type RobotsTxt } from '../../robots/index.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { normalizeUrl, originOf as originOrNull, pathFilter, sameSite } from '../../url/index.ts';
import type { CrawlResultFields, CrawlState, FrontierItem, TakenItem } from '../frontier.ts';
import { openSqliteCrawlState } from '../sqlite-crawl-state.ts';
import type { CrawlEvent, CrawlOptions, CrawlSummary } from '../types.ts';
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
import { RobotsGate, type RobotsUnreachable } from './robots-gate.ts';
import { seedFromSitemaps } from './sitemap-seed.ts';

type Emit = (event: CrawlEvent) => Promise<void>;

/**
 * What the crawl keeps in its state besides the URLs (`CrawlState.meta`), so that a resumed
 * crawl knows what the interrupted one did: the start URL it was for, whether the site's
 * sitemaps were read to the end and how many URLs they named, and how many links
 * `maxDepth` left unfollowed.
 */
const META = {
  start: 'start',
  seeded: 'sitemaps-read',
  sitemapUrls: 'sitemap-urls',
  depthCut: 'depth-cut',
} as const;

/** What the crawl itself knows at its end, beside the results in its state. */
export interface CrawlRunFacts {
  readonly start: string;
  readonly durationMs: number;
  readonly stoppedBy: CrawlSummary['stoppedBy'];
  /** URLs still queued when `maxPages` stopped the crawl. */
  readonly queuedAtStop: number;
  readonly depthCut: number;
  readonly sitemapUrls: number;
  /** Failures outside any URL's result (a bug, a state that could not be written). */
  readonly internalErrors: number;
  /** How the start origin's robots.txt failed, when it did. */
  readonly robotsUnreachable: RobotsUnreachable | null;
}

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
  /** Pages requested, against `maxPages` (a resumed crawl starts from what its state holds). */
  #fetched = 0;
  #internalErrors = 0;
  #sitemapUrls = 0;
  #depthCut = 0;
  /** `#depthCut` as last written to the state. */
  #depthCutSaved = 0;
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
        if (origin !== this.#origin || this.#seeding !== null || this.#seedingDone) return;
        // RFC 9309: an unreachable robots.txt closes the origin, its sitemaps too (also the
        // ones given with --sitemap); a resume tries again.
        if (robots.source === 'unreachable' && options.respectRobots !== false) {
          this.#seedingDone = true;
          this.#wake?.();
          return;
        }
        this.#seeding = this.#seed(robots).then(() => this.#seeded());
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

  async run(): Promise<CrawlRunFacts> {
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
    try {
      this.#restore(this.#state);
      if (!this.#decision.passes(start)) {
        await this.#emit({
          type: 'warning',
          message: `the start URL ${start} does not pass --include/--exclude: it is fetched for its links but not listed`,
        });
      }
      this.#state.add({
        url: start,
        origin: this.#origin,
        priority: PRIORITY_LINK,
        depth: 0,
        via: null,
        kind: 'page',
      });
      // The start origin's robots.txt at once: its sitemaps are read even when the queue
      // holds nothing of that origin (a resumed crawl whose pages are all done).
      if (!this.#seedingDone) this.#robots.originReady(this.#origin);
      await this.#loop();
      await Promise.all(this.#inFlight);
      await this.#seeding;
      this.#commit(() => {});
      const queued = this.#state.counts().queued;
      const maxPages = this.#options.maxPages ?? CRAWL_DEFAULTS.maxPages;
      if (this.#stoppedBy === null && this.#fetched >= maxPages && queued > 0) {
        this.#stoppedBy = 'max-pages';
      }
      return {
        start,
        durationMs: Math.max(1, this.#now() - began),
        stoppedBy: this.#stoppedBy,
        queuedAtStop: this.#stoppedBy === 'max-pages' ? queued : 0,
        depthCut: this.#depthCut,
        sitemapUrls: this.#sitemapUrls,
        internalErrors: this.#internalErrors,
        robotsUnreachable: this.#robots.unreachable(this.#origin),
      };
    } catch (error) {
      this.#state.close();
      throw error;
    }
  }

  /**
   * What an interrupted crawl in the state already did: its start URL (a resume must be for
   * the same one), pages requested (against `maxPages`), whether its sitemaps were read.
   */
  #restore(state: CrawlState): void {
    const saved = state.meta(META.start);
    if (saved !== null && saved !== this.#start) {
      throw new WaymarkError(
        'invalid-argument',
        `the crawl state holds a crawl of ${saved}, not of ${this.#start}: resume it with that URL, or start afresh without --resume`,
      );
    }
    if (saved === null) state.setMeta(META.start, this.#start);
    if (!state.resumed) return;
    this.#seedingDone = state.meta(META.seeded) === '1';
    this.#sitemapUrls = Number(state.meta(META.sitemapUrls) ?? 0);
    this.#depthCut = Number(state.meta(META.depthCut) ?? 0);
    this.#depthCutSaved = this.#depthCut;
    for (const result of state.results()) if (wasRequested(result)) this.#fetched++;
  }

  /** The site's sitemaps were read to the end: a resume need not read them again. */
  #seeded(): void {
    if (this.#options.signal?.aborted) return;
    const state = this.#state as CrawlState;
    state.setMeta(META.sitemapUrls, String(this.#sitemapUrls));
    state.setMeta(META.seeded, '1');
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
        await Promise.all(this.#inFlight);
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
      if (this.#fetched >= maxPages && this.#inFlight.size === 0) return;
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
      if (this.#depthCut !== this.#depthCutSaved) {
        state.setMeta(META.depthCut, String(this.#depthCut));
        this.#depthCutSaved = this.#depthCut;
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
        // Stopping aborts what is in flight; those items stay in flight in the state and a
        // resume takes them again. That is no error.
        if (this.#options.signal?.aborted) return;
        this.#internalErrors++;
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
        fromRobots: this.#options.sitemaps === false ? [] : robots.sitemaps,
        given: this.#options.extraSitemaps ?? [],
        fetch: this.#politeFetch,
        userAgent: this.#userAgent,
        timeoutMs: this.#options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
        warn: (message) => this.#emit({ type: 'warning', message }),
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
    if (item.url.length > CRAWL_DEFAULTS.maxUrlLength) {
      const detail = `${item.url.length} characters, more than ${CRAWL_DEFAULTS.maxUrlLength}`;
      return this.#record(item, skipped(item, 'url-too-long', null, detail));
    }
    const verdict = this.#robots.verdict(item.url, item.origin);
    if (verdict !== 'allowed') {
      const reason = verdict === 'unreachable' ? 'robots-unreachable' : 'robots-disallowed';
      return this.#record(item, skipped(item, reason, null, null));
    }
    // The start page is fetched whatever the filters say: the crawl goes on from its links.
    const excluded = !this.#decision.passes(item.url);
    if (excluded && item.url !== this.#start) {
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
    const decision = decidePage(item, outcome, this.#decision);
    if (excluded && decision.kind === 'record' && decision.skipped === null) {
      const discovered = decision.discovered;
      return this.#record(
        item,
        skipped(item, 'excluded', decision.result.status, null, discovered),
      );
    }
    return this.#record(item, decision);
  }

  /** Queues the decision's result for the next commit; retries go back now. */
  async #record(item: TakenItem, decision: PageDecision): Promise<void> {
    if (decision.kind === 'retry') {
      this.#schedule.holdUntil(item.origin, decision.until);
      this.#state?.release(item, decision.until);
      this.#fetched--;
      return;
    }
    this.#depthCut += decision.depthCut ?? 0;
    this.#pending.push({ item, result: decision.result, discovered: decision.discovered });
    await this.#emit(decision.event);
  }
}

/**
 * True for a result whose URL was requested: it has a status, or the request failed.
 * Left out before any request: robots.txt, the filters, a URL too long.
 */
export function wasRequested(result: CrawlResultFields): boolean {
  return result.status !== null || result.outcome === 'error';
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
