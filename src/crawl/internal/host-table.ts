import type { HostRobots } from '../crawl-state.ts';

/**
 * Politeness and robots.txt per host (origin), kept in memory by the SQLite crawl state (one
 * process owns the file, so nothing else needs to see it). Pure: the clock is passed in.
 *
 * Per host, a token bucket of one token: `next` is the epoch ms before which no request may
 * start, and each request booked moves it a gap on. The gap is the crawl's until robots.txt
 * is settled, then the one settled (Crawl-delay raises it). Retry-After pushes `next` on.
 *
 * Hosts that can give items now or later (robots.txt known, items queued) sit in a binary
 * heap ordered by `next` (then by the order hosts were first seen), so a step finds the
 * ready ones without looking at the others: its cost does not grow with the number of hosts.
 */
interface Host {
  readonly origin: string;
  /** Order of first sight: breaks ties between hosts whose turn came at the same ms. */
  readonly seq: number;
  /** Milliseconds between requests; null: the crawl's gap (robots.txt not settled yet). */
  gap: number | null;
  next: number;
  robots: HostRobots | null;
  /** Start of the robots.txt request claimed and not yet settled; null when none is. */
  robotsAt: number | null;
  /** Items queued, held ones included. */
  queued: number;
  /** Place in the heap, or -1 when not in it. */
  slot: number;
}

type HostFields = Pick<Host, 'gap' | 'next' | 'robots' | 'robotsAt' | 'queued'>;

export class HostTable {
  readonly #hosts = new Map<string, Host>();
  /** Hosts with robots.txt known and items queued, by (`next`, `seq`). */
  readonly #heap: Host[] = [];
  /** Hosts with items queued and no robots.txt outcome that nobody is fetching yet. */
  readonly #wantRobots = new Set<Host>();
  #robotsClaimed = 0;
  #seq = 0;
  readonly #crawlGap: () => number;
  /** While a transaction is open: each host's fields before it first changed (null: new). */
  #undo: Map<Host, HostFields | null> | null = null;

  /** `crawlGap`: the crawl's gap, for hosts whose robots.txt is not settled. */
  constructor(crawlGap: () => number) {
    this.#crawlGap = crawlGap;
  }

  /** robots.txt fetches claimed and not settled. */
  get robotsClaimed(): number {
    return this.#robotsClaimed;
  }

  /** Starts recording changes, so that {@link rollback} can undo them. */
  begin(): void {
    this.#undo = new Map();
  }

  commit(): void {
    this.#undo = null;
  }

  /** Puts every host changed since {@link begin} back as it was. */
  rollback(): void {
    const undo = this.#undo;
    this.#undo = null;
    if (undo === null) return;
    for (const [host, fields] of undo) {
      if (fields === null) {
        this.#setQueued(host, 0);
        if (host.robotsAt !== null) this.#robotsClaimed--;
        host.robotsAt = null;
        this.#place(host);
        this.#hosts.delete(host.origin);
        continue;
      }
      if ((host.robotsAt === null) !== (fields.robotsAt === null)) {
        this.#robotsClaimed += fields.robotsAt === null ? -1 : 1;
      }
      Object.assign(host, fields);
      this.#place(host);
    }
  }

  /** `n` more (or, negative, fewer) items of `origin` queued. */
  queue(origin: string, n: number): void {
    if (n === 0) return;
    const host = this.#host(origin);
    this.#setQueued(host, host.queued + n);
    this.#place(host);
  }

  /** The ready host whose turn came first, or undefined when none is ready at `now`. */
  ready(now: number): { readonly origin: string; readonly gap: number } | undefined {
    const host = this.#heap[0];
    return host !== undefined && host.next <= now
      ? { origin: host.origin, gap: this.#gap(host) }
      : undefined;
  }

  /** Books a request to `origin` starting at `now` (or when its turn comes): the next waits a gap. */
  book(origin: string, now: number): void {
    const host = this.#host(origin);
    this.#change(host);
    host.next = Math.max(host.next, now) + this.#gap(host);
    this.#place(host);
  }

  /** Holds the host back until `until` (Retry-After). */
  hold(origin: string, until: number): void {
    const host = this.#host(origin);
    if (until <= host.next) return;
    this.#change(host);
    host.next = until;
    this.#place(host);
  }

  /** Books a request outside the queue: 0 when it may start at `now`, else the wait. */
  reserve(origin: string, now: number): number {
    const host = this.#host(origin);
    if (host.next > now) return host.next - now;
    this.book(origin, now);
    return 0;
  }

  /** Claims the fetch of `origin`'s robots.txt (booked as a request at `now`). */
  claimRobots(origin: string, now: number): 'fetch' | 'known' | 'busy' {
    const host = this.#host(origin);
    if (host.robots !== null) return 'known';
    if (host.robotsAt !== null) return 'busy';
    this.#claim(host, now);
    return 'fetch';
  }

  /** Claims every robots.txt wanted (hosts with queued items and no outcome, unclaimed). */
  claimWantedRobots(now: number): string[] {
    const claimed: string[] = [];
    for (const host of [...this.#wantRobots]) {
      this.#claim(host, now);
      claimed.push(host.origin);
    }
    return claimed;
  }

  /**
   * Records the outcome and the host's gap from now on: its next request waits one new gap
   * after the robots.txt request (or after `now`, when none was claimed).
   */
  settleRobots(origin: string, robots: HostRobots, now: number): void {
    const host = this.#host(origin);
    this.#change(host);
    if (host.robotsAt !== null) this.#robotsClaimed--;
    host.next = Math.max(host.next, (host.robotsAt ?? now) + robots.gapMs);
    host.robotsAt = null;
    host.robots = robots;
    host.gap = robots.gapMs;
    this.#place(host);
  }

  /** Items of `origin` queued, held ones included. */
  queued(origin: string): number {
    return this.#hosts.get(origin)?.queued ?? 0;
  }

  robots(origin: string): HostRobots | null {
    return this.#hosts.get(origin)?.robots ?? null;
  }

  /** Milliseconds until the soonest host with queued items and robots.txt known is ready. */
  waitMs(now: number): number | null {
    const host = this.#heap[0];
    return host === undefined ? null : Math.max(0, host.next - now);
  }

  #claim(host: Host, now: number): void {
    this.#change(host);
    host.robotsAt = Math.max(host.next, now);
    this.#robotsClaimed++;
    host.next = host.robotsAt + this.#gap(host);
    this.#place(host);
  }

  #gap(host: Host): number {
    return host.gap ?? this.#crawlGap();
  }

  #host(origin: string): Host {
    let host = this.#hosts.get(origin);
    if (host === undefined) {
      host = {
        origin,
        seq: this.#seq++,
        gap: null,
        next: 0,
        robots: null,
        robotsAt: null,
        queued: 0,
        slot: -1,
      };
      this.#hosts.set(origin, host);
      this.#undo?.set(host, null);
    }
    return host;
  }

  #setQueued(host: Host, queued: number): void {
    this.#change(host);
    host.queued = Math.max(0, queued);
  }

  /** Notes the host's fields before their first change in the open transaction. */
  #change(host: Host): void {
    if (this.#undo === null || this.#undo.has(host)) return;
    const { gap, next, robots, robotsAt, queued } = host;
    this.#undo.set(host, { gap, next, robots, robotsAt, queued });
  }

  /** Puts the host where its fields say: in the heap, in the robots.txt wanted, or neither. */
  #place(host: Host): void {
    const inHeap = host.robots !== null && host.queued > 0;
    if (inHeap) {
      if (host.slot < 0) {
        host.slot = this.#heap.length;
        this.#heap.push(host);
      }
      this.#up(this.#down(host.slot));
    } else if (host.slot >= 0) {
      this.#remove(host.slot);
    }
    if (host.robots === null && host.robotsAt === null && host.queued > 0)
      this.#wantRobots.add(host);
    else this.#wantRobots.delete(host);
  }

  #remove(slot: number): void {
    const heap = this.#heap;
    const host = heap[slot] as Host;
    const last = heap.pop() as Host;
    host.slot = -1;
    if (last === host) return;
    heap[slot] = last;
    last.slot = slot;
    this.#up(this.#down(slot));
  }

  #up(slot: number): number {
    const heap = this.#heap;
    let at = slot;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(heap[at] as Host, heap[parent] as Host)) break;
      this.#swap(at, parent);
      at = parent;
    }
    return at;
  }

  #down(slot: number): number {
    const heap = this.#heap;
    let at = slot;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let best = at;
      if (left < heap.length && before(heap[left] as Host, heap[best] as Host)) best = left;
      if (right < heap.length && before(heap[right] as Host, heap[best] as Host)) best = right;
      if (best === at) return at;
      this.#swap(at, best);
      at = best;
    }
  }

  #swap(i: number, j: number): void {
    const heap = this.#heap;
    const a = heap[i] as Host;
    const b = heap[j] as Host;
    heap[i] = b;
    heap[j] = a;
    a.slot = j;
    b.slot = i;
  }
}

function before(a: Host, b: Host): boolean {
  return a.next < b.next || (a.next === b.next && a.seq < b.seq);
}
