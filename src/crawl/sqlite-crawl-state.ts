import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../shared/error-message.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import type {
  CrawlRecord,
  CrawlResult,
  CrawlState,
  FrontierCounts,
  FrontierItem,
  HostRobots,
  HostRobotsOutcome,
  NewCrawl,
  SitemapFileRecord,
  StepRequest,
  StepResult,
} from './crawl-state.ts';
import {
  checkNewCrawl,
  checkOrigin,
  checkRobots,
  checkSitemapUrls,
  checkStep,
  defaultNormalizeUrl,
  takeLimit,
} from './internal/crawl-state-input.ts';
import { HostTable } from './internal/host-table.ts';
import { parseSitemapFile } from './internal/report-counts.ts';
import { SqliteQueue } from './internal/sqlite-queue.ts';
import { META, readMeta, readRecord, writeRecord } from './internal/sqlite-record.ts';
import { type InsertValues, toResult } from './internal/sqlite-rows.ts';
import {
  checkForReading,
  isSqliteError,
  openError,
  prepareDatabase,
  type Synchronous,
} from './internal/sqlite-schema.ts';
import { absentSideFiles, removeCreatedSideFiles } from './internal/sqlite-side-files.ts';
import { type ResultRow, Statements } from './internal/sqlite-statements.ts';
import { makeTempDir, removeTempDir } from './internal/sqlite-temp-dir.ts';
import { keepingNormalUrls, memoByString } from './internal/url-memo.ts';

/** Options of {@link openSqliteCrawlState}. */
export interface SqliteCrawlStateOptions {
  /**
   * Continue the crawl in the file: items that were in flight when it stopped are queued
   * again. False starts afresh, dropping whatever the file held (only if it is a waymark
   * crawl state; any other file is refused).
   */
  readonly resume: boolean;
  /**
   * Only read the file (with `resume`), as `crawl status`, `crawl export` and `report` do: it
   * is opened read-only and never changed, so a file this process may only read can be read.
   * Nothing is created, upgraded or queued again; a file without a crawl, or of another
   * schema version, is refused. Calls that would write fail.
   */
  readonly readOnly?: boolean;
  /**
   * The form under which URLs are deduplicated. Default: the WHATWG URL serialisation
   * without the fragment (`HTTP://Example.com:80/a/../b#x` -> `http://example.com/b`).
   * Must not change between a crawl and its resume.
   */
  readonly normalizeUrl?: (url: string) => string;
  /**
   * The clock politeness runs on (hosts' turns, `notBefore`) and `createdAt`/`finishedAt`
   * are read from, in epoch milliseconds. Default `Date.now`.
   */
  readonly now?: () => number;
  /**
   * `normal` (default) survives the process being killed at any instant; `full` also
   * survives an OS crash or power loss, at the cost of an fsync per commit.
   */
  readonly synchronous?: Synchronous;
}

/**
 * Results read per query while {@link SqliteCrawlState.results} is iterated. Small: a page
 * of rows is alive while it is handed out, and the crawl runs with a young generation of
 * 1 MiB (see v8-tuning.ts), so 256 rows at a time were promoted to the old generation and
 * grew the heap by 5-9 MB at the end of a 20,000-page crawl (its summary and its sitemap
 * read every result); at 32 it does not grow. A query per page costs little beside that.
 */
const RESULTS_PAGE = 32;

/** Where the sitemaps are: see {@link CrawlState.claimSitemaps}. */
type SitemapsState = 'unclaimed' | 'claimed' | 'given-up' | 'read';

/**
 * Opens (or creates) a crawl state in an SQLite file with `node:sqlite`; `path` null uses a
 * temporary file deleted on close. Every change is one transaction, committed before the
 * returned promise settles, so a process killed at any instant (even `kill -9`) leaves the
 * state as of its last completed commit. One process at a time: the file stays locked while
 * open. Hosts (their turns and robots.txt outcomes) are kept in memory only: a resumed state
 * hands out every host's robots.txt fetch again.
 *
 * @example
 * ```ts
 * const state = openSqliteCrawlState('crawl.db', { resume: true });
 * try {
 *   const record = (await state.crawl()) ?? (await state.create({ start, options: '{}', gapMs: 0 }));
 *   await state.add([{ url: record.start, origin: new URL(record.start).origin, priority: 0, depth: 0, via: null, kind: 'page' }]);
 *   const { taken, robots } = await state.step({ finished: [], released: [], take: 8 });
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export function openSqliteCrawlState(
  path: string | null,
  options: SqliteCrawlStateOptions,
): SqliteCrawlState {
  const tempDir = path === null ? makeTempDir() : null;
  const file = tempDir === null ? (path as string) : join(tempDir, 'crawl-state.db');
  let db: DatabaseSync | undefined;
  const absent = options.readOnly === true ? absentSideFiles(file) : [];
  try {
    if (options.readOnly === true) {
      if (!options.resume) {
        throw new WaymarkError(
          'invalid-argument',
          'readOnly reads the crawl the file holds: it goes with resume: true',
        );
      }
      db = openForReading(file, absent);
      checkForReading(db, file);
      return new SqliteCrawlState(db, file, tempDir, true, options, () =>
        removeCreatedSideFiles(absent),
      );
    }
    db = new DatabaseSync(file);
    const resumed = prepareDatabase(db, file, options.resume, options.synchronous ?? 'normal');
    return new SqliteCrawlState(db, file, tempDir, resumed, options);
  } catch (error) {
    db?.close();
    removeCreatedSideFiles(absent);
    if (tempDir !== null) removeTempDir(tempDir);
    throw openError(error, file);
  }
}

/**
 * A read-only connection to a state file. One closed cleanly has no write-ahead log: it is
 * opened `immutable`, which takes no lock and makes no side file, so a folder this process
 * may not write to is no obstacle. One a crawl left a log beside (killed, or running) is
 * opened to read the log too, which needs its index file (`-shm`) made in that folder.
 */
function openForReading(file: string, absentSideFiles: readonly string[]): DatabaseSync {
  if (absentSideFiles.includes(`${file}-wal`)) {
    const url = pathToFileURL(file);
    url.searchParams.set('immutable', '1');
    return new DatabaseSync(url, { readOnly: true });
  }
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    // SQLite opens the file at the first statement: read one to learn whether it can.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return db;
  } catch (error) {
    db?.close();
    // SQLITE_CANTOPEN, SQLITE_READONLY (and their extended codes): the index file could not be made.
    const code = isSqliteError(error) ? error.errcode & 0xff : 0;
    if (code !== 14 && code !== 8) throw error;
    throw new WaymarkError(
      'io-failed',
      `cannot read crawl state: ${file}: the crawl that wrote it did not close it (its log, ${basename(file)}-wal, is beside it), and reading that needs a folder this process may write to; copy the files somewhere writable, or resume the crawl once (${errorMessage(error)})`,
      { cause: error },
    );
  }
}

/**
 * A {@link CrawlState} in SQLite, from {@link openSqliteCrawlState}, for one process. Memory
 * grows with the number of hosts, never with the number of URLs: of those only the counts
 * are kept in JavaScript.
 *
 * Cost of a step: an index seek or two per result, per URL found and per item taken, one per
 * host given items, and one commit; finding the ready hosts costs nothing per host waiting.
 *
 * @example
 * ```ts
 * const state: SqliteCrawlState = openSqliteCrawlState(null, { resume: false });
 * console.log(state.path, await state.counts());
 * await state.close();
 * ```
 */
export class SqliteCrawlState implements CrawlState {
  readonly location: string;
  /** The database file (a temporary one when opened with a null path). */
  readonly path: string;
  /** True when the state was opened with `resume` and held an earlier crawl. */
  readonly resumed: boolean;
  readonly #db: DatabaseSync;
  readonly #s: Statements;
  readonly #tempDir: string | null;
  readonly #now: () => number;
  readonly #hosts: HostTable;
  readonly #queue: SqliteQueue;
  /** The record's values a step needs, as stored. */
  #gapMs = 0;
  #requested = 0;
  #depthCut = 0;
  #finished = false;
  #sitemaps: SitemapsState = 'unclaimed';
  #closed = false;
  readonly #readOnly: boolean;
  readonly #afterClose: () => void;

  /** Use {@link openSqliteCrawlState}. */
  constructor(
    db: DatabaseSync,
    path: string,
    tempDir: string | null,
    resumed: boolean,
    options: SqliteCrawlStateOptions,
    afterClose: () => void = () => {},
  ) {
    this.#afterClose = afterClose;
    this.#db = db;
    this.path = path;
    this.location = path;
    this.#tempDir = tempDir;
    this.resumed = resumed;
    this.#now = options.now ?? Date.now;
    this.#s = new Statements(db);
    this.#readOnly = options.readOnly === true;
    // Whatever was in flight when the last process stopped was interrupted.
    if (resumed && !this.#readOnly) this.#s.requeueInFlight.run();
    this.#hosts = new HostTable(() => this.#gapMs);
    this.#queue = new SqliteQueue(
      this.#s,
      this.#hosts,
      // Pages of a site link to the same URLs again and again: a repeat costs a lookup.
      // Most are in their normal form already: given back as they are, without a parse.
      options.normalizeUrl ?? keepingNormalUrls(memoByString(defaultNormalizeUrl)),
    );
    const meta = readMeta(this.#s);
    const number = (key: string) => Number(meta.get(key) ?? 0) || 0;
    this.#gapMs = number(META.gapMs);
    this.#requested = number(META.requested);
    this.#depthCut = number(META.depthCut);
    this.#finished = meta.has(META.finishedAt);
    if (meta.get(META.sitemapsRead) === '1') this.#sitemaps = 'read';
  }

  async crawl(): Promise<CrawlRecord | null> {
    this.#checkOpen();
    return readRecord(this.#s);
  }

  async create(crawl: NewCrawl): Promise<CrawlRecord> {
    this.#checkOpen();
    checkNewCrawl(crawl);
    const stored = readRecord(this.#s);
    if (stored !== null) return stored;
    this.#write(() => writeRecord(this.#s, crawl, this.#now()));
    this.#gapMs = crawl.gapMs;
    return readRecord(this.#s) as CrawlRecord;
  }

  async add(items: readonly FrontierItem[]): Promise<number> {
    this.#checkOpen();
    const rows = items.map((item) => this.#queue.row(item));
    return this.#write(() => this.#queue.insert(rows));
  }

  async step(request: StepRequest): Promise<StepResult> {
    this.#checkOpen();
    // Everything is checked before the transaction begins: bad input changes nothing.
    checkStep(request);
    const queue = this.#queue;
    const found = request.finished.map((done) => done.discovered.map((item) => queue.row(item)));
    const now = this.#now();
    return this.#write(() => {
      queue.requeueDue(now);
      let lost = 0;
      let requested = 0;
      let depthCut = 0;
      // The URLs of every recorded result go in together, in order: see SqliteQueue.insert.
      const discovered: InsertValues[] = [];
      request.finished.forEach((done, i) => {
        if (!queue.record(done)) {
          lost++;
          return;
        }
        for (const values of found[i] ?? []) discovered.push(values);
        if (done.requested) requested++;
        depthCut += done.depthCut;
      });
      queue.insert(discovered);
      if (requested > 0) {
        this.#requested += requested;
        this.#s.setMeta.run(META.requested, String(this.#requested));
      }
      if (depthCut > 0) {
        this.#depthCut += depthCut;
        this.#s.setMeta.run(META.depthCut, String(this.#depthCut));
      }
      for (const released of request.released) queue.release(released, now);
      // take 0 only records: no items, and no robots.txt fetches either.
      const limit = takeLimit(request.take, request.maxRequested, this.#requested);
      const taken = limit > 0 ? queue.take(limit, now) : [];
      const robots = request.take > 0 ? this.#hosts.claimWantedRobots(now) : [];
      const waitMs = this.#hosts.waitMs(now);
      return { taken, robots, lost, open: this.#open(), waitMs, requested: this.#requested };
    });
  }

  async claimRobots(origin: string): Promise<'fetch' | 'known' | 'busy'> {
    this.#checkOpen();
    checkOrigin(origin);
    return this.#hosts.claimRobots(origin, this.#now());
  }

  async settleRobots(origin: string, robots: HostRobots): Promise<void> {
    this.#checkOpen();
    checkRobots(origin, robots);
    const { status, detail, url, body } = robots;
    this.#write(() =>
      this.#s.setRobots.run(origin, status === 'network-error' ? null : status, detail, url, body),
    );
    this.#hosts.settleRobots(origin, copyRobots(robots), this.#now());
  }

  /** The outcome this process settled: a resumed state fetches every robots.txt again. */
  async robots(origin: string): Promise<HostRobots | null> {
    this.#checkOpen();
    const robots = this.#hosts.robots(origin);
    return robots === null ? null : copyRobots(robots);
  }

  /** Every outcome stored, this run's or, for a host not fetched again yet, an earlier run's. */
  async robotsOutcomes(): Promise<readonly HostRobotsOutcome[]> {
    this.#checkOpen();
    return this.#s.allRobots.all().map((row) => ({
      origin: String(row['origin']),
      status: row['status'] === null ? 'network-error' : Number(row['status']),
      detail: row['detail'] === null ? null : String(row['detail']),
      url: String(row['url']),
      body: row['body'] === null ? null : new Uint8Array(row['body'] as Uint8Array),
    }));
  }

  async reserve(origin: string): Promise<number> {
    this.#checkOpen();
    checkOrigin(origin);
    return this.#hosts.reserve(origin, this.#now());
  }

  async claimSitemaps(): Promise<boolean> {
    this.#checkOpen();
    if (this.#sitemaps !== 'unclaimed') return false;
    this.#sitemaps = 'claimed';
    return true;
  }

  async settleSitemaps(
    sitemapUrls: number | null,
    files: readonly SitemapFileRecord[] = [],
  ): Promise<void> {
    this.#checkOpen();
    checkSitemapUrls(sitemapUrls);
    if (this.#sitemaps === 'read') return;
    if (sitemapUrls === null) {
      // Kept in memory only: the next state opened on the file may claim them again.
      this.#sitemaps = 'given-up';
      return;
    }
    this.#write(() => {
      this.#s.clearSitemapFiles.run();
      for (const file of files) this.#s.addSitemapFile.run(JSON.stringify(file));
      this.#s.setMeta.run(META.sitemapUrls, String(sitemapUrls));
      this.#s.setMeta.run(META.sitemapsRead, '1');
      this.#sitemaps = 'read';
    });
  }

  async sitemapFiles(): Promise<readonly SitemapFileRecord[]> {
    this.#checkOpen();
    const files: SitemapFileRecord[] = [];
    for (const row of this.#s.sitemapFiles.all()) {
      const file = parseSitemapFile(String(row['record']));
      if (file !== null) files.push(file);
    }
    return files;
  }

  async claimFinish(stopped = false): Promise<boolean> {
    this.#checkOpen();
    if (this.#finished || this.#open(stopped)) return false;
    this.#write(() => {
      this.#s.setMeta.run(META.finishedAt, String(this.#now()));
      this.#finished = true;
    });
    return true;
  }

  async counts(): Promise<FrontierCounts> {
    this.#checkOpen();
    return this.#queue.snapshot();
  }

  /**
   * Every recorded result in key order, a page of rows per query: each page is read whole
   * (nothing stays open between them), so other calls may run while this is iterated.
   */
  async *results(): AsyncIterable<CrawlResult> {
    this.#checkOpen();
    // The in-links logged since the last fold go into the rows first: see SqliteQueue.insert.
    if (this.#queue.hasLoggedInlinks) this.#write(() => this.#queue.foldInlinks());
    let after = '';
    for (;;) {
      this.#checkOpen();
      const rows = this.#s.results.all(after, RESULTS_PAGE) as unknown as ResultRow[];
      for (const row of rows) yield toResult(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < RESULTS_PAGE) return;
      after = last.key;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      // A resume would queue them again too; at once, so the file says so now.
      if (this.#tempDir === null && !this.#readOnly && this.#queue.counts.inFlight > 0) {
        this.#write(() => this.#queue.requeueInFlight());
      }
    } finally {
      this.#closed = true;
      this.#db.close();
      this.#afterClose();
      if (this.#tempDir !== null) removeTempDir(this.#tempDir);
    }
  }

  /**
   * See {@link StepResult.open}; `stopped` (see {@link CrawlState.claimFinish}): items still
   * queued do not count.
   */
  #open(stopped = false): boolean {
    const { queued, inFlight } = this.#queue.counts;
    const sitemapsSettled = this.#sitemaps === 'read' || this.#sitemaps === 'given-up';
    const waiting = queued > 0 && !stopped;
    return waiting || inFlight > 0 || this.#hosts.robotsClaimed > 0 || !sitemapsSettled;
  }

  /**
   * Runs `fn` in one write transaction: all of it is committed, or none of it, and then the
   * hosts, counts and record values kept in memory go back to what they were too.
   */
  #write<T>(fn: () => T): T {
    this.#checkOpen();
    const saved = {
      counts: this.#queue.snapshot(),
      requested: this.#requested,
      depthCut: this.#depthCut,
      finished: this.#finished,
      sitemaps: this.#sitemaps,
    };
    this.#hosts.begin();
    try {
      this.#s.begin.run();
      try {
        const value = fn();
        this.#s.commit.run();
        this.#hosts.commit();
        this.#queue.commit();
        return value;
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    } catch (error) {
      this.#hosts.rollback();
      this.#queue.rollback();
      this.#queue.counts = saved.counts;
      this.#requested = saved.requested;
      this.#depthCut = saved.depthCut;
      this.#finished = saved.finished;
      this.#sitemaps = saved.sitemaps;
      throw isSqliteError(error)
        ? new WaymarkError('io-failed', `crawl state write failed: ${this.path}`, { cause: error })
        : error;
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new WaymarkError('usage', `crawl state is closed: ${this.path}`);
  }
}

/** A copy whose body the caller may change without changing the state's. */
function copyRobots(robots: HostRobots): HostRobots {
  return { ...robots, body: robots.body === null ? null : new Uint8Array(robots.body) };
}
