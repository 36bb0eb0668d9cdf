import { productToken } from '../../robots/index.ts';
import type {
  CrawlState,
  FinishedItem,
  ReleasedItem,
  StepResult,
  TakenItem,
} from '../crawl-state.ts';
import type { CrawlEvent } from '../types.ts';
import { type OpenedCrawl, urlRules } from './crawl-record.ts';
import { type CrawlRunFacts, type RunEnd, runFacts, startWarnings } from './crawl-run-facts.ts';
import { baseGapMs, type WorkerSettings } from './crawl-settings.ts';
import { feedCandidates } from './feed-candidates.ts';
import { confirmFeeds, feedHostRobots } from './feeds.ts';
import { hostTurn, type WaitForTurn } from './host-turn.ts';
import { type DecisionContext, PRIORITY_LINK } from './page-outcomes.ts';
import { crawlItem, type PageWork } from './page-work.ts';
import { type RequestContext, requestContext } from './request-context.ts';
import { RobotsGate } from './robots-gate.ts';
import { SiteSitemaps } from './site-sitemaps.ts';

type Emit = (event: CrawlEvent) => Promise<void>;

/** How often, at most, an idle worker asks again for the sitemaps' claim. */
const SITEMAPS_POLL_MS = 1000;
/** The longest an idle worker sleeps before it asks the state again (other workers' work). */
const MAX_IDLE_MS = 1000;
/** What a worker's wait is aborted with when work came before its timer. */
const WAIT_OVER = 'wait over';
/**
 * The longest a result waits for others to be recorded with it (real milliseconds). A step
 * is a commit: one per result makes every page pay for a transaction and for writing the
 * database pages its links touch; a step for several shares both.
 */
const GATHER_MS = 4;
/** Out of `concurrency`, the results a step waits for (at most {@link GATHER_MS}). */
const GATHER_SHARE = 0.5;

/**
 * One worker on one crawl: it asks the crawl state for items of hosts whose turn has come,
 * crawls them `concurrency` at a time, and records each result with the step that takes
 * the next. Other workers (other processes, other machines) may work on the same crawl at
 * the same time; the crawl ends when the state says nothing is left anywhere.
 */
export class Crawler {
  readonly #state: CrawlState;
  readonly #crawl: OpenedCrawl;
  readonly #worker: WorkerSettings;
  readonly #emit: Emit;
  readonly #origin: string;
  readonly #context: RequestContext;
  /** Stops this worker's requests when it fails; the caller's signal does too. */
  readonly #halt = new AbortController();
  readonly #robots: RobotsGate;
  readonly #decision: DecisionContext;
  readonly #work: PageWork;
  readonly #sitemaps: SiteSitemaps;
  readonly #waitForTurn: WaitForTurn;
  readonly #tasks = new Set<Promise<void>>();
  /** Items taken and not yet finished (counted for `concurrency`). */
  #activeItems = 0;
  #activeRobots = 0;
  /** Taken items not yet known to be requested or left out. */
  #undecided = 0;
  /** Requests made whose result is not yet recorded (against `maxPages`). */
  #unrecorded = 0;
  /** Taken items whose result (or release) is not yet in `#finished` / `#released`. */
  #outstanding = 0;
  /** Results and releases for the next step (each still counted in the state as in flight). */
  #finished: FinishedItem[] = [];
  #released: ReleasedItem[] = [];
  /** Pages requested by the whole crawl, as of the last step. */
  #requested: number;
  #failure: { error: unknown } | null = null;
  #lastSitemapsPoll = 0;
  /** Something happened since the last step (a task ended, URLs came): no need to sleep. */
  #woken = false;
  #wake: (() => void) | null = null;

  constructor(state: CrawlState, crawl: OpenedCrawl, worker: WorkerSettings, emit: Emit) {
    this.#state = state;
    this.#crawl = crawl;
    this.#worker = worker;
    this.#emit = emit;
    this.#origin = new URL(crawl.start).origin;
    this.#requested = crawl.record.requested;
    const { shared } = crawl;
    const signal = worker.signal
      ? AbortSignal.any([worker.signal, this.#halt.signal])
      : this.#halt.signal;
    this.#context = requestContext(shared, worker, signal);
    this.#waitForTurn = hostTurn(state, worker.sleep);
    this.#robots = new RobotsGate({
      state,
      context: this.#context,
      shared,
      agentToken: productToken(shared.userAgent),
      baseGapMs: baseGapMs(shared),
      emit,
      waitForTurn: this.#waitForTurn,
    });
    this.#decision = urlRules(crawl, worker.now);
    this.#work = {
      robots: this.#robots,
      decision: this.#decision,
      context: this.#context,
      start: crawl.start,
    };
    this.#sitemaps = new SiteSitemaps({
      state,
      robots: this.#robots,
      shared,
      context: this.#context,
      origin: this.#origin,
      waitForTurn: this.#waitForTurn,
      normalize: (url) => this.#decision.normalize(url),
      onSite: this.#decision.onSite,
      originOf: this.#decision.originOf,
      track: (task) => this.#track(task),
      wake: () => this.#wakeUp(),
      warn: (message) => emit({ type: 'warning', message }),
    });
  }

  /** Crawls until the crawl has nothing left, `maxPages` is reached, or the signal stops it. */
  async run(): Promise<CrawlRunFacts> {
    const began = this.#worker.now();
    const end = (rest: Omit<RunEnd, 'began' | 'now' | 'sitemapsQueued'>) =>
      runFacts(this.#state, this.#crawl, this.#robots, {
        began,
        now: this.#worker.now(),
        sitemapsQueued: this.#sitemaps.queued,
        ...rest,
      });
    const { shared, start, record } = this.#crawl;
    // Finished before: its output is written from the state (not by a worker that joins).
    if (record.finishedAt !== null) {
      return end({ stoppedBy: null, queuedAtStop: 0, writes: !this.#worker.join });
    }
    for (const message of startWarnings(this.#crawl, this.#decision.passes)) {
      await this.#emit({ type: 'warning', message });
    }
    const onAbort = () => this.#wakeUp();
    this.#worker.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.#state.add([
        {
          url: start,
          origin: this.#origin,
          priority: PRIORITY_LINK,
          depth: 0,
          via: null,
          kind: 'page',
        },
      ]);
      if (record.sitemapsRead) this.#sitemaps.markRead();
      // The start host's robots.txt at once: its sitemaps are read even when the queue holds
      // nothing of that host (a resumed crawl whose pages are all done).
      await this.#sitemaps.poll();
      this.#lastSitemapsPoll = this.#worker.now();
      const aborted = await this.#loop();
      await this.#settle();
      if (aborted) return end({ stoppedBy: 'aborted', queuedAtStop: 0, writes: false });
      const atLimit = this.#requested >= shared.maxPages;
      const queued = atLimit ? (await this.#state.counts()).queued : 0;
      // A crawl whose sitemaps were given up (the start host's robots.txt could not be had)
      // is not finished: a resume tries again.
      const read = (await this.#state.crawl())?.sitemapsRead === true;
      const writes = read && (await this.#state.claimFinish(atLimit));
      return end({ stoppedBy: queued > 0 ? 'max-pages' : null, queuedAtStop: queued, writes });
    } catch (error) {
      this.#halt.abort(error);
      await Promise.allSettled(this.#tasks);
      throw error;
    } finally {
      this.#worker.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The worker loop; true when the caller's signal stopped it. */
  async #loop(): Promise<boolean> {
    const { maxPages } = this.#crawl.shared;
    for (;;) {
      if (this.#worker.signal?.aborted) return true;
      if (this.#failure !== null) throw this.#failure.error;
      const room = this.#worker.concurrency - this.#activeItems - this.#activeRobots;
      // As of the last step; the state checks the limit again against its own count.
      const budget = maxPages - this.#requested - this.#unrecorded - this.#undecided;
      const step = await this.#step(Math.max(0, Math.min(room, budget)));
      for (const origin of step.robots) this.#fetchRobots(origin);
      for (const item of step.taken) this.#crawlItem(item);
      if (this.#requested >= maxPages && this.#activeItems === 0) return false;
      if (!step.open && this.#tasks.size === 0) return false;
      if (step.taken.length === 0 && step.robots.length === 0) await this.#pollSitemaps();
      await this.#waitForWork(
        room > step.taken.length && budget > step.taken.length ? step.waitMs : null,
      );
    }
  }

  /** Records what finished and takes up to `take` items, in one step of the state. */
  async #step(take: number): Promise<StepResult> {
    const finished = this.#finished;
    const released = this.#released;
    this.#finished = [];
    this.#released = [];
    this.#woken = false;
    // This worker's requests the step does not record count against the limit here.
    let sent = 0;
    for (const done of finished) if (done.requested) sent++;
    const own = this.#unrecorded - sent + this.#undecided;
    const maxRequested = this.#crawl.shared.maxPages - own;
    const step = await this.#state.step({ finished, released, take, maxRequested });
    this.#unrecorded -= sent;
    this.#requested = step.requested;
    if (step.lost > 0) {
      await this.#emit({
        type: 'warning',
        message: `${step.lost} results of this worker were not recorded: it was taken for dead (paused, or cut off from the crawl state) and others crawled them`,
      });
    }
    return step;
  }

  /** Waits for this worker's tasks and records what they finished (after the loop). */
  async #settle(): Promise<void> {
    await Promise.all(this.#tasks);
    if (this.#finished.length > 0 || this.#released.length > 0) await this.#step(0);
    if (this.#failure !== null) throw this.#failure.error;
  }

  async #pollSitemaps(): Promise<void> {
    const now = this.#worker.now();
    if (now - this.#lastSitemapsPoll < SITEMAPS_POLL_MS) return;
    this.#lastSitemapsPoll = now;
    await this.#sitemaps.poll();
  }

  /**
   * Sleeps until a task of this worker ends (a result to record, a robots.txt outcome, URLs
   * from the sitemaps) or, when there is room for more, until the soonest host's turn.
   */
  async #waitForWork(waitMs: number | null): Promise<void> {
    if (!this.#woken) {
      const wake = new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      const ms = waitMs === null ? MAX_IDLE_MS : Math.min(Math.max(waitMs, 5), MAX_IDLE_MS);
      // The timer goes when the wait ends: a turn of the loop leaves nothing behind.
      const done = new AbortController();
      await Promise.race([wake, this.#worker.sleep(ms, done.signal).catch(() => {})]);
      // A reason of our own: abort() without one builds a DOMException (and its stack) on
      // every turn of the loop, for a rejection nobody reads.
      done.abort(WAIT_OVER);
      this.#wake = null;
    }
    await this.#gatherResults();
    // Let the other responses that arrived in this turn of the event loop finish too, so
    // one step records them all.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * When some results are in and more are on their way, waits (at most {@link GATHER_MS})
   * until a share of `concurrency` is in, so that one step records them together. The
   * resume bound is unchanged: a request still starts only after the commit that recorded
   * the result whose place it takes; the slots of the results waiting stay empty meanwhile.
   */
  async #gatherResults(): Promise<void> {
    const target = Math.ceil(this.#worker.concurrency * GATHER_SHARE);
    const ready = () => this.#finished.length + this.#released.length;
    if (ready() === 0 || ready() >= target || this.#outstanding === 0) return;
    const until = performance.now() + GATHER_MS;
    while (
      ready() < target &&
      this.#outstanding > 0 &&
      this.#failure === null &&
      this.#worker.signal?.aborted !== true
    ) {
      const left = until - performance.now();
      if (left <= 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
      this.#wake = null;
    }
  }

  #wakeUp(): void {
    this.#woken = true;
    this.#wake?.();
  }

  #track(task: Promise<void>): void {
    const tracked = task
      .catch((error: unknown) => {
        // Stopping aborts what is in flight; those items stay in flight in the state and
        // go back to the queue when the state is closed. That is no error.
        if (this.#context.signal?.aborted) return;
        this.#failure ??= { error };
      })
      .finally(() => {
        this.#tasks.delete(tracked);
        this.#wakeUp();
      });
    this.#tasks.add(tracked);
  }

  #fetchRobots(origin: string): void {
    this.#activeRobots++;
    this.#track(
      this.#robots.fetch(origin).then(
        () => void this.#activeRobots--,
        (error: unknown) => {
          this.#activeRobots--;
          throw error;
        },
      ),
    );
  }

  #crawlItem(item: TakenItem): void {
    this.#activeItems++;
    this.#outstanding++;
    this.#undecided++;
    let delivered = false;
    let decided = false;
    const decide = (requested: boolean) => {
      decided = true;
      this.#undecided--;
      if (requested) this.#unrecorded++;
    };
    this.#track(
      (async () => {
        try {
          const { decision, requested } = await crawlItem(item, this.#work, decide);
          if (decision.kind === 'retry') {
            // Retry-After holds the host for every worker; the request does not count.
            if (requested) this.#unrecorded--;
            this.#released.push({ item, notBefore: decision.until });
            delivered = true;
            this.#outstanding--;
            return;
          }
          delivered = true;
          this.#outstanding--;
          this.#finished.push({
            item,
            result: decision.result,
            discovered: decision.discovered,
            depthCut: decision.depthCut ?? 0,
            requested,
          });
          await this.#emit(decision.event);
        } finally {
          this.#activeItems--;
          if (!decided) this.#undecided--;
          if (!delivered) this.#outstanding--;
        }
      })(),
    );
  }

  /**
   * The crawl's feeds: the candidates every worker and every run recorded in the crawl
   * state, confirmed by reading them (see `confirmFeeds`).
   */
  async confirmFeeds(): Promise<string[]> {
    const candidates = await feedCandidates(this.#state.results(), this.#decision);
    return confirmFeeds(candidates, {
      allowed: async (url) => {
        const robots = await feedHostRobots(this.#decision.originOf(url), {
          state: this.#state,
          robots: this.#robots,
          respectRobots: this.#crawl.shared.respectRobots,
          pollMs: MAX_IDLE_MS,
          sleep: this.#worker.sleep,
          signal: this.#context.signal,
        });
        return this.#robots.verdict(url, robots) === 'allowed';
      },
      waitForTurn: this.#waitForTurn,
      context: this.#context,
      warn: (message) => this.#emit({ type: 'warning', message }),
    });
  }
}
