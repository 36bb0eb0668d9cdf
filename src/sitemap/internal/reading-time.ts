import type { Diagnostic } from '../../shared/diagnostic.ts';

/**
 * The time a reading has spent, against its budget. Time the consumer holds the reading
 * (between handing out entries and being asked for more) is not counted: only waiting for
 * input, inflating and parsing are. A wait for input is raced against what is left, so a
 * stalled input is cut off on time.
 */
export class ReadingTime {
  /** What `race` gives when the budget ran out first. */
  static readonly OVER: unique symbol = Symbol('over');
  readonly #budget: number;
  readonly #now: () => number;
  #spent = 0;
  #since: number;

  constructor(budget: number, now: () => number = () => performance.now()) {
    this.#budget = budget;
    this.#now = now;
    this.#since = now();
  }

  /** The consumer has the reading: stop counting. */
  pause(): void {
    this.#spent += this.#now() - this.#since;
  }

  /** The consumer asked for more: count again. */
  resume(): void {
    this.#since = this.#now();
  }

  /** Milliseconds left (may be negative). */
  left(): number {
    return this.#budget - this.#spent - (this.#now() - this.#since);
  }

  over(): boolean {
    return this.left() < 0;
  }

  /** `promise`, unless the budget runs out first. */
  async race<T>(promise: Promise<T>): Promise<T | typeof ReadingTime.OVER> {
    const left = this.left();
    if (left < 0) {
      promise.catch(() => {});
      return ReadingTime.OVER;
    }
    if (!Number.isFinite(left)) return promise;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<typeof ReadingTime.OVER>((resolve) => {
      timer = setTimeout(() => resolve(ReadingTime.OVER), Math.ceil(left) + 1);
    });
    try {
      const result = await Promise.race([promise, expired]);
      if (result === ReadingTime.OVER) promise.catch(() => {});
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The diagnostic for a reading cut off by its budget. */
  problem(): Diagnostic {
    return {
      code: 'time-limit',
      severity: 'error',
      message: `reading took more than ${this.#budget} ms (timeoutMs); it stopped there, and the entries before were kept`,
      line: 1,
      column: 1,
    };
  }
}
