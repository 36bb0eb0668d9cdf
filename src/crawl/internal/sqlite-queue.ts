import type { SQLInputValue } from 'node:sqlite';
import { ownCopy } from '../../shared/own-copy.ts';
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
import {
  compareTaken,
  MAX_LOG_ROWS,
  MAX_UPSERT_ROWS,
  type Statements,
  type TakenRow,
} from './sqlite-statements.ts';
import {
  chunkSize,
  type PendingRow,
  setUpsertValues,
  UPSERT_VALUES,
  type WrittenRow,
} from './sqlite-upsert-rows.ts';

/** Most keys remembered as saturated (a site has few URLs that every page links to). */
const MAX_SATURATED = 10_000;
/** Most keys remembered as linked: ~100 bytes each; past it, links to others cost a statement. */
const MAX_LINKED = 50_000;
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
  /**
   * Keys whose row exists and is linked (committed): a plain link to one can only add
   * in-links, which go to the log, so it costs no statement. Most links of a page are to
   * URLs seen before. Learned like {@link #saturated}; bounded.
   */
  readonly #linked = new Set<string>();
  /** Keys seen linked in the transaction under way. */
  #linking: string[] = [];

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
   * URLs (menus), so a step writes each such row once, not once per page. One row per URL,
   * up to {@link MAX_UPSERT_ROWS} URLs per statement, in the order first seen: a new URL
   * is inserted with the values it ends the call with, in that order (ids grow with it).
   *
   * A known URL that gains only in-links (the common case: a link to a page seen before)
   * is not written: its in-links are appended to `inlink_log`, which {@link foldInlinks} adds
   * to the rows in bulk. The URLs a page links to sit on as many different database pages,
   * and raising each count in place wrote every one of them to the WAL on every step.
   */
  insert(rows: readonly InsertValues[]): number {
    const pending = new Map<string, PendingRow>();
    // Indexed loops over arrays here: Maglev keeps for-of's result object per row.
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as InsertValues;
      // By index, not destructured: destructuring runs the iterator protocol per element.
      const key = row[0];
      const linked = row[7];
      const inSitemap = row[8];
      const inlinks = row[10];
      const sitemaps = row[11];
      const lastmod = row[12];
      const known = pending.get(key);
      if (known === undefined) {
        pending.set(key, {
          row,
          linked,
          inSitemap,
          inlinks,
          sitemaps,
          lastmod,
          written: null,
          remembered: false,
        });
        continue;
      }
      known.linked = Math.max(known.linked, linked);
      known.inSitemap = Math.max(known.inSitemap, inSitemap);
      known.inlinks += inlinks;
      known.sitemaps += sitemaps;
      known.lastmod ??= lastmod;
    }
    if (pending.size === 0) return 0;
    const before = Number(this.#s.maxId.get()?.['id'] ?? 0);
    /** Every URL not skipped, in order; those of them the upsert runs for. */
    const writes: PendingRow[] = [];
    const upserts: PendingRow[] = [];
    // Values, not entries: no `[key, value]` array per URL.
    for (const marks of pending.values()) {
      const key = marks.row[0];
      // Only links, no sitemap: the upsert's condition holds for a linked row, nothing is
      // written to it: its in-links are logged (and a saturated row does not count them).
      const plainLinks = marks.linked <= 1 && marks.inSitemap <= 0 && marks.sitemaps === 0;
      if (plainLinks && this.#saturated.has(key)) continue;
      writes.push(marks);
      if (plainLinks && this.#linked.has(key)) marks.remembered = true;
      else upserts.push(marks);
    }
    for (let done = 0; done < upserts.length; ) {
      const count = chunkSize(upserts.length - done, MAX_UPSERT_ROWS);
      // Sized once and filled in place: no regrowth as the rows go in.
      const values = new Array<SQLInputValue>(count * UPSERT_VALUES);
      for (let i = 0; i < count; i++) {
        setUpsertValues(values, i * UPSERT_VALUES, upserts[done + i] as PendingRow);
      }
      // [key, id, linked, inlinks] of each row inserted or changed.
      const written = this.#s.upsert(count).all(...values) as unknown as WrittenRow[];
      for (let w = 0; w < written.length; w++) {
        const row = written[w] as WrittenRow;
        const marks = pending.get(row[0]);
        if (marks !== undefined) marks.written = row;
      }
      done += count;
    }
    let added = 0;
    /** `key, in-links` of each row for `inlink_log`, flat, as the statement binds them. */
    const logged: SQLInputValue[] = [];
    for (let m = 0; m < writes.length; m++) {
      const marks = writes[m] as PendingRow;
      const { row, written } = marks;
      if (written === null) {
        // Known, and nothing but in-links to add: logged, added to the row by the next fold.
        if (marks.inlinks > 0) logged.push(row[0], marks.inlinks);
        // Not written although a link came: the row is linked already.
        if (marks.linked >= 1 && !marks.remembered) this.#linking.push(row[0]);
        continue;
      }
      const key = written[0];
      const id = written[1];
      const linked = written[2];
      const inlinks = written[3];
      if (linked >= 1) this.#linking.push(key);
      if (linked >= 1 && inlinks >= MAX_COUNTED_INLINKS) this.#saturating.push(key);
      if (id <= before) continue;
      added++;
      this.#hosts.queue(row[2], 1);
    }
    if (logged.length > 0) this.#log(logged);
    this.counts.queued += added;
    this.counts.seen += added;
    if (this.#logged >= FOLD_LOGGED) this.foldInlinks();
    return added;
  }

  /** Appends `key, in-links` pairs (flat) to `inlink_log`, in order, in as few statements as fit. */
  #log(logged: readonly SQLInputValue[]): void {
    const rows = logged.length / 2;
    for (let done = 0; done < rows; ) {
      const count = chunkSize(rows - done, MAX_LOG_ROWS);
      const statement = this.#s.logInlinks(count);
      if (count === rows) statement.run(...logged);
      else statement.run(...logged.slice(done * 2, (done + count) * 2));
      done += count;
    }
    this.#logged += rows;
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
    for (const key of this.#linking) {
      if (this.#linked.size >= MAX_LINKED) break;
      // A copy: a key may be a slice of a page's text, which it would keep alive.
      if (!this.#linked.has(key)) this.#linked.add(ownCopy(key));
    }
    this.#linking = [];
    this.#loggedCommitted = this.#logged;
  }

  /** ... or rolled back: it is forgotten. */
  rollback(): void {
    this.#saturating = [];
    this.#linking = [];
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
      const heads = this.#s.takeHeads.all(origin, want) as unknown as TakenRow[];
      if (heads.length > 1) heads.sort(compareTaken);
      for (let i = 0; i < heads.length; i++) out.push(toTakenItem(heads[i] as TakenRow));
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
