import { WaymarkError } from '../../shared/waymark-error.ts';
import type { Deadline } from './deadline.ts';
import { formatBytes } from './format-limit.ts';

/**
 * A response body read under a size cap and a {@link Deadline}. Iterable once. Bytes are
 * counted as `fetch` hands them over, that is after it has undone any `Content-Encoding`, so a
 * small gzip body that inflates past the cap stops at the cap.
 *
 * Iteration ends the deadline when the body is done; an error, a `break` or {@link cancel}
 * also aborts the request, which closes the connection.
 */
export class LimitedBody implements AsyncIterableIterator<Uint8Array, undefined> {
  readonly #response: Response;
  readonly #deadline: Deadline;
  readonly #maxBytes: number;
  readonly #where: string;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #total = 0;
  #finished = false;

  constructor(response: Response, deadline: Deadline, maxBytes: number, where: string) {
    this.#response = response;
    this.#deadline = deadline;
    this.#maxBytes = maxBytes;
    this.#where = where;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished) return { done: true, value: undefined };
    try {
      const reader = this.#reader ?? this.#open();
      if (reader === null) {
        this.#finish(false);
        return { done: true, value: undefined };
      }
      const result = await this.#deadline.race(reader.read());
      if (result.done) {
        this.#finish(false);
        return { done: true, value: undefined };
      }
      this.#total += result.value.byteLength;
      if (this.#total > this.#maxBytes) throw this.#tooLarge();
      return { done: false, value: result.value };
    } catch (error) {
      const failure = this.#deadline.failure(error, this.#where, 'body');
      this.#finish(true);
      throw failure;
    }
  }

  async return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.#finish(true);
    return { done: true, value: undefined };
  }

  /** Stops reading, releases the connection and the timer. Safe to call at any time. */
  async cancel(): Promise<void> {
    this.#finish(true);
  }

  /** The reader, or null for a response without a body; throws when the declared size is over. */
  #open(): ReadableStreamDefaultReader<Uint8Array> | null {
    const declared = declaredLength(this.#response.headers);
    if (declared !== null && declared > this.#maxBytes) throw this.#tooLarge();
    const body = this.#response.body;
    this.#reader = body === null ? null : body.getReader();
    return this.#reader;
  }

  #tooLarge(): WaymarkError {
    return new WaymarkError(
      'too-large',
      `response larger than ${formatBytes(this.#maxBytes)}: ${this.#where}`,
    );
  }

  #finish(early: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    if (!early) {
      this.#deadline.end();
      return;
    }
    const pending = this.#reader === null ? this.#response.body?.cancel() : this.#reader.cancel();
    pending?.catch(() => {});
    this.#deadline.stop();
  }
}

/**
 * `Content-Length` when it states the size of what `fetch` will hand over, that is when no
 * `Content-Encoding` is to be undone; otherwise null.
 */
function declaredLength(headers: Headers): number | null {
  const encoding = headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return null;
  const length = headers.get('content-length');
  if (length === null || !/^\s*\d+\s*$/.test(length)) return null;
  return Number(length);
}
