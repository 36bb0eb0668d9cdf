import type { FetchFunction } from '../../http/index.ts';
import { type RobotsTxt, robotsForStatus } from '../../robots/index.ts';
import type { CrawlEvent } from '../types.ts';
import type { HostSchedule } from './host-schedule.ts';
import { fetchRobots } from './robots-fetch.ts';

export interface RobotsGateOptions {
  readonly schedule: HostSchedule;
  readonly userAgent: string;
  /** The product token robots.txt groups are matched against. */
  readonly agentToken: string;
  readonly timeoutMs: number;
  /** Obey robots.txt (false: fetched all the same, for Crawl-delay and sitemaps, never obeyed). */
  readonly respectRobots: boolean;
  /** What an unreachable robots.txt means (RFC 9309: disallow). */
  readonly robotsError: 'disallow' | 'allow';
  /** Rate limits off: Crawl-delay is ignored too. */
  readonly ignoreCrawlDelay: boolean;
  readonly fetch?: FetchFunction;
  readonly signal?: AbortSignal;
  readonly now: () => number;
  readonly emit: (event: CrawlEvent) => Promise<void>;
  /** Runs a fetch of robots.txt in the background, counted with the crawl's other work. */
  readonly track: (task: Promise<void>) => void;
  /** Called once per origin when its robots.txt outcome is known. */
  readonly onRobots: (origin: string, robots: RobotsTxt) => void;
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
 * robots.txt before anything else, per origin: an origin is not ready until its robots.txt
 * outcome is known, and asking starts the fetch. The outcome sets the origin's Crawl-delay
 * and answers whether each URL may be fetched.
 */
export class RobotsGate {
  readonly #options: RobotsGateOptions;
  readonly #robots = new Map<string, RobotsTxt>();
  readonly #unreachable = new Map<string, RobotsUnreachable>();
  readonly #pending = new Set<string>();

  constructor(options: RobotsGateOptions) {
    this.#options = options;
  }

  /** robots.txt fetches still under way. */
  get pending(): number {
    return this.#pending.size;
  }

  /** True when a page of `origin` may be requested now; starts its robots.txt fetch if needed. */
  originReady(origin: string): boolean {
    const { schedule } = this.#options;
    if (!schedule.robotsKnown(origin)) {
      if (!this.#pending.has(origin)) {
        this.#pending.add(origin);
        this.#options.track(this.#load(origin));
      }
      return false;
    }
    return schedule.ready(origin, this.#options.now());
  }

  /** Whether robots.txt lets the crawler fetch `url` (true when robots.txt is not obeyed). */
  allows(url: string, origin: string): boolean {
    return this.verdict(url, origin) === 'allowed';
  }

  /** {@link allows}, telling a rule's refusal from an origin closed by an unreachable file. */
  verdict(url: string, origin: string): RobotsVerdict {
    if (!this.#options.respectRobots) return 'allowed';
    const robots = this.#robots.get(origin);
    if (robots === undefined || robots.isAllowed(url, this.#options.agentToken)) return 'allowed';
    return robots.source === 'unreachable' ? 'unreachable' : 'disallowed';
  }

  /**
   * How the origin's robots.txt fetch failed, when it did (5xx, 429, network error),
   * whether or not the crawl then obeyed it (`--robots-error allow`); null otherwise.
   */
  unreachable(origin: string): RobotsUnreachable | null {
    return this.#unreachable.get(origin) ?? null;
  }

  async #load(origin: string): Promise<void> {
    const o = this.#options;
    // robots.txt is the first request to every origin, and counts for its politeness too.
    o.schedule.book(origin, o.now());
    const { robots, status, detail } = await fetchRobots(origin, {
      userAgent: o.userAgent,
      timeoutMs: o.timeoutMs,
      ...(o.fetch ? { fetch: o.fetch } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    let effective = robots;
    if (robots.source === 'unreachable') {
      this.#unreachable.set(origin, { status, detail });
      if (o.robotsError === 'allow') {
        effective = robotsForStatus(404);
        await o.emit({
          type: 'warning',
          message: `robots.txt of ${origin} is unreachable (${detail ?? status}); crawling it anyway because of --robots-error allow. RFC 9309 says to stay away.`,
        });
      }
    }
    this.#robots.set(origin, effective);
    const crawlDelay = o.ignoreCrawlDelay ? null : effective.crawlDelay(o.agentToken);
    o.schedule.setRobots(origin, crawlDelay);
    this.#pending.delete(origin);
    await o.emit({
      type: 'robots',
      origin,
      status,
      source: effective.source,
      crawlDelay,
      detail,
    });
    o.onRobots(origin, effective);
  }
}
