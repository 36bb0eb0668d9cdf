// The connections of one PostgreSQL crawl state, and what to say when it cannot connect.
//
// postgres.js 3.4.9 mishandles a connection that closes under it (porsager/postgres issues
// #1066, #1154, #1208; fixes proposed in PRs #1168, #1176, #1209, none released):
// - a query written to a connection that has just closed throws a TypeError from a
//   setImmediate (`socket.write` on null), which no caller can catch: the process dies.
//   `sql.begin` does exactly that when its connection closes mid-transaction: it sends
//   ROLLBACK on the dead connection once the transaction's function fails;
// - a connection that closes with a write still buffered keeps a stale timer, and never
//   sends anything again after it reconnects: its queries hang until connect_timeout, for
//   ever after.
// So: a transaction's function never settles once its connection is lost (sql.begin rejects
// by itself when the connection closes, and sends nothing more), and after a lost connection
// the whole pool is replaced by a fresh one, its poisoned connections with it.
import type postgres from 'postgres';
import type { Sql, TransactionSql } from 'postgres';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { ARRAY_TYPES } from './array-codec.ts';
import { describe, failureKind } from './retry.ts';

/** Where a pool connects, for messages: never the password. */
export interface Target {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

/**
 * Connections per pool: one for the calls that change the crawl (a worker makes them one at
 * a time), one for the heartbeat, one for reads made meanwhile (status, results).
 * Connections open lazily, so an idle worker holds one or two.
 */
const MAX_CONNECTIONS = 3;
/** Never shorter: a busy worker may pause this long between two statements of a transaction. */
const MIN_IDLE_IN_TRANSACTION_MS = 1000;
/** Seconds to wait for a connection (a host that drops packets would otherwise hang). */
const CONNECT_TIMEOUT_S = 10;

type Factory = typeof postgres;

/**
 * The pool of one state, replaced whole after a lost connection (see the top of this file).
 * `sql` is always the current one; a call takes it at the start of each attempt.
 */
export class Pool {
  readonly target: Target;
  #sql: Sql;
  readonly #make: () => Sql;
  /** Replaced pools, still ending. */
  readonly #ending = new Set<Promise<void>>();
  #ended = false;

  private constructor(make: () => Sql) {
    this.#make = make;
    this.#sql = make();
    const { host, port, database, user } = this.#sql.options;
    this.target = { host: host[0] ?? 'localhost', port: port[0] ?? 5432, database, user };
  }

  /**
   * A pool for `connection` (`postgres://user:password@host:port/database`; parts left out
   * come from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, as in libpq). postgres.js is
   * loaded here, on first use, so a crawl on SQLite never loads it.
   */
  static async open(connection: string, workerTimeoutMs: number): Promise<Pool> {
    if (typeof connection !== 'string' || !/^(postgres(ql)?:\/\/|$)/i.test(connection)) {
      // The text itself is not repeated: it may hold a password.
      throw new WaymarkError(
        'invalid-argument',
        'the PostgreSQL connection must be a postgres:// or postgresql:// URL, or empty to use the PG* variables',
      );
    }
    const { default: postgres } = await import('postgres');
    let pool: Pool;
    try {
      pool = new Pool(() => make(postgres, connection, workerTimeoutMs));
    } catch (error) {
      // No cause: a URL parser's error carries its input, password and all.
      throw new WaymarkError(
        'invalid-argument',
        `the PostgreSQL connection URL cannot be read (${describe(error)})`,
      );
    }
    // As the driver read it (the URL's parameter, decoded, else PGTARGETSESSIONATTRS).
    const sessionCheck = (pool.sql.options as { target_session_attrs?: unknown })
      .target_session_attrs;
    if (sessionCheck !== undefined && sessionCheck !== null && sessionCheck !== '') {
      await pool.end();
      throw new WaymarkError(
        'invalid-argument',
        'target_session_attrs (or PGTARGETSESSIONATTRS) is not supported: on a server before PostgreSQL 14 the driver checks each new connection with a query whose failure, when the connection drops, ends the process; connect to the primary server itself',
      );
    }
    return pool;
  }

  get sql(): Sql {
    return this.#sql;
  }

  /**
   * After `failed` lost a connection: a fresh pool from now on, unless another call already
   * replaced it, or the pool was ended. The old one is ended at once; whatever still ran on
   * it fails and retries.
   */
  replace(failed: Sql): void {
    // After end(), a heartbeat or call cut off by that very end must not open a pool that
    // nothing would end again.
    if (failed !== this.#sql || this.#ended) return;
    this.#sql = this.#make();
    const ending = failed.end({ timeout: 0 }).catch(() => {});
    this.#ending.add(ending);
    void ending.then(() => this.#ending.delete(ending));
  }

  async end(): Promise<void> {
    this.#ended = true;
    await Promise.all([this.#sql.end({ timeout: 0 }), ...this.#ending]);
  }
}

function make(postgres: Factory, connection: string, workerTimeoutMs: number): Sql {
  const options = {
    max: MAX_CONNECTIONS,
    connect_timeout: CONNECT_TIMEOUT_S,
    // No waits of the driver's own before it reconnects: the state's retries pace them.
    backoff: () => 0,
    // `CREATE ... IF NOT EXISTS` notices would go to console.log.
    onnotice: () => {},
    // Array types are declared, not fetched: the driver's fetch can fail unhandled (see
    // array-codec.ts).
    fetch_types: false,
    types: {
      // bigint (ids, epoch ms, counts) as numbers: all stay far below 2^53.
      bigint: { to: 20, from: [20], parse: Number, serialize: String },
      ...ARRAY_TYPES,
    },
    connection: {
      application_name: process.env['PGAPPNAME'] ?? 'waymark',
      // A worker frozen inside a transaction (stopped, partitioned, a machine gone) would
      // hold its row locks for ever; the server ends such a session once the worker would
      // be taken for dead anyway, and its transaction is rolled back.
      idle_in_transaction_session_timeout: Math.max(workerTimeoutMs, MIN_IDLE_IN_TRANSACTION_MS),
    },
  };
  return (connection === '' ? postgres(options) : postgres(connection, options)) as unknown as Sql;
}

/**
 * `fn` in one transaction. When a statement fails because the connection was lost, `fn`
 * never settles: `sql.begin` then rejects on its own (it listens for the close) instead of
 * sending ROLLBACK down the dead connection, which would crash the process (see the top).
 */
export function transaction<T>(sql: Sql, fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin((tx) =>
    fn(tx).catch((error: unknown) => {
      if (failureKind(error) === 'connection') return new Promise<never>(() => {});
      throw error;
    }),
  ) as Promise<T>;
}

export function targetName(target: Target): string {
  return `${target.host}:${target.port}/${target.database}`;
}

/**
 * The error for a first contact that failed: `network` when the server could not be reached
 * or would not let us in (refused, unknown host, timeout, authentication, unknown database),
 * since what the user must fix is how to reach the state; anything else as it came.
 */
export function connectError(error: unknown, target: Target): unknown {
  if (error instanceof WaymarkError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const refused =
    failureKind(error) === 'connection' ||
    (typeof code === 'string' && (code.startsWith('28') || code === '3D000'));
  if (!refused) return error;
  return new WaymarkError(
    'network',
    `cannot connect to PostgreSQL at ${targetName(target)} as ${target.user} (${describe(error)})`,
    { cause: error },
  );
}
