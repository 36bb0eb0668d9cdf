import { type RobotsTxt, robotsForStatus } from '../../robots/index.ts';
import type { CrawlState, HostRobots } from '../crawl-state.ts';
import type { CrawlEvent } from '../types.ts';
import type { SharedCrawlOptions } from './crawl-settings.ts';
import type { WaitForTurn } from './host-turn.ts';
import type { RequestContext } from './request-context.ts';
import { fetchRobots } from './robots-fetch.ts';

export interface RobotsGateOptions {
  readonly state: CrawlState;
  readonly context: RequestContext;
  readonly shared: SharedCrawlOptions;
  /** The product token robots.txt groups are matched against. */
  readonly agentToken: string;
  /** Milliseconds between requests to one host before Crawl-delay. */
  readonly baseGapMs: number;
  readonly emit: (event: CrawlEvent) => Promise<void>;
  /** Waits for a host's turn: before each redirect of a robots.txt (its first request was booked with its claim). */
  readonly waitForTurn: WaitForTurn;
}

/** How an origin's robots.txt fetch ended, when it left the origin closed (RFC 9309 2.3.1.3). */
export interface RobotsUnreachable {
  /** The status that decided (5xx, 429), or 'network-error'. */
  readonly status: number | 'network-error';
  /** For a network error, why (`ECONNREFUSED`, `timeout`, ...). */
  readonly detail: string | null;
}

/** What robots.txt says of one URL; `unreachable`: the file could not be had, so nothing may be. */
export type RobotsVerdict = 'allowed' | 'disallowed' | 'unreachable';

/**
 * robots.txt for this worker: fetches the files the crawl state hands it and records each
 * outcome for every worker (with the host's gap, Crawl-delay included), and keeps a
 * `RobotsTxt` per host, rebuilt from the state's record for a host another worker fetched.
 */
export class RobotsGate {
  readonly #options: RobotsGateOptions;
  /** The policy this crawl follows per origin (`--robots-error allow` applied). */
  readonly #robots = new Map<string, RobotsTxt>();
  readonly #unreachable = new Map<string, RobotsUnreachable>();

  constructor(options: RobotsGateOptions) {
    this.#options = options;
  }

  /** The origin's policy when this worker has it already. */
  cached(origin: string): RobotsTxt | undefined {
    return this.#robots.get(origin);
  }

  /** The origin's policy as recorded in the crawl state (by any worker), or null when none is. */
  async known(origin: string): Promise<RobotsTxt | null> {
    const cached = this.#robots.get(origin);
    if (cached !== undefined) return cached;
    const recorded = await this.#options.state.robots(origin);
    return recorded === null ? null : this.#keep(origin, recorded);
  }

  /**
   * Fetches the origin's robots.txt (the crawl state gave this worker the fetch and booked
   * it as a request) and records the outcome for every worker.
   */
  async fetch(origin: string): Promise<RobotsTxt> {
    const o = this.#options;
    let booked = true;
    const fetched = await fetchRobots(origin, o.context, (url, signal) => {
      if (!booked) return o.waitForTurn(url, signal);
      booked = false;
      return Promise.resolve();
    });
    const outcome: HostRobots = {
      status: fetched.status,
      detail: fetched.detail,
      url: fetched.url,
      body: fetched.body,
      gapMs: 0,
    };
    const robots = this.#keep(origin, outcome);
    const crawlDelay = o.shared.rate === 0 ? null : robots.crawlDelay(o.agentToken);
    await o.state.settleRobots(origin, { ...outcome, gapMs: this.#gapMs(crawlDelay) });
    if (fetched.robots.source === 'unreachable' && o.shared.robotsError === 'allow') {
      await o.emit({
        type: 'warning',
        message: `robots.txt of ${origin} is unreachable (${fetched.detail ?? fetched.status}); crawling it anyway because of --robots-error allow. RFC 9309 says to stay away.`,
      });
    }
    await o.emit({
      type: 'robots',
      origin,
      status: fetched.status,
      source: robots.source,
      crawlDelay,
      detail: fetched.detail,
    });
    return robots;
  }

  /** What robots.txt says of `url` (always `allowed` when robots.txt is not obeyed). */
  verdict(url: string, robots: RobotsTxt | undefined): RobotsVerdict {
    if (!this.#options.shared.respectRobots) return 'allowed';
    if (robots === undefined || robots.isAllowed(url, this.#options.agentToken)) return 'allowed';
    return robots.source === 'unreachable' ? 'unreachable' : 'disallowed';
  }

  /**
   * How the origin's robots.txt fetch failed, when it did (5xx, 429, network error), whether
   * or not the crawl then obeyed it (`--robots-error allow`); null otherwise or when unknown.
   */
  async unreachable(origin: string): Promise<RobotsUnreachable | null> {
    await this.known(origin);
    return this.#unreachable.get(origin) ?? null;
  }

  /** The policy an outcome means for this crawl, kept for the origin. */
  #keep(origin: string, outcome: HostRobots): RobotsTxt {
    const read =
      outcome.body === null
        ? robotsForStatus(outcome.status)
        : robotsForStatus(outcome.status, outcome.body, { url: outcome.url });
    let robots = read;
    if (read.source === 'unreachable') {
      this.#unreachable.set(origin, { status: outcome.status, detail: outcome.detail });
      if (this.#options.shared.robotsError === 'allow') robots = robotsForStatus(404);
    }
    this.#robots.set(origin, robots);
    return robots;
  }

  /** The crawl's gap, raised to the host's Crawl-delay (seconds), capped by `maxCrawlDelay`. */
  #gapMs(crawlDelay: number | null): number {
    const { baseGapMs, shared } = this.#options;
    if (crawlDelay === null || crawlDelay <= 0) return baseGapMs;
    return Math.max(baseGapMs, Math.min(crawlDelay, shared.maxCrawlDelay) * 1000);
  }
}
