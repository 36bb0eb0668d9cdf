/**
 * `Last-Modified` for one state of the site, sound at one-second resolution without ever
 * running ahead of the clock.
 *
 * A state built during second S says S while S lasts, and S + 1 from then on. Only a date
 * of S + 1 or later proves a client holds this state: S itself may also have been sent for
 * the state before (several changes can fall in one second), so it never validates. An
 * older state, once superseded, never says more than its successor's S, so none of its
 * dates can validate the successor. The cost: a client that fetched during the second of
 * a change revalidates once more in full.
 *
 * @example
 * ```ts
 * const first = new LastModified(Date.parse('2026-01-01T00:00:00.400Z'));
 * first.value(Date.parse('2026-01-01T00:00:00.900Z')); // 00:00:00 (ambiguous, never validates)
 * first.value(Date.parse('2026-01-01T00:00:05Z')); // 00:00:01
 * first.validates(Date.parse('2026-01-01T00:00:01Z')); // true
 * ```
 */
export class LastModified {
  /** The second the state was built in, as epoch ms. */
  readonly #built: number;
  /** Set when superseded: the successor's build second. */
  #cap = Number.POSITIVE_INFINITY;

  constructor(now: number, previous: LastModified | null = null) {
    this.#built = Math.floor(now / 1000) * 1000;
    if (previous !== null) previous.#cap = Math.min(previous.#cap, this.#built);
  }

  /** Epoch ms (a whole second) to send at `now`: never later than `now`. */
  value(now: number): number {
    const second = Math.floor(now / 1000) * 1000;
    return Math.min(second, this.#built + 1000, this.#cap);
  }

  /** True when `If-Modified-Since: since` (epoch ms) proves the client has this state. */
  validates(since: number): boolean {
    return since >= this.#built + 1000;
  }
}
