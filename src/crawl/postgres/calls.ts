// How a PostgreSQL crawl state makes its calls: on the current pool, each attempt with a
// deadline, retried as the policy allows, the calls that change the crawl one at a time, and
// a record of each change so that one retried after a lost connection is never done twice.
import { randomUUID } from 'node:crypto';
import type { PendingQuery, Row, Sql, TransactionSql } from 'postgres';
import { type Pool, transaction } from './connection.ts';
import { failureKind, type RetryPolicy, retrying, withDeadline } from './retry.ts';

const PREPARED = { prepare: true } as const;

/** Runs one statement (prepared: parsed once per connection). */
export function run(sql: Sql | TransactionSql, text: string, parameters: unknown[]) {
  return sql.unsafe<Row[]>(text, parameters as never[], PREPARED);
}

/** The statements a change records itself with: see {@link Calls.change}. */
export interface ChangeStatements {
  /** `$1` worker, `$2` call id: the stored result, if that call committed. */
  readonly lastResult: string;
  /** `$1` worker, `$2` call id, `$3` result (JSON). */
  readonly endCall: string;
}

export class Calls {
  readonly #pool: Pool;
  readonly #policy: RetryPolicy;
  readonly #deadlineMs: number;
  readonly #q: ChangeStatements;
  /** The changes, one after another. */
  #tail: Promise<unknown> = Promise.resolve();
  /** Every call under way. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(pool: Pool, policy: RetryPolicy, deadlineMs: number, q: ChangeStatements) {
    this.#pool = pool;
    this.#policy = policy;
    this.#deadlineMs = deadlineMs;
    this.#q = q;
  }

  /**
   * `attempt` on the current pool until it succeeds, as the policy allows. Each attempt has a
   * deadline; one that lost its connection replaces the pool (see connection.ts). `inDoubt`:
   * an earlier attempt lost its connection, so its commit may have happened.
   */
  retry<T>(what: string, attempt: (sql: Sql, inDoubt: boolean) => Promise<T>): Promise<T> {
    const call = retrying(this.#policy, what, async (inDoubt) => {
      const sql = this.#pool.sql;
      try {
        return await withDeadline(attempt(sql, inDoubt), this.#deadlineMs);
      } catch (error) {
        if (failureKind(error) === 'connection') this.#pool.replace(sql);
        throw error;
      }
    });
    this.#running.add(call);
    const forget = () => this.#running.delete(call);
    call.then(forget, forget);
    return call;
  }

  /** Runs `fn` after every earlier call made through here. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const call = this.#tail.then(fn);
    this.#tail = call.catch(() => {});
    return call;
  }

  /**
   * A change of the crawl by `worker`: `work` in one transaction, retried. Its result
   * (`encode(value)`, JSON) is stored with the worker in the same transaction under a fresh
   * call id; when a retry follows a lost connection, the commit may have happened, and if it
   * did, `decode` rebuilds the answer from what was stored instead of doing the work again.
   */
  change<T>(
    what: string,
    worker: number,
    work: (tx: TransactionSql) => Promise<T>,
    encode: (value: T) => unknown,
    decode: (stored: unknown) => T | Promise<T>,
  ): Promise<T> {
    const id = randomUUID();
    return this.retry(what, async (sql, inDoubt) => {
      if (inDoubt) {
        const [row] = await run(sql, this.#q.lastResult, [worker, id]);
        if (row !== undefined) return decode(JSON.parse(String(row['last_result'])));
      }
      let ended: PendingQuery<Row[]> | undefined;
      const value = await transaction(sql, async (tx) => {
        const value = await work(tx);
        const stored = JSON.stringify(encode(value));
        // Sent without waiting: it goes out with the COMMIT, in one round trip.
        ended = run(tx, this.#q.endCall, [worker, id, stored]).execute();
        return value;
      });
      // Had it failed, the COMMIT would have rolled the transaction back: it must not have.
      await ended;
      return value;
    });
  }

  /** Waits for every call under way, the changes queued included. */
  async settled(): Promise<void> {
    await Promise.allSettled([this.#tail, ...this.#running]);
  }
}
