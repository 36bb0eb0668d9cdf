import type { RobotsTxt } from '../../robots/index.ts';
import { errorMessage } from '../../shared/error-message.ts';
import type { SitemapReport } from '../../sitemap/index.ts';
import {
  type CrawlState,
  type FrontierItem,
  SITEMAP_FILE_DIAGNOSTICS,
  type SitemapFileRecord,
} from '../crawl-state.ts';
import type { SharedCrawlOptions } from './crawl-settings.ts';
import type { WaitForTurn } from './host-turn.ts';
import type { RequestContext } from './request-context.ts';
import type { RobotsGate } from './robots-gate.ts';
import { seedFromSitemaps } from './sitemap-seed.ts';

export interface SiteSitemapsOptions {
  readonly state: CrawlState;
  readonly robots: RobotsGate;
  readonly shared: SharedCrawlOptions;
  readonly context: RequestContext;
  /** The start URL's origin: its robots.txt names the site's sitemaps. */
  readonly origin: string;
  /** Waits for the host's turn before each request. */
  readonly waitForTurn: WaitForTurn;
  readonly normalize: (url: string) => string | null;
  readonly onSite: (url: string) => boolean;
  readonly originOf: (url: string) => string;
  /** Runs work in the background, counted with the worker's other work. */
  readonly track: (task: Promise<void>) => void;
  /** URLs were queued: the worker may have work again. */
  readonly wake: () => void;
  readonly warn: (message: string) => Promise<void>;
}

/**
 * The start host's robots.txt, then the site's sitemaps, read by the one worker that claims
 * them: their URLs are queued ahead of links. A worker asks when it starts and again now
 * and then while the crawl is open, since the worker reading them may die (its claim then
 * passes to another) or the start host's robots.txt may be another worker's to fetch.
 */
export class SiteSitemaps {
  readonly #options: SiteSitemapsOptions;
  /** Nothing more for this worker to do: it read the sitemaps, or they were read. */
  #settled = false;
  #busy = false;
  /** On-site URLs this worker queued from the sitemaps. */
  #queued = 0;
  /** The sitemap files read (or not), kept with the crawl for its report. */
  #files: SitemapFileRecord[] = [];

  constructor(options: SiteSitemapsOptions) {
    this.#options = options;
  }

  /** On-site URLs this worker queued from the sitemaps so far. */
  get queued(): number {
    return this.#queued;
  }

  /** The crawl's record says the sitemaps were read: nothing to ask for. */
  markRead(): void {
    this.#settled = true;
  }

  /**
   * Claims what there is to claim (the start host's robots.txt, the sitemaps) and starts
   * the work in the background. Returns once the claims are made, so a step that follows
   * cannot hand the start host's robots.txt to this worker a second time.
   */
  async poll(): Promise<void> {
    if (this.#settled || this.#busy) return;
    const o = this.#options;
    this.#busy = true;
    let started = false;
    try {
      let robots = await o.robots.known(o.origin);
      if (robots === null) {
        const claim = await o.state.claimRobots(o.origin);
        if (claim === 'busy') return;
        if (claim === 'fetch') {
          o.track(this.#fetchThenRead());
          started = true;
          return;
        }
        robots = await o.robots.known(o.origin);
        if (robots === null) return;
      }
      o.track(this.#claimAndRead(robots));
      started = true;
    } finally {
      if (!started) this.#busy = false;
    }
  }

  async #fetchThenRead(): Promise<void> {
    const o = this.#options;
    let robots: RobotsTxt;
    try {
      robots = await o.robots.fetch(o.origin);
    } catch (error) {
      this.#busy = false;
      throw error;
    }
    o.wake();
    await this.#claimAndRead(robots);
  }

  async #claimAndRead(robots: RobotsTxt): Promise<void> {
    const o = this.#options;
    try {
      if (!(await o.state.claimSitemaps())) return;
      // RFC 9309: an unreachable robots.txt closes the origin, its sitemaps too (also the
      // ones given with --sitemap); they stay unread, for a resume to try again.
      if (robots.source === 'unreachable' && o.shared.respectRobots) {
        await o.state.settleSitemaps(null);
        this.#settled = true;
        return;
      }
      await this.#read(robots);
      if (o.context.signal?.aborted) return;
      await o.state.settleSitemaps(this.#queued, this.#files);
      this.#settled = true;
    } finally {
      this.#busy = false;
      o.wake();
    }
  }

  /** Queues the URLs of the site's sitemaps (named in robots.txt, or given). */
  async #read(robots: RobotsTxt): Promise<void> {
    const o = this.#options;
    try {
      await seedFromSitemaps({
        fromRobots: o.shared.sitemaps ? robots.sitemaps : [],
        given: o.shared.extraSitemaps,
        waitForTurn: o.waitForTurn,
        context: o.context,
        warn: o.warn,
        normalize: o.normalize,
        onSite: o.onSite,
        originOf: o.originOf,
        onReport: (report) => this.#files.push(fileRecord(report, o.context.now())),
        add: async (items: FrontierItem[]) => {
          this.#queued += items.length;
          await o.state.add(items);
          o.wake();
        },
      });
    } catch (error) {
      if (o.context.signal?.aborted) throw error;
      await o.warn(`reading the sitemaps failed: ${errorMessage(error)}`);
    }
  }
}

/**
 * A sitemap file's report as the crawl state keeps it: diagnostics capped, those that say
 * the file is over the protocol's limits always kept (the report judges the file by them).
 */
export function fileRecord(report: SitemapReport, readAt: number): SitemapFileRecord {
  const { url, parent, status, kind, entries, skipped } = report;
  const overLimits = report.diagnostics.filter((d) => d.code.startsWith('over-protocol-'));
  const diagnostics = [
    ...overLimits,
    ...report.diagnostics.filter((d) => !d.code.startsWith('over-protocol-')),
  ];
  return {
    url,
    parent,
    status,
    kind,
    entries,
    skipped,
    diagnostics: diagnostics.slice(0, SITEMAP_FILE_DIAGNOSTICS),
    diagnosticsDropped: Math.max(0, diagnostics.length - SITEMAP_FILE_DIAGNOSTICS),
    readAt,
  };
}
