import type { Row, Sql, TransactionSql } from 'postgres';
import { WaymarkError } from '../../shared/waymark-error.ts';
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
} from '../crawl-state.ts';
import { MAX_WORKER_TIMEOUT_MS } from '../internal/crawl-defaults.ts';
import {
  checkNewCrawl,
  checkOrigin,
  checkRobots,
  checkSitemapUrls,
  checkStep,
  defaultNormalizeUrl,
} from '../internal/crawl-state-input.ts';
import { Calls, run } from './calls.ts';
import { connectError, Pool, targetName, transaction } from './connection.ts';
import { FoundUrls } from './found-urls.ts';
import { KnownUrls } from './known-urls.ts';
import { toRecord, toResult, toRobots, toRobotsOutcome, toWorker } from './rows.ts';
import { checkSchemaName, DONE, IN_FLIGHT, inSchema, migrate, ROBOTS_KNOWN } from './schema.ts';
import { readSitemapFiles, storeSitemapFiles } from './sitemap-files.ts';
import { SQL, type StatementName } from './statements.ts';
import { notedStep, prepareStep, sendStep } from './step-queries.ts';
import { WorkerLease } from './worker-lease.ts';

/**
 * Options of {@link openPostgresCrawlState}.
 *
 * @example
 * ```ts
 * const options: PostgresCrawlStateOptions = {
 *   connection: process.env['WAYMARK_STATE'] ?? '',
 *   crawl: 'big-2026-11',
 *   onRetry: (error, waitMs) => console.error(`database: ${error.message}; again in ${waitMs} ms`),
 * };
 * ```
 */
export interface PostgresCrawlStateOptions {
  /**
   * `postgres://user:password@host:port/database`; parts left out come from PGHOST, PGPORT,
   * PGUSER, PGPASSWORD, PGDATABASE (an empty string takes them all from there).
   */
  readonly connection: string;
  /** The crawl's name: one database holds many crawls. */
  readonly crawl: string;
  /** Schema for waymark's tables, a lower-case SQL identifier. Default `waymark`. */
  readonly schema?: string;
  /**
   * A worker silent this long is taken for dead and its leases go to others. It is stored
   * with the worker when it registers, and every other worker (and `workers()`) judges it by
   * its own timeout, not by theirs: workers of one crawl may use different ones. Default
   * 60_000.
   */
  readonly workerTimeoutMs?: number;
  /** How long a failing database is retried before giving up. Default 300_000. */
  readonly retryForMs?: number;
  /** Told of each wait before a retry: the error, and the milliseconds it waits. */
  readonly onRetry?: (error: Error, waitMs: number) => void;
  /** As in `SqliteCrawlStateOptions.normalizeUrl`; every worker of a crawl must use the same. */
  readonly normalizeUrl?: (url: string) => string;
  /**
   * URLs this worker remembers seeing the crawl commit, so that a step does not send them
   * again when pages link to them once more (menus, footers). Each costs about 150 bytes of
   * memory. 0 remembers none: every link found goes to the database. Default 100,000.
   */
  readonly rememberUrls?: number;
}

/**
 * A worker process that changed the crawl, from {@link PostgresCrawlState.workers}.
 *
 * @example
 * ```ts
 * const line = (worker: CrawlWorker) => `${worker.hostname}:${worker.pid} ${worker.alive ? 'alive' : 'gone'}`;
 * ```
 */
export interface CrawlWorker {
  readonly id: number;
  readonly hostname: string;
  readonly pid: number;
  /** Epoch ms, by the database's clock. */
  readonly startedAt: number;
  /** Its last sign of life (a heartbeat or a call), epoch ms by the database's clock. */
  readonly seenAt: number;
  /** Neither closed nor silent for longer than its own `workerTimeoutMs` (as it registered). */
  readonly alive: boolean;
  /** Pages it requested (see `CrawlRecord.requested`). */
  readonly requested: number;
}

const DEFAULT_SCHEMA = 'waymark';
const DEFAULT_WORKER_TIMEOUT_MS = 60_000;
const DEFAULT_RETRY_FOR_MS = 300_000;
const RESULTS_PAGE = 500;

const DEFAULT_REMEMBER_URLS = 100_000;

/** An attempt's deadline beyond twice workerTimeoutMs (see the constructor). */
const DEADLINE_SPARE_MS = 10_000;

/**
 * Opens a crawl state in PostgreSQL, shared by any number of workers on any number of
 * machines: each opens the same `crawl` on the same database. The schema is created or
 * migrated on first use. Fails with a `network` {@link WaymarkError} naming the server
 * (never the password) when it cannot connect.
 *
 * @example
 * ```ts
 * const state = await openPostgresCrawlState({ connection: 'postgres://crawler@db/crawls', crawl: 'big-2026-11' });
 * try {
 *   const record = await state.create({ start: 'https://example.com/', options: '{}', gapMs: 250 });
 *   console.log(record.start, await state.counts(), await state.workers());
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export async function openPostgresCrawlState(
  options: PostgresCrawlStateOptions,
): Promise<PostgresCrawlState> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  checkSchemaName(schema);
  if (typeof options.crawl !== 'string' || options.crawl === '') {
    throw new WaymarkError('invalid-argument', 'a PostgreSQL crawl state needs a crawl name');
  }
  const timeout = options.workerTimeoutMs ?? DEFAULT_WORKER_TIMEOUT_MS;
  const retryFor = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  if (
    !Number.isFinite(timeout) ||
    timeout <= 0 ||
    timeout > MAX_WORKER_TIMEOUT_MS ||
    !Number.isFinite(retryFor) ||
    retryFor < 0
  ) {
    throw new WaymarkError(
      'invalid-argument',
      `workerTimeoutMs must be > 0 and at most ${MAX_WORKER_TIMEOUT_MS} (a day), and retryForMs >= 0, got ${timeout} and ${retryFor}`,
    );
  }
  const remember = options.rememberUrls ?? DEFAULT_REMEMBER_URLS;
  if (!Number.isSafeInteger(remember) || remember < 0) {
    throw new WaymarkError(
      'invalid-argument',
      `rememberUrls must be a whole number >= 0, got ${remember}`,
    );
  }
  const pool = await Pool.open(options.connection, timeout);
  try {
    await migrate(pool.sql, schema);
  } catch (error) {
    await pool.end();
    throw connectError(error, pool.target);
  }
  return new PostgresCrawlState(pool, schema, options);
}

/**
 * A {@link CrawlState} in PostgreSQL, from {@link openPostgresCrawlState}. The calls that
 * change the crawl are made one at a time per state (each is one transaction of a few round
 * trips, whatever its size) and each is retried, after a lost connection, with a look at
 * whether its commit happened first, so a database restart neither loses nor doubles work.
 *
 * @example
 * ```ts
 * const state: PostgresCrawlState = await openPostgresCrawlState({ connection: '', crawl: 'nightly' });
 * for (const worker of await state.workers()) console.log(worker.hostname, worker.pid, worker.alive);
 * await state.close();
 * ```
 */
export class PostgresCrawlState implements CrawlState {
  readonly location: string;
  readonly #pool: Pool;
  readonly #calls: Calls;
  readonly #worker: WorkerLease;
  readonly #q: Record<StatementName, string>;
  readonly #name: string;
  readonly #timeout: number;
  readonly #normalize: (url: string) => string;
  /** URLs this worker saw committed: not sent again (see known-urls.ts). */
  readonly #known: KnownUrls;
  #crawlId: number | null = null;
  #gaveUpSitemaps = false;
  #closed = false;

  /** Use {@link openPostgresCrawlState}. */
  constructor(pool: Pool, schema: string, options: PostgresCrawlStateOptions) {
    this.#pool = pool;
    this.#name = options.crawl;
    this.location = `postgres ${options.crawl} on ${targetName(pool.target)}`;
    this.#timeout = options.workerTimeoutMs ?? DEFAULT_WORKER_TIMEOUT_MS;
    this.#normalize = options.normalizeUrl ?? defaultNormalizeUrl;
    this.#known = new KnownUrls(options.rememberUrls ?? DEFAULT_REMEMBER_URLS);
    this.#q = Object.fromEntries(
      Object.entries(SQL).map(([name, text]) => [name, inSchema(schema, text)]),
    ) as Record<StatementName, string>;
    const policy = {
      retryForMs: options.retryForMs ?? DEFAULT_RETRY_FOR_MS,
      onRetry: options.onRetry,
      location: this.location,
    };
    // Longer than any wait for a lock that a frozen worker holds (the server ends its session
    // after workerTimeoutMs), with room to spare.
    const deadline = 2 * this.#timeout + DEADLINE_SPARE_MS;
    this.#calls = new Calls(pool, policy, deadline, this.#q);
    this.#worker = new WorkerLease(this.#calls, pool, this.#q, this.#timeout);
  }

  async crawl(): Promise<CrawlRecord | null> {
    this.#checkOpen();
    const [row] = await this.#read('crawl', 'record', [this.#name]);
    return toRecord(row);
  }

  async create(crawl: NewCrawl): Promise<CrawlRecord> {
    this.#checkOpen();
    checkNewCrawl(crawl);
    const id = await this.#ensureCrawl();
    const { start, options, gapMs } = crawl;
    await this.#calls.retry('create', (sql) =>
      this.#run(sql, 'create', [id, start, options, gapMs]),
    );
    return (await this.crawl()) as CrawlRecord;
  }

  async add(items: readonly FrontierItem[]): Promise<number> {
    this.#checkOpen();
    const found = new FoundUrls(this.#normalize, this.#known);
    for (const item of items) found.add(item, null);
    if (found.empty) return 0;
    const origins = [...found.origins];
    const added = await this.#change('add', async (tx, crawl, worker) => {
      const [, , added] = await Promise.all([
        this.#run(tx, 'ensureHosts', [crawl, origins]),
        this.#run(tx, 'lockHosts', [crawl, origins]),
        found.columns.key.length > 0
          ? this.#run(tx, 'add', found.addParameters(crawl, worker))
          : [],
        found.counts.size > 0 && this.#run(tx, 'countKnown', found.countParameters(crawl, worker)),
      ]);
      return Number(added[0]?.['added'] ?? 0);
    });
    found.rememberAdded(this.#known);
    return added;
  }

  async step(request: StepRequest): Promise<StepResult> {
    this.#checkOpen();
    // Everything is checked before the transaction begins: bad input changes nothing.
    checkStep(request);
    const step = prepareStep(request, this.#normalize, Date.now(), this.#known);
    return this.#calls.serial(async () => {
      const crawl = await this.#ensureCrawl();
      const worker = await this.#worker.register(crawl);
      await this.#worker.reapDead(crawl);
      const result = await this.#calls.changeInOneTrip(
        'step',
        worker,
        (tx) => sendStep(tx, this.#q, crawl, worker, step),
        (sql) => this.#stepAgain(sql, crawl, worker, step.finishedCount),
      );
      // What a lost result found was not added; which result was lost is not known.
      if (result.lost === 0) step.found.rememberAdded(this.#known);
      return result;
    });
  }

  async claimRobots(origin: string): Promise<'fetch' | 'known' | 'busy'> {
    this.#checkOpen();
    checkOrigin(origin);
    return this.#change('claimRobots', async (tx, crawl, worker) => {
      const [, claimed, state] = await Promise.all([
        this.#run(tx, 'ensureHost', [crawl, origin]),
        this.#run(tx, 'claimRobots', [crawl, worker, origin]),
        this.#run(tx, 'robotsState', [crawl, origin]),
      ]);
      if (claimed.length > 0) return 'fetch';
      return state[0]?.['robots'] === ROBOTS_KNOWN ? 'known' : 'busy';
    });
  }

  async settleRobots(origin: string, robots: HostRobots): Promise<void> {
    this.#checkOpen();
    checkRobots(origin, robots);
    const crawl = await this.#ensureCrawl();
    const { status, detail, url, body, gapMs } = robots;
    const code = status === 'network-error' ? null : status;
    const bytes = body === null ? null : Buffer.from(body);
    await this.#calls.retry('settleRobots', (sql) =>
      transaction(sql, (tx) =>
        Promise.all([
          this.#run(tx, 'ensureHost', [crawl, origin]),
          this.#run(tx, 'settleRobots', [crawl, origin, code, detail, url, bytes, gapMs]),
        ]),
      ),
    );
  }

  async robots(origin: string): Promise<HostRobots | null> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    if (crawl === null) return null;
    const [row] = await this.#read('robots', 'robots', [crawl, origin]);
    return row === undefined ? null : toRobots(row);
  }

  async robotsOutcomes(): Promise<readonly HostRobotsOutcome[]> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    if (crawl === null) return [];
    return (await this.#read('robotsOutcomes', 'robotsOutcomes', [crawl])).map(toRobotsOutcome);
  }

  async reserve(origin: string): Promise<number> {
    this.#checkOpen();
    checkOrigin(origin);
    return this.#change('reserve', async (tx, crawl) => {
      const [, booked, wait] = await Promise.all([
        this.#run(tx, 'ensureHost', [crawl, origin]),
        this.#run(tx, 'reserve', [crawl, origin]),
        this.#run(tx, 'waitFor', [crawl, origin]),
      ]);
      return booked.length > 0 ? 0 : Number(wait[0]?.['wait'] ?? 1);
    });
  }

  async claimSitemaps(): Promise<boolean> {
    this.#checkOpen();
    // Not again by the state that gave them up; another (a new worker, a resume) may.
    if (this.#gaveUpSitemaps) return false;
    return this.#change(
      'claimSitemaps',
      async (tx, crawl, worker) =>
        (await this.#run(tx, 'claimSitemaps', [crawl, worker])).length > 0,
    );
  }

  async settleSitemaps(
    sitemapUrls: number | null,
    files: readonly SitemapFileRecord[] = [],
  ): Promise<void> {
    this.#checkOpen();
    checkSitemapUrls(sitemapUrls);
    const crawl = await this.#ensureCrawl();
    if (sitemapUrls !== null) {
      const records = files.map((file) => JSON.stringify(file));
      await this.#calls.retry('settleSitemaps', (sql) =>
        storeSitemapFiles(sql, this.#q, crawl, sitemapUrls, records),
      );
      return;
    }
    this.#gaveUpSitemaps = true;
    const worker = this.#worker.id;
    if (worker === null) return;
    await this.#calls.retry('settleSitemaps', (sql) =>
      this.#run(sql, 'sitemapsGivenUp', [crawl, worker]),
    );
  }

  async sitemapFiles(): Promise<readonly SitemapFileRecord[]> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    if (crawl === null) return [];
    return readSitemapFiles((after, limit) =>
      this.#read('sitemapFiles', 'sitemapFiles', [crawl, after, limit]),
    );
  }

  async claimFinish(stopped = false): Promise<boolean> {
    this.#checkOpen();
    const statement = stopped ? 'claimFinishStopped' : 'claimFinish';
    return this.#change(
      'claimFinish',
      async (tx, crawl) => (await this.#run(tx, statement, [crawl])).length > 0,
    );
  }

  async counts(): Promise<FrontierCounts> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    const counts = { queued: 0, inFlight: 0, done: 0, seen: 0 };
    if (crawl === null) return counts;
    for (const row of await this.#read('counts', 'counts', [crawl])) {
      const n = Number(row['n']);
      const state = Number(row['state']);
      if (state === IN_FLIGHT) counts.inFlight += n;
      else if (state === DONE) counts.done += n;
      else counts.queued += n;
      counts.seen += n;
    }
    return counts;
  }

  /**
   * Every recorded result in key order, a page per query: nothing is held open between
   * pages (each page is retried on its own), so a database restart while iterating only
   * pauses it. Results recorded meanwhile after the page being read show up too.
   */
  async *results(): AsyncIterable<CrawlResult> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    if (crawl === null) return;
    let after = '';
    for (;;) {
      this.#checkOpen();
      const rows = await this.#read('results', 'results', [crawl, after, RESULTS_PAGE]);
      for (const row of rows) yield toResult(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < RESULTS_PAGE) return;
      after = String(last['key']);
    }
  }

  /**
   * The worker processes that changed this crawl (a state registers on its first change;
   * one that only reads, as `status` and `export` do, never does), oldest first.
   *
   * @example
   * ```ts
   * const alive = (await state.workers()).filter((worker) => worker.alive).length;
   * ```
   */
  async workers(): Promise<readonly CrawlWorker[]> {
    this.#checkOpen();
    const crawl = await this.#findCrawl();
    if (crawl === null) return [];
    return (await this.#read('workers', 'workers', [crawl])).map(toWorker);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.stop();
    try {
      // Calls under way finish first.
      await this.#calls.settled();
      const crawl = this.#crawlId;
      const worker = this.#worker.id;
      if (crawl !== null && worker !== null) {
        await this.#calls.retry('close', (sql) =>
          transaction(sql, async (tx) => {
            await this.#worker.giveBack(tx, crawl, [worker]);
            await this.#run(tx, 'closeWorker', [worker]);
          }),
        );
      }
    } finally {
      await this.#pool.end();
    }
  }

  /**
   * A call that changes the crawl, made after this state's earlier ones, in one transaction
   * recorded under a call id (see {@link Calls.change}); the value itself is the record
   * unless `encode` says otherwise.
   */
  #change<T>(
    what: string,
    work: (tx: TransactionSql, crawl: number, worker: number) => Promise<T>,
    hooks: {
      before?: (crawl: number) => Promise<void>;
      encode?: (value: T) => unknown;
      decode?: (stored: unknown) => T | Promise<T>;
    } = {},
  ): Promise<T> {
    const {
      before,
      encode = (value: T) => value,
      decode = (stored: unknown) => stored as T,
    } = hooks;
    return this.#calls.serial(async () => {
      const crawl = await this.#ensureCrawl();
      const worker = await this.#worker.register(crawl);
      await before?.(crawl);
      return this.#calls.change(what, worker, (tx) => work(tx, crawl, worker), encode, decode);
    });
  }

  /** A step's answer when its commit, in doubt, did happen: what it noted of itself. */
  async #stepAgain(
    sql: Sql,
    crawl: number,
    worker: number,
    finishedCount: number,
  ): Promise<StepResult> {
    const [noted] = await this.#run(sql, 'stepNoted', [worker]);
    const ids = (noted?.['step_taken'] ?? []) as unknown[];
    const [taken, [summary]] = await Promise.all([
      this.#run(sql, 'takenAgain', [crawl, ids]),
      this.#run(sql, 'summary', [crawl]),
    ]);
    return notedStep(noted, taken, summary, finishedCount);
  }

  /** The crawl's id, its row made when missing (by any call that changes the crawl). */
  async #ensureCrawl(): Promise<number> {
    if (this.#crawlId !== null) return this.#crawlId;
    const [row] = await this.#calls.retry('open', (sql) =>
      this.#run(sql, 'ensureCrawl', [this.#name]),
    );
    this.#crawlId = Number(row?.['id']);
    return this.#crawlId;
  }

  /** The crawl's id, or null while no call has made its row (reads never make it). */
  async #findCrawl(): Promise<number | null> {
    if (this.#crawlId !== null) return this.#crawlId;
    const [row] = await this.#read('open', 'crawlId', [this.#name]);
    if (row === undefined) return null;
    this.#crawlId = Number(row['id']);
    return this.#crawlId;
  }

  #run(sql: Sql | TransactionSql, name: StatementName, parameters: unknown[]) {
    return run(sql, this.#q[name], parameters);
  }

  /** One statement outside any transaction, retried. */
  #read(what: string, name: StatementName, parameters: unknown[]): Promise<Row[]> {
    return this.#calls.retry(what, (sql) => this.#run(sql, name, parameters));
  }

  #checkOpen(): void {
    if (this.#closed) {
      throw new WaymarkError('usage', `crawl state is closed: ${this.location}`);
    }
  }
}
