import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';
import { BlockedAddressError } from './address-checked-fetch.ts';
import { formatDuration } from './format-limit.ts';

/** Why a {@link Deadline}'s signal fired. */
type AbortKind = 'timeout' | 'caller' | 'stopped';

/**
 * The lifetime of one fetch, from the first connect to the last body byte: one
 * `AbortController` that fires when the time cap runs out, when the caller's signal fires, or
 * when waymark stops early (size cap, consumer done). Its signal goes to every `fetch` call,
 * and every wait is raced against it, so the caps hold even for a `fetch` that ignores
 * signals.
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #timeoutMs: number;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  #kind: AbortKind | null = null;
  /** The rejections of the {@link race}s not settled yet. */
  readonly #racing = new Set<(reason: unknown) => void>();

  /** The caller's signal must not have fired yet. */
  constructor(timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.signal = this.#controller.signal;
    this.#timeoutMs = timeoutMs;
    this.#callerSignal = callerSignal;
    callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    // Not unref'd on purpose: if a consumer abandons an opened body, the timer still fires
    // and releases the connection.
    this.#timer = setTimeout(() => {
      this.#abort('timeout', new DOMException('fetch timed out', 'TimeoutError'));
    }, timeoutMs);
  }

  /** `promise`, or a rejection as soon as the signal fires, whichever comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    // A loser must not become an unhandled rejection.
    promise.catch(() => {});
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    // Only #abort fires the signal, and it rejects every race still pending: a body read in
    // many chunks races each one, and an abort listener added and removed per chunk cost more
    // than the read.
    return new Promise<T>((resolve, reject) => {
      this.#racing.add(reject);
      promise.then(
        (value) => {
          this.#racing.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.#racing.delete(reject);
          reject(error);
        },
      );
    });
  }

  /**
   * What to throw for `error`, raised while fetching `where`: the caller's own abort reason
   * when their signal fired, `timeout` when the time ran out, `blocked-address` when the
   * address policy refused the target, `network` otherwise. A {@link WaymarkError} passes
   * through unchanged.
   */
  failure(error: unknown, where: string, phase: 'request' | 'body'): unknown {
    if (isWaymarkError(error)) return error;
    if (this.#kind === 'caller') return this.#callerSignal?.reason ?? error;
    if (this.#kind === 'timeout') {
      return new WaymarkError(
        'timeout',
        `fetch timed out after ${formatDuration(this.#timeoutMs)}: ${where}`,
        { cause: error },
      );
    }
    const blocked = causeOfType(error, BlockedAddressError);
    if (blocked !== null) {
      return new WaymarkError(
        'blocked-address',
        `refused by blockPrivateAddresses: ${blocked.message}: ${where}`,
        { cause: error },
      );
    }
    const during = phase === 'body' ? ' while reading the body' : '';
    return new WaymarkError('network', `network error${during}: ${where} (${detail(error)})`, {
      cause: error,
    });
  }

  /** Aborts whatever is still in flight (closing the connection), then {@link end}s. */
  stop(): void {
    this.#abort('stopped', new DOMException('fetch stopped', 'AbortError'));
    this.end();
  }

  /** Clears the timer and lets go of the caller's signal; nothing in flight is touched. */
  end(): void {
    clearTimeout(this.#timer);
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  readonly #onCallerAbort = (): void => {
    this.#abort('caller', this.#callerSignal?.reason);
  };

  #abort(kind: AbortKind, reason: unknown): void {
    if (this.#kind !== null) return;
    this.#kind = kind;
    clearTimeout(this.#timer);
    this.#controller.abort(reason);
    for (const reject of this.#racing) reject(this.signal.reason);
    this.#racing.clear();
  }
}

/**
 * The most specific message in an error chain: Node's fetch throws `TypeError: fetch failed`
 * with the useful part (`connect ECONNREFUSED 127.0.0.1:9`) as its cause.
 */
function detail(error: unknown): string {
  let message = String(error);
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return message;
}

/** The first error in a cause chain that is an instance of `type`, or null. */
function causeOfType<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return null;
}
