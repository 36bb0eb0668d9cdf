import type {
  FinishedItem,
  FrontierCounts,
  FrontierItem,
  ReleasedItem,
  TakenItem,
} from '../crawl-state.ts';
import type { HostTable } from './host-table.ts';
import { factsText, MAX_COUNTED_INLINKS } from './report-counts.ts';
import { type InsertValues, insertValues, toTakenItem } from './sqlite-rows.ts';
import { DONE, HELD, IN_FLIGHT, QUEUED } from './sqlite-schema.ts';
import type { Statements, TakenRow } from './sqlite-statements.ts';

/** Most keys remembered as saturated (a site has few URLs that every page links to). */
const MAX_SATURATED = 10_000;
/**
 * Logged in-links (rows of `inlink_log`) that make a step add them to their URLs. A fold
 * rewrites the table pages of the URLs it touches once, however many links each got since
 * the last: the larger, the fewer bytes written per link; a log row is ~60 bytes.
 */
const FOLD_LOGGED = 100_000;

/**
 * The URLs of an SQLite crawl state and the hosts they are queued on, kept in step: every
 * change to the `urls` table moves the counts and the hosts' queued items with it. Each
 * method runs inside its caller's transaction; the caller puts `counts` and the hosts back
 * when that transaction rolls back.
 */
export class SqliteQueue {
  counts: { queued: number; inFlight: number; done: number; seen: number };
  readonly #s: Statements;
  readonly #hosts: HostTable;
  readonly #normalize: (url: string) => string;
  /**
   * Keys whose row a plain link cannot change any more: linked, its in-links at the cap (the
   * menu links of a site, after 1,000 pages). A link to one costs no statement. Learned from
   * committed transactions only (see {@link commit}); bounded.
   */
  readonly #saturated = new Set<string>();
  /** Keys seen saturated in the transaction under way. */
  #saturating: string[] = [];

  /** Rows in `inlink_log`, as of the last commit, and in the transaction under way. */
  #loggedCommitted: number;
  #logged: number;

  /** Counts what the file holds, and queues its items on their hosts. */
  constructor(s: Statements, hosts: HostTable, normalize: (url: string) => string) {
    this.#s = s;
    this.#hosts = hosts;
    this.#normalize = normalize;
    this.counts = { queued: 0, inFlight: 0, done: 0, seen: 0 };
    this.#loggedCommitted = Number(s.inlinkLogSize.get()?.['n'] ?? 0);
    this.#logged = this.#loggedCommitted;
    for (const row of s.countByState.all()) {
      const n = Number(row['n']);
      const state = row['state'];
      if (state === QUEUED || state === HELD) this.counts.queued += n;
      else if (state === IN_FLIGHT) this.counts.inFlight += n;
      else if (state === DONE) this.counts.done += n;
      this.counts.seen += n;
    }
    for (const row of s.queuedByOrigin.all()) {
      hosts.queue(String(row['origin']), Number(row['n']));
    }
    // A Retry-After outlives the process: its host waits for the item.
    for (const row of s.heldByOrigin.all()) {
      const origin = String(row['origin']);
      hosts.queue(origin, Number(row['n']));
      hosts.hold(origin, Number(row['at']));
    }
  }

  /** The values of an insert row, checked and with the URL normalised. */
  row(item: FrontierItem): InsertValues {
    return insertValues(item, this.#normalize(item.url));
  }

  /**
   * Inserts the rows; returns how many were new. A URL known already gets its marks and
   * counts, once per URL for the whole call: the pages of a step mostly link to the same
   * URLs (menus), so a step writes each such row once, not once per page. One statement per
   * URL (insert, or mark when known); a second only for a new URL that later rows of the
   * call mark again.
   *
   * A known URL that gains only in-links (the common case: a link to a page seen before)
   * is not written: its in-links are appended to `inlink_log`, which {@link foldInlinks} adds
   * to the rows in bulk. The URLs a page links to sit on as many different database pages,
   * and raising each count in place wrote every one of them to the WAL on every step.
   */
  insert(rows: readonly InsertValues[]): number {
    const pending = new Map<string, PendingRow>();
    for (const row of rows) {
      const [key, , , , , , , linked, inSitemap, , inlinks, sitemaps, lastmod] = row;
      const known = pending.get(key);
      if (known === undefined) {
        pending.set(key, {
          row,
          linked,
          inSitemap,
          inlinks: 0,
          sitemaps: 0,
          lastmod: null,
          changed: false,
        });
        continue;
      }
      known.changed ||= linked > known.linked || inSitemap > known.inSitemap;
      known.changed ||= inlinks > 0 || sitemaps > 0 || lastmod !== null;
      known.linked = Math.max(known.linked, linked);
      known.inSitemap = Math.max(known.inSitemap, inSitemap);
      known.inlinks += inlinks;
      known.sitemaps += sitemaps;
      known.lastmod ??= lastmod;
    }
    if (pending.size === 0) return 0;
    const before = Number(this.#s.maxId.get()?.['id'] ?? 0);
    let added = 0;
    /** `[key, in-links]` pairs for `inlink_log`, written with one statement. */
    const logged: [string, number][] = [];
    for (const [key, marks] of pending) {
      const { row } = marks;
      const inlinks = row[10] + marks.inlinks;
      const sitemaps = row[11] + marks.sitemaps;
      // Only links, no sitemap: nothing to write to a saturated row (markSeen's condition).
      const plainLinks = marks.linked <= 1 && marks.inSitemap <= 0 && sitemaps === 0;
      if (plainLinks && this.#saturated.has(key)) continue;
      // A known URL is marked with every row of the call, its first one included.
      const written = this.#s.insertOrMark.get(
        ...row,
        marks.linked,
        marks.inSitemap,
        inlinks,
        sitemaps,
        row[12] ?? marks.lastmod,
      );
      if (written === undefined) {
        // Known, and nothing but in-links to add: logged, added to the row by the next fold.
        if (inlinks > 0) logged.push([key, inlinks]);
        continue;
      }
      if (Number(written['linked']) >= 1 && Number(written['inlinks']) >= MAX_COUNTED_INLINKS) {
        this.#saturating.push(key);
      }
      const id = written['id'];
      if (typeof id !== 'number' || id <= before) continue;
      // New, with its first row's counts: the later rows of this call count on top.
      added++;
      this.#hosts.queue(row[2], 1);
      if (marks.changed) {
        const { linked, inSitemap, inlinks, sitemaps, lastmod } = marks;
        this.#s.markSeen.run({ key, linked, inSitemap, inlinks, sitemaps, lastmod });
      }
    }
    if (logged.length > 0) {
      this.#s.logInlinks.run(JSON.stringify(logged));
      this.#logged += logged.length;
    }
    this.counts.queued += added;
    this.counts.seen += added;
    if (this.#logged >= FOLD_LOGGED) this.foldInlinks();
    return added;
  }

  /** Adds the logged in-links to their URLs' rows and empties the log (in the caller's transaction). */
  foldInlinks(): void {
    if (this.#logged === 0) return;
    // Row by row: a fold changes up to every URL's row, and only the saturated are kept.
    for (const row of this.#s.foldInlinks.iterate()) {
      if (Number(row['linked']) >= 1 && Number(row['inlinks']) >= MAX_COUNTED_INLINKS) {
        this.#saturating.push(String(row['key']));
      }
    }
    this.#s.clearInlinkLog.run();
    this.#logged = 0;
  }

  /** True when in-links are logged and not yet in their rows. */
  get hasLoggedInlinks(): boolean {
    return this.#logged > 0;
  }

  /** The transaction that ran the last inserts was committed: what they learned holds. */
  commit(): void {
    for (const key of this.#saturating) {
      if (this.#saturated.size >= MAX_SATURATED) break;
      this.#saturated.add(key);
    }
    this.#saturating = [];
    this.#loggedCommitted = this.#logged;
  }

  /** ... or rolled back: it is forgotten. */
  rollback(): void {
    this.#saturating = [];
    this.#logged = this.#loggedCommitted;
  }

  /** Held items whose `notBefore` has come are queued again. */
  requeueDue(now: number): void {
    this.#s.requeueDue.run(now);
  }

  /**
   * Records a result, if the item is in flight under its attempt; returns false (nothing
   * recorded) when it is not. The caller adds the URLs it led to (see {@link insert}).
   */
  record(done: FinishedItem): boolean {
    const { status, outcome, reason, lastmod, finalUrl, data } = done.result;
    const facts = factsText(done.result.facts);
    const { id, attempt } = done.item;
    const changed = this.#s.complete.run(
      status,
      outcome,
      reason,
      lastmod,
      finalUrl,
      data,
      facts,
      id,
      attempt,
    );
    if (changed.changes !== 1) return false;
    this.counts.inFlight--;
    this.counts.done++;
    return true;
  }

  /** Puts an item in flight under its attempt back; a `notBefore` ahead holds its host too. */
  release({ item, notBefore }: ReleasedItem, now: number): void {
    const held = notBefore !== null && notBefore > now;
    const state = held ? HELD : QUEUED;
    const row = this.#s.release.get(state, held ? notBefore : null, item.id, item.attempt);
    if (row === undefined) return;
    const origin = String(row['origin']);
    this.counts.inFlight--;
    this.counts.queued++;
    this.#hosts.queue(origin, 1);
    // Retry-After: the whole host waits, not only this URL.
    if (held) this.#hosts.hold(origin, notBefore);
  }

  /**
   * Takes up to `limit` items: the ready host whose turn came first, then its best URLs (one
   * when it has a gap, else as many as wanted), booking it; then the next ready host.
   */
  take(limit: number, now: number): TakenItem[] {
    const hosts = this.#hosts;
    const out: TakenItem[] = [];
    for (let host = hosts.ready(now); host !== undefined; host = hosts.ready(now)) {
      if (out.length >= limit) break;
      const { origin, gap } = host;
      const want = gap > 0 ? 1 : limit - out.length;
      const heads = this.#s.heads.all(origin, want);
      for (const head of heads) {
        const row = this.#s.markInFlight.get(head['id'] as number) as unknown as TakenRow;
        out.push(toTakenItem(row));
      }
      if (heads.length > 0) {
        hosts.queue(origin, -heads.length);
        hosts.book(origin, now);
      }
      if (heads.length < want && hosts.queued(origin) > 0) {
        // The rest of its items are held (a resumed Retry-After): so is the host.
        const at = this.#s.heldUntil.get(origin)?.['at'];
        if (typeof at === 'number' && at > now) hosts.hold(origin, at);
        else hosts.queue(origin, -hosts.queued(origin));
      }
    }
    this.counts.queued -= out.length;
    this.counts.inFlight += out.length;
    return out;
  }

  /** Every item in flight is queued again (this process's, since it is the only one). */
  requeueInFlight(): void {
    for (const row of this.#s.requeueInFlight.all()) this.#hosts.queue(String(row['origin']), 1);
    this.counts.queued += this.counts.inFlight;
    this.counts.inFlight = 0;
  }

  snapshot(): FrontierCounts {
    return { ...this.counts };
  }
}

/** The rows of one insert call for one URL: its first row, and the marks of the later ones. */
interface PendingRow {
  readonly row: InsertValues;
  /** The largest of every row's (the first's included). */
  linked: number;
  inSitemap: number;
  /** Of the rows after the first. */
  inlinks: number;
  sitemaps: number;
  lastmod: string | null;
  /** The rows after the first add something to a row the first inserted. */
  changed: boolean;
}
