// The URLs this worker knows the crawl already holds, with the marks they already carry, so a
// step need not send them in full again: only what they count for the crawl report (see
// known-counts.ts). Most links a page has, its neighbours have too (menus, footers,
// breadcrumbs): without this, every step would send them all, with their `via` and the rest,
// for the database to find, one index probe each, that they are known.

/** A URL's marks, as bits: linked (reached by a link), in a sitemap. */
export const LINKED = 1;
export const IN_SITEMAP = 2;

/** At most `capacity` keys (0: none); past that the oldest are forgotten (sent again if found). */
export class KnownUrls {
  readonly #marks = new Map<string, number>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * Whether the crawl holds `key` with every mark in `marks` already: adding it again would
   * change nothing but its counts (a URL, once added, keeps its row, and marks are only ever
   * set).
   */
  has(key: string, marks: number): boolean {
    const known = this.#marks.get(key);
    return known !== undefined && (known & marks) === marks;
  }

  /** Remembers that the crawl holds `key` with `marks` (a commit said so). */
  remember(key: string, marks: number): void {
    if (this.#capacity === 0) return;
    const known = this.#marks.get(key);
    if (known !== undefined) {
      this.#marks.set(key, known | marks);
      return;
    }
    if (this.#marks.size >= this.#capacity) {
      // The oldest first: a Map iterates in insertion order.
      const oldest = this.#marks.keys().next();
      if (oldest.done !== true) this.#marks.delete(oldest.value);
    }
    this.#marks.set(key, marks);
  }

  get size(): number {
    return this.#marks.size;
  }
}
