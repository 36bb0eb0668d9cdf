/**
 * When each origin may receive its next request. Pure: the clock is passed in.
 *
 * Politeness per origin is a token bucket of one token (a fixed gap between requests):
 * `1 / rate` seconds, raised to the site's `Crawl-delay` when it asks for more (capped, so a
 * site cannot stall the crawl for hours), and pushed back by `Retry-After`. An origin is not
 * ready at all until its robots.txt outcome is known: no request of any kind leaves before.
 */
export interface HostScheduleOptions {
  /** Requests per second per origin; 0 turns the limit (and Crawl-delay) off. */
  readonly rate: number;
  /** The longest Crawl-delay honoured, in seconds. */
  readonly maxCrawlDelay: number;
}

interface OriginState {
  robotsKnown: boolean;
  /** Milliseconds between requests. */
  gap: number;
  /** Epoch ms before which no request may start. */
  next: number;
}

export class HostSchedule {
  readonly #options: HostScheduleOptions;
  readonly #origins = new Map<string, OriginState>();

  constructor(options: HostScheduleOptions) {
    this.#options = options;
  }

  #state(origin: string): OriginState {
    let state = this.#origins.get(origin);
    if (state === undefined) {
      const gap = this.#options.rate > 0 ? 1000 / this.#options.rate : 0;
      state = { robotsKnown: false, gap, next: 0 };
      this.#origins.set(origin, state);
    }
    return state;
  }

  /** Whether robots.txt for `origin` has been settled (fetched, or given up on). */
  robotsKnown(origin: string): boolean {
    return this.#state(origin).robotsKnown;
  }

  /** Marks robots.txt settled and applies its Crawl-delay (seconds, or null). */
  setRobots(origin: string, crawlDelay: number | null): void {
    const state = this.#state(origin);
    state.robotsKnown = true;
    if (this.#options.rate > 0 && crawlDelay !== null && crawlDelay > 0) {
      state.gap = Math.max(state.gap, Math.min(crawlDelay, this.#options.maxCrawlDelay) * 1000);
    }
  }

  /** True when a page request to `origin` may start at `now`. */
  ready(origin: string, now: number): boolean {
    const state = this.#state(origin);
    return state.robotsKnown && now >= state.next;
  }

  /** Books a request starting at `now`: the next may start one gap later. */
  book(origin: string, now: number): void {
    const state = this.#state(origin);
    state.next = Math.max(state.next, now) + state.gap;
  }

  /** Holds the origin back until `until` (epoch ms), for Retry-After. */
  holdUntil(origin: string, until: number): void {
    const state = this.#state(origin);
    state.next = Math.max(state.next, until);
  }

  /** Milliseconds until some origin with queued work could be ready, for sleeping. */
  waitHint(now: number): number {
    let soonest = Number.POSITIVE_INFINITY;
    for (const state of this.#origins.values()) {
      if (state.robotsKnown) soonest = Math.min(soonest, state.next - now);
    }
    return Number.isFinite(soonest) ? Math.max(0, soonest) : 0;
  }

  /** The effective gap for `origin`, in ms (for the log). */
  gap(origin: string): number {
    return this.#state(origin).gap;
  }
}
