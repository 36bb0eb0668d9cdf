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
        // Sent without waiting: it goes out with the COMMIT, in one round trip. Awaited
        // only once the transaction committed; its failure otherwise is the transaction's.
        ended = run(tx, this.#q.endCall, [worker, id, stored]).execute();
        ended.catch(() => {});
        return value;
      });
      // Had it failed, the COMMIT would have rolled the transaction back: it must not have.
      await ended;
      return value;
    });
  }

  /**
   * As {@link change}, in one round trip: BEGIN, the statements `send` sends (without
   * waiting for their answers), the call's record and COMMIT go out together on a connection
   * of its own, so the transaction holds its locks only while the server runs it, never while
   * this process is busy with other work. `send` must execute each statement as it makes it
   * (`.execute()`), or it would go out after the COMMIT. The statements cannot hand their
   * results to a later one, so they note what they did with the worker themselves, and
   * `decode` reads that back when the commit was in doubt and did happen.
   */
  changeInOneTrip<T>(
    what: string,
    worker: number,
    send: (tx: Sql) => Promise<T>,
    decode: (sql: Sql) => Promise<T>,
  ): Promise<T> {
    const id = randomUUID();
    return this.retry(what, async (sql, inDoubt) => {
      if (inDoubt) {
        const [row] = await run(sql, this.#q.lastResult, [worker, id]);
        if (row !== undefined) return decode(sql);
      }
      const tx = await sql.reserve();
      let lost = false;
      try {
        const begin = tx.unsafe('BEGIN').execute();
        let value: Promise<T>;
        let end = 'COMMIT';
        try {
          value = send(tx);
        } catch (error) {
          // Whatever went out before the throw must not be committed.
          value = Promise.reject(error);
          end = 'ROLLBACK';
        }
        const ended = run(tx, this.#q.endCall, [worker, id, null]).execute();
        const commit = tx.unsafe(end).execute();
        // Each statement is answered on its own, in order: after one fails, the ones behind
        // it fail as the transaction is aborted, and the COMMIT rolls it back, so the first
        // failure is the cause. After a lost connection, statements still queued in the
        // driver are never answered: nothing more is waited for.
        const all = [begin, value, ended, commit];
        try {
          await Promise.all(all);
        } catch (error) {
          lost = failureKind(error) === 'connection';
          if (!lost) await Promise.allSettled(all);
          throw error;
        }
        const committed = (await commit) as unknown as { command?: string };
        if (committed.command !== 'COMMIT')
          throw new Error(`${what}: the transaction was not committed`);
        return await value;
      } finally {
        // A connection lost mid-call goes with its pool (see connection.ts): never reused.
        if (!lost) tx.release();
      }
    });
  }

  /** Waits for every call under way, the changes queued included. */
  async settled(): Promise<void> {
    await Promise.allSettled([this.#tail, ...this.#running]);
  }
}
