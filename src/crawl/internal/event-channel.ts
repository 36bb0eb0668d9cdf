/**
 * Events from a producer to one async-iterating consumer, with backpressure: `push` resolves
 * once the queue is below its limit, so a slow consumer slows the crawl instead of growing
 * memory.
 */
export class EventChannel<T> implements AsyncIterableIterator<T> {
  readonly #queue: T[] = [];
  readonly #limit: number;
  #closed = false;
  #failure: unknown = null;
  #wakeConsumer: (() => void) | null = null;
  #wakeProducer: (() => void) | null = null;

  constructor(limit = 1024) {
    this.#limit = limit;
  }

  async push(value: T): Promise<void> {
    this.#queue.push(value);
    this.#wakeConsumer?.();
    while (this.#queue.length >= this.#limit && !this.#closed) {
      await new Promise<void>((resolve) => {
        this.#wakeProducer = resolve;
      });
    }
  }

  close(failure: unknown = null): void {
    this.#closed = true;
    this.#failure = failure;
    this.#wakeConsumer?.();
    this.#wakeProducer?.();
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.#queue.length > 0) {
        const value = this.#queue.shift() as T;
        if (this.#queue.length < this.#limit) this.#wakeProducer?.();
        return { value, done: false };
      }
      if (this.#closed) {
        if (this.#failure !== null) throw this.#failure;
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => {
        this.#wakeConsumer = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<T>> {
    // The consumer left: stop holding the producer back.
    this.#closed = true;
    this.#queue.length = 0;
    this.#wakeProducer?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
