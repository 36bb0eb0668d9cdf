/**
 * The items of `batches` one at a time, as an async generator over them would hand them out
 * (`for await (const batch of batches) yield* batch`), but without a generator step per item:
 * an item already read is handed out as an already-settled promise, so each costs one
 * promise instead of the three or four turns of a generator's `yield`. Stopping early
 * (`return`, also from `break` in `for await`) or `throw` ends `batches` too, as the
 * generator would; calls made while a batch is still coming wait their turn.
 *
 * @example
 * ```ts
 * for await (const entry of flattenBatches(parseSitemapBatches(input))) console.log(entry.loc);
 * ```
 */
export function flattenBatches<T>(batches: AsyncIterator<T[]>): AsyncIterableIterator<T> {
  let batch: readonly T[] = [];
  let at = 0;
  let finished = false;
  /** The last call still unsettled: later calls queue behind it, so batches never race. */
  let tail: Promise<IteratorResult<T>> | null = null;

  const done = (): IteratorResult<T> => ({ done: true, value: undefined });

  async function refill(): Promise<IteratorResult<T>> {
    for (;;) {
      if (finished) return done();
      const next = await batches.next();
      if (next.done === true) {
        finished = true;
        return done();
      }
      batch = next.value;
      at = 0;
      if (at < batch.length) return { done: false, value: batch[at++] as T };
    }
  }

  const take = (): IteratorResult<T> | Promise<IteratorResult<T>> =>
    at < batch.length ? { done: false, value: batch[at++] as T } : refill();

  const end = async (): Promise<void> => {
    await tail?.catch(() => undefined);
    if (finished) return;
    finished = true;
    batch = [];
    at = 0;
    await batches.return?.();
  };

  return {
    next() {
      if (tail === null && at < batch.length) {
        return Promise.resolve({ done: false, value: batch[at++] as T });
      }
      const call = tail === null ? Promise.resolve(take()) : tail.then(take, take);
      tail = call;
      const clear = () => {
        if (tail === call) tail = null;
      };
      call.then(clear, clear);
      return call;
    },
    async return() {
      await end();
      return done();
    },
    async throw(error?: unknown) {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
