import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { WaymarkError } from '../shared/waymark-error.ts';
import type {
  CompleteOptions,
  CrawlResult,
  CrawlResultFields,
  CrawlState,
  FrontierCounts,
  FrontierItem,
  TakenItem,
  TakeOptions,
} from './frontier.ts';
import { type OriginHead, OriginHeads } from './internal/sqlite-heads.ts';
import {
  defaultNormalizeUrl,
  type InsertValues,
  insertValues,
  notInFlight,
  toResult,
  toTakenItem,
} from './internal/sqlite-rows.ts';
import {
  DONE,
  HELD,
  IN_FLIGHT,
  isSqliteError,
  openError,
  prepareDatabase,
  QUEUED,
  type Synchronous,
} from './internal/sqlite-schema.ts';
import { Statements, type TakenRow } from './internal/sqlite-statements.ts';

/** Options of {@link openSqliteCrawlState}. */
export interface SqliteCrawlStateOptions {
  /**
   * Continue the crawl in the file: items that were in flight when it stopped are queued
   * again. False starts afresh, dropping whatever the file held (only if it is a waymark
   * crawl state; any other file is refused).
   */
  readonly resume: boolean;
  /**
   * The form under which URLs are deduplicated. Default: the WHATWG URL serialisation
   * without the fragment (`HTTP://Example.com:80/a/../b#x` -> `http://example.com/b`).
   * Must not change between a crawl and its resume.
   */
  readonly normalizeUrl?: (url: string) => string;
  /** The clock `notBefore` is compared with, in epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * `normal` (default) survives the process being killed at any instant; `full` also
   * survives an OS crash or power loss, at the cost of an fsync per commit.
   */
  readonly synchronous?: Synchronous;
}

/**
 * Opens (or creates) a crawl state in an SQLite file with `node:sqlite`; `path` null uses a
 * temporary file deleted on close. Every change is one transaction, committed before the
 * method returns (or, inside {@link SqliteCrawlState.transaction}, when that returns), so a
 * process killed at any instant (even `kill -9`) leaves the state as of its last completed
 * commit. One process at a time: the file stays locked while open.
 *
 * @example
 * ```ts
 * const state = openSqliteCrawlState('crawl.db', { resume: true });
 * try {
 *   if (!state.resumed) state.add({ url: seed, origin: new URL(seed).origin, priority: 0, depth: 0, via: null, kind: 'page' });
 *   for (let batch = state.take(8, ready); batch.length > 0; batch = state.take(8, ready)) {
 *     for (const item of batch) state.complete(item, await crawlOne(item), linksOf(item));
 *   }
 * } finally {
 *   state.close();
 * }
 * ```
 */
export function openSqliteCrawlState(
  path: string | null,
  options: SqliteCrawlStateOptions,
): SqliteCrawlState {
  const tempDir = path === null ? mkdtempSync(join(tmpdir(), 'waymark-crawl-')) : null;
  const file = tempDir === null ? (path as string) : join(tempDir, 'crawl-state.db');
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    const resumed = prepareDatabase(db, file, options.resume, options.synchronous ?? 'normal');
    return new SqliteCrawlState(db, file, tempDir, resumed, options);
  } catch (error) {
    db?.close();
    if (tempDir !== null) removeTempDir(tempDir);
    throw openError(error, file);
  }
}

function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Temporary states still open; one `exit` listener for all of them, added once. */
const temporaryDirs = new Set<string>();
let exitListener = false;

/**
 * A temporary state goes with the process too, when it ends without closing the state
 * (`process.exit` after a second Ctrl-C, say); only SIGKILL can leave it behind.
 */
function removedAtExit(dir: string): void {
  if (!exitListener) {
    exitListener = true;
    process.on('exit', () => {
      for (const open of temporaryDirs) removeTempDir(open);
    });
  }
  temporaryDirs.add(dir);
}

/**
 * A {@link CrawlState} in SQLite, from {@link openSqliteCrawlState}. Memory stays flat
 * however many URLs it holds: nothing is kept in JavaScript but the counts.
 *
 * Cost per call: `add` and `complete` are index lookups and inserts; `take` costs one index
 * seek per origin with queued items (to ask `originReady`) plus two per item taken, so it
 * suits crawls of up to some thousands of origins, each with any number of URLs.
 *
 * @example
 * ```ts
 * const state: SqliteCrawlState = openSqliteCrawlState(null, { resume: false });
 * console.log(state.path, state.counts());
 * state.close();
 * ```
 */
export class SqliteCrawlState implements CrawlState {
  readonly resumed: boolean;
  /** The database file (a temporary one when opened with a null path). */
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #s: Statements;
  readonly #tempDir: string | null;
  readonly #normalize: (url: string) => string;
  readonly #now: () => number;
  #counts: { queued: number; inFlight: number; done: number; seen: number };
  /**
   * `call`: a call is writing (a callback of it may not call this state); `batch`: inside
   * {@link transaction} between calls, each of which joins its one open transaction.
   */
  #phase: 'idle' | 'batch' | 'call' = 'idle';
  #closed = false;

  /** Use {@link openSqliteCrawlState}. */
  constructor(
    db: DatabaseSync,
    path: string,
    tempDir: string | null,
    resumed: boolean,
    options: SqliteCrawlStateOptions,
  ) {
    this.#db = db;
    this.path = path;
    this.#tempDir = tempDir;
    this.resumed = resumed;
    this.#normalize = options.normalizeUrl ?? defaultNormalizeUrl;
    this.#now = options.now ?? Date.now;
    this.#s = new Statements(db);
    if (tempDir !== null) removedAtExit(tempDir);
    // Whatever was in flight when the last process stopped was interrupted.
    if (resumed) this.#s.requeueInFlight.run();
    this.#counts = { queued: 0, inFlight: 0, done: 0, seen: 0 };
    for (const row of this.#s.countByState.all()) {
      const n = Number(row['n']);
      const state = row['state'];
      if (state === QUEUED || state === HELD) this.#counts.queued += n;
      else if (state === IN_FLIGHT) this.#counts.inFlight += n;
      else if (state === DONE) this.#counts.done += n;
      this.#counts.seen += n;
    }
  }

  add(item: FrontierItem): boolean {
    return this.addMany([item]) === 1;
  }

  addMany(items: readonly FrontierItem[]): number {
    const rows = items.map((item) => this.#row(item));
    const added = this.#write(() => this.#insert(rows));
    this.#counts.queued += added;
    this.#counts.seen += added;
    return added;
  }

  take(
    limit: number,
    originReady: (origin: string) => boolean,
    options: TakeOptions = {},
  ): TakenItem[] {
    const perOrigin = options.perOrigin ?? Number.POSITIVE_INFINITY;
    if (!(limit >= 0) || !(perOrigin >= 0)) {
      throw new WaymarkError(
        'invalid-argument',
        `take needs counts >= 0, got ${limit}, ${perOrigin}`,
      );
    }
    if (limit < 1 || perOrigin < 1) return [];
    const taken = this.#write(() => {
      this.#s.requeueDue.run(this.#now());
      // Every origin with queued items, one index seek each; the ready ones' heads.
      const ready: OriginHead[] = [];
      let origin = this.#s.nextOrigin.get('')?.['origin'];
      while (typeof origin === 'string') {
        if (originReady(origin)) {
          const head = this.#head(origin);
          if (head !== undefined) ready.push(head);
        }
        origin = this.#s.nextOrigin.get(origin)?.['origin'];
      }
      const heads = new OriginHeads(ready);
      const out: TakenItem[] = [];
      const perOriginTaken = new Map<string, number>();
      while (out.length < limit) {
        const head = heads.shift();
        if (head === undefined) break;
        const row = this.#s.markInFlight.get(head.id) as unknown as TakenRow;
        out.push(toTakenItem(row));
        const count = (perOriginTaken.get(head.origin) ?? 0) + 1;
        perOriginTaken.set(head.origin, count);
        if (count < perOrigin) {
          const next = this.#head(head.origin);
          if (next !== undefined) heads.insert(next);
        }
      }
      return out;
    });
    this.#counts.queued -= taken.length;
    this.#counts.inFlight += taken.length;
    return taken;
  }

  complete(
    item: TakenItem,
    result: CrawlResultFields,
    discovered: readonly FrontierItem[] = [],
    options: CompleteOptions = {},
  ): number {
    const rows = discovered.map((link) => this.#row(link));
    const added = this.#write(() => {
      const { status, outcome, reason, lastmod, finalUrl, data } = result;
      const changed = this.#s.complete.run(
        status,
        outcome,
        reason,
        lastmod,
        finalUrl,
        data,
        item.id,
      );
      if (changed.changes !== 1) throw notInFlight(item);
      if (options.originData !== undefined) {
        this.#s.setOrigin.run(item.origin, options.originData);
      }
      return this.#insert(rows);
    });
    this.#counts.inFlight -= 1;
    this.#counts.done += 1;
    this.#counts.queued += added;
    this.#counts.seen += added;
    return added;
  }

  release(item: TakenItem, notBefore?: number): void {
    const held = notBefore !== undefined && notBefore > this.#now();
    this.#write(() => {
      const changed = this.#s.release.run(held ? HELD : QUEUED, held ? notBefore : null, item.id);
      if (changed.changes !== 1) throw notInFlight(item);
    });
    this.#counts.inFlight -= 1;
    this.#counts.queued += 1;
  }

  heldUntil(): number | null {
    this.#checkOpen();
    const at = this.#s.heldUntil.get()?.['at'];
    return typeof at === 'number' ? at : null;
  }

  counts(): FrontierCounts {
    return { ...this.#counts };
  }

  *results(): IterableIterator<CrawlResult> {
    this.#checkOpen();
    for (const row of this.#s.results()) yield toResult(row);
  }

  meta(key: string): string | null {
    this.#checkOpen();
    const value = this.#s.getMeta.get(key)?.['value'];
    return typeof value === 'string' ? value : null;
  }

  setMeta(key: string, value: string): void {
    this.#write(() => this.#s.setMeta.run(key, value));
  }

  originData(origin: string): string | null {
    this.#checkOpen();
    const data = this.#s.getOrigin.get(origin)?.['data'];
    return typeof data === 'string' ? data : null;
  }

  setOriginData(origin: string, data: string): void {
    this.#write(() => this.#s.setOrigin.run(origin, data));
  }

  /**
   * Runs `fn` in one write transaction: every call it makes on this state is committed
   * together when it returns, or rolled back when it throws. One commit for many results is
   * what keeps a fast crawl from writing the database once per page.
   *
   * @example
   * ```ts
   * const taken = state.transaction(() => {
   *   state.complete(item, result, links);
   *   return state.take(1, () => true);
   * });
   * ```
   */
  transaction<T>(fn: () => T): T {
    if (this.#phase === 'batch') return fn();
    const counts = { ...this.#counts };
    try {
      return this.#write(() => {
        this.#phase = 'batch';
        try {
          return fn();
        } finally {
          this.#phase = 'call';
        }
      });
    } catch (error) {
      // Rolled back: the counts go back with it.
      this.#counts = counts;
      throw error;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
    if (this.#tempDir !== null) {
      temporaryDirs.delete(this.#tempDir);
      removeTempDir(this.#tempDir);
    }
  }

  /** The values of an insert row, checked and with the URL normalised. */
  #row(item: FrontierItem): InsertValues {
    return insertValues(item, this.#normalize(item.url));
  }

  #insert(rows: readonly InsertValues[]): number {
    let added = 0;
    for (const row of rows) {
      const changes = Number(this.#s.insert.run(...row).changes);
      added += changes;
      if (changes === 0) {
        const [key, , , , , , , linked, inSitemap] = row;
        this.#s.markSeen.run(linked, inSitemap, key, linked, inSitemap);
      }
    }
    return added;
  }

  #head(origin: string): OriginHead | undefined {
    const row = this.#s.head.get(origin) as Omit<OriginHead, 'origin'> | undefined;
    return row === undefined ? undefined : { ...row, origin };
  }

  /** Runs `fn` in one write transaction: all of it is committed, or none of it. */
  #write<T>(fn: () => T): T {
    this.#checkOpen();
    if (this.#phase === 'call') {
      throw new WaymarkError('invalid-argument', 'crawl state called from within its own callback');
    }
    if (this.#phase === 'batch') {
      this.#phase = 'call';
      try {
        return fn();
      } finally {
        this.#phase = 'batch';
      }
    }
    this.#phase = 'call';
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const value = fn();
        this.#db.exec('COMMIT');
        return value;
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    } catch (error) {
      throw isSqliteError(error)
        ? new WaymarkError('io-failed', `crawl state write failed: ${this.path}`, {
            cause: error,
          })
        : error;
    } finally {
      this.#phase = 'idle';
    }
  }

  #checkOpen(): void {
    if (this.#closed)
      throw new WaymarkError('invalid-argument', `crawl state is closed: ${this.path}`);
  }
}
