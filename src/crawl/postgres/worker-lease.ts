// A worker's life as the other workers see it: registered on its first change, kept alive by
// a heartbeat, taken for dead once silent for its own workerTimeoutMs (stored in its row, so
// every worker and every `status` judges it alike, whatever timeout they run with). The leases of a dead worker
// (items in flight, robots.txt claims, the sitemaps claim) go back to the others; the attempt
// numbers fence off the late results of a worker that was only slow.
import { hostname } from 'node:os';
import type { TransactionSql } from 'postgres';
import { type Calls, run } from './calls.ts';
import type { Pool } from './connection.ts';
import { transaction } from './connection.ts';
import { failureKind } from './retry.ts';
import type { SQL } from './statements.ts';

/** How often, at most, a worker looks for dead workers (a step of every worker may). */
const REAP_EVERY_MS = 1000;

type Statements = Record<keyof typeof SQL, string>;

export class WorkerLease {
  readonly #calls: Calls;
  readonly #pool: Pool;
  readonly #q: Statements;
  readonly #timeoutMs: number;
  #id: number | null = null;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #stopped = false;
  #lastReap = 0;

  constructor(calls: Calls, pool: Pool, q: Statements, timeoutMs: number) {
    this.#calls = calls;
    this.#pool = pool;
    this.#q = q;
    this.#timeoutMs = timeoutMs;
  }

  /** This worker's id, or null while it has changed nothing. */
  get id(): number | null {
    return this.#id;
  }

  /** This worker's id, registered (and its heartbeat started) on first use. */
  async register(crawl: number): Promise<number> {
    if (this.#id !== null) return this.#id;
    // Whole milliseconds for the bigint column, rounded up: never judged dead sooner than asked.
    const timeout = Math.min(Math.ceil(this.#timeoutMs), Number.MAX_SAFE_INTEGER);
    const [row] = await this.#calls.retry('register', (sql) =>
      run(sql, this.#q.register, [crawl, hostname(), process.pid, timeout]),
    );
    const id = Number(row?.['id']);
    this.#id = id;
    // A close that came while this registered: no heartbeat outlives the state.
    if (this.#stopped) return id;
    const beat = () => {
      const sql = this.#pool.sql;
      run(sql, this.#q.heartbeat, [id]).catch((error: unknown) => {
        // Missed: the next beat, or the next call, tells the others this worker lives.
        if (failureKind(error) === 'connection') this.#pool.replace(sql);
      });
    };
    this.#heartbeat = setInterval(beat, Math.max(1, Math.floor(this.#timeoutMs / 4)));
    // A heartbeat never keeps the process alive on its own.
    this.#heartbeat.unref();
    return id;
  }

  /** Stops the heartbeat, and keeps a registration still under way from starting one. */
  stop(): void {
    this.#stopped = true;
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  /** Gives the leases of dead workers back, at most once every {@link REAP_EVERY_MS}. */
  async reapDead(crawl: number): Promise<void> {
    const me = this.#id;
    if (me === null || Date.now() - this.#lastReap < REAP_EVERY_MS) return;
    this.#lastReap = Date.now();
    await this.#calls.retry('reap', async (sql) => {
      const dead = await run(sql, this.#q.deadWorkers, [crawl, me]);
      if (dead.length === 0) return;
      const ids = dead.map((row) => Number(row['id']));
      await transaction(sql, (tx) => this.giveBack(tx, crawl, ids));
    });
  }

  /**
   * Gives back every lease of `workers`, their hosts locked first in the order every
   * transaction uses (see `SQL.lockHosts`).
   */
  async giveBack(tx: TransactionSql, crawl: number, workers: number[]): Promise<void> {
    await Promise.all([
      run(tx, this.#q.lockHostsOf, [crawl, workers]),
      run(tx, this.#q.giveBackItems, [crawl, workers]),
      run(tx, this.#q.giveBackRobots, [crawl, workers]),
      run(tx, this.#q.giveBackSitemaps, [crawl, workers]),
    ]);
  }
}
