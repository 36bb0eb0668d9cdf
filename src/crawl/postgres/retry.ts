// What a failed database call means, and how long to wait before trying it again.
import { setTimeout as sleep } from 'node:timers/promises';
import { WaymarkError } from '../../shared/waymark-error.ts';

/**
 * - `conflict`: the transaction was rolled back for a serialization failure or a deadlock;
 *   it changed nothing and may simply run again.
 * - `connection`: the connection failed or the server is restarting; a transaction whose
 *   commit was under way may or may not have committed (see `PostgresCrawlState`).
 * - `fatal`: anything else (a bug, a missing privilege, a full disk): retrying won't help.
 */
export type FailureKind = 'conflict' | 'connection' | 'fatal';

const CONFLICTS = new Set(['40001', '40P01']);

/**
 * Node's socket errors and postgres.js's own connection errors (CONNECTION_DESTROYED: a pool
 * this state replaced, or ended, under the call).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // An attempt that got no answer in time (see `withDeadline`).
  'ATTEMPT_TIMEOUT',
]);

/**
 * SQLSTATEs of a session the server ended or would not start: admin_shutdown (a restart ends
 * every session), crash_shutdown, cannot_connect_now (starting up or shutting down),
 * too_many_connections, idle_in_transaction_session_timeout (this worker stalled inside a
 * transaction, which was rolled back), and the connection_exception class 08.
 */
const SERVER_GOING = new Set(['57P01', '57P02', '57P03', '53300', '25P03']);

export function failureKind(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'fatal';
  if (CONFLICTS.has(code)) return 'conflict';
  if (CONNECTION_CODES.has(code) || SERVER_GOING.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
    return 'connection';
  }
  return 'fatal';
}

/** How {@link retrying} waits and reports. */
export interface RetryPolicy {
  /** Give up once this many ms have passed since the first failure. */
  readonly retryForMs: number;
  readonly onRetry: ((error: Error, waitMs: number) => void) | undefined;
  /** For messages: `postgres <crawl> on <host>`. */
  readonly location: string;
}

const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 2000;

/**
 * Runs `attempt` until it succeeds, waiting between tries: after a lost connection 100 ms,
 * doubling to 2 s; after a conflict a few random ms (the other transaction is about to
 * commit). `attempt` is told whether an earlier try lost its connection, in which case its
 * commit may have happened: a call that must not do its work twice looks first. Gives up
 * after `retryForMs` with a {@link WaymarkError}: `network` for a database out of reach,
 * `io-failed` for any other failure (which is never retried).
 */
export async function retrying<T>(
  policy: RetryPolicy,
  what: string,
  attempt: (inDoubt: boolean) => Promise<T>,
): Promise<T> {
  let inDoubt = false;
  let failures = 0;
  let firstFailure = 0;
  let wait = FIRST_WAIT_MS;
  for (;;) {
    try {
      return await attempt(inDoubt);
    } catch (error) {
      const kind = failureKind(error);
      if (kind === 'fatal') throw asWaymarkError(error, what, policy.location);
      const now = Date.now();
      if (failures++ === 0) firstFailure = now;
      const waitMs = kind === 'conflict' ? Math.floor(Math.random() * 20) : wait;
      if (now - firstFailure + waitMs > policy.retryForMs) {
        throw new WaymarkError(
          kind === 'connection' ? 'network' : 'io-failed',
          `crawl state ${what} failed for ${Math.round((now - firstFailure) / 1000)} s, giving up (${describe(error)}): ${policy.location}`,
          { cause: error },
        );
      }
      policy.onRetry?.(error as Error, waitMs);
      await sleep(waitMs);
      if (kind === 'connection') {
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
        inDoubt = true;
      }
    }
  }
}

/** A failure that is not retried, as the error a caller sees (WaymarkErrors pass as they are). */
export function asWaymarkError(error: unknown, what: string, location: string): unknown {
  if (error instanceof WaymarkError || !(error instanceof Error)) return error;
  return new WaymarkError(
    'io-failed',
    `crawl state ${what} failed (${describe(error)}): ${location}`,
    {
      cause: error,
    },
  );
}

/** `<code>: <message>` of a driver error. Its messages never hold the password. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code} ${error.message}`
    : error.message;
}

/**
 * `promise`, or an `ATTEMPT_TIMEOUT` error (a connection failure) if it has not settled after
 * `ms`: a connection that went silent (a half-open socket after a network partition, which
 * TCP keepalives notice only after many minutes) must not stall a worker for ever.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer in ${ms} ms`), { code: 'ATTEMPT_TIMEOUT' })),
      ms,
    );
  });
  // The attempt may still fail after its deadline: that is no longer anyone's business.
  promise.catch(() => {});
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
