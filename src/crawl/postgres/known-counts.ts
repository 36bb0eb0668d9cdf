// What the URLs this worker knows the crawl holds (see known-urls.ts) still owe the crawl
// report when they are found again: their counts (in-links, sitemap entries). Such a URL is
// not sent in full, only as a count, so the report counts every link found while the
// database is spared the row it would otherwise probe for nothing.

/** The finished item whose links were found: its count holds only if its result does. */
export interface CountParent {
  readonly id: number;
  readonly attempt: number;
}

interface CountRow {
  readonly key: number;
  readonly parent: number | null;
  inlinks: number;
  sitemaps: number;
}

/**
 * The counts of one call, summed per URL and per result that found it (a result may be
 * lost, and then its links count nothing: the statement sums only those of recorded
 * results). Sent as `countKnown`'s parameters: each URL once, in sorted order (the order its
 * rows are updated in), and the rows as small indexes into the URLs and the results.
 */
export class KnownCounts {
  /** Each key's index in insertion order. */
  readonly #keys = new Map<string, number>();
  /** Each result's index, by its item id. */
  readonly #parents = new Map<number, number>();
  readonly #parentIds: number[] = [];
  readonly #parentAttempts: number[] = [];
  /** By `key index:parent index`. */
  readonly #rows = new Map<string, CountRow>();

  /** Counts `inlinks` and `sitemaps` for `key`, found by `parent` (null: added directly). */
  count(key: string, parent: CountParent | null, inlinks: number, sitemaps: number): void {
    if (inlinks === 0 && sitemaps === 0) return;
    let k = this.#keys.get(key);
    if (k === undefined) {
      k = this.#keys.size;
      this.#keys.set(key, k);
    }
    let p: number | null = null;
    if (parent !== null) {
      p = this.#parents.get(parent.id) ?? null;
      if (p === null) {
        p = this.#parentIds.length;
        this.#parents.set(parent.id, p);
        this.#parentIds.push(parent.id);
        this.#parentAttempts.push(parent.attempt);
      }
    }
    const id = `${k}:${p}`;
    const row = this.#rows.get(id);
    if (row === undefined) {
      this.#rows.set(id, { key: k, parent: p, inlinks, sitemaps });
      return;
    }
    row.inlinks += inlinks;
    row.sitemaps += sitemaps;
  }

  /** Rows to send (a URL and a result that found it). */
  get size(): number {
    return this.#rows.size;
  }

  /**
   * `countKnown`'s parameters from $3: the keys, sorted (so that two workers counting the
   * same hot URLs, such as `/`, update their rows in one order); the results' ids and
   * attempts; then per row its key's and its result's 1-based indexes (null: none) and its
   * counts.
   */
  parameters(): unknown[] {
    const keys = [...this.#keys.keys()].sort();
    const position = new Map(keys.map((key, i) => [key, i + 1]));
    const byIndex = [...this.#keys.keys()].map((key) => position.get(key) as number);
    const k: number[] = [];
    const parent: (number | null)[] = [];
    const inlinks: number[] = [];
    const sitemaps: number[] = [];
    for (const row of this.#rows.values()) {
      k.push(byIndex[row.key] as number);
      parent.push(row.parent === null ? null : row.parent + 1);
      inlinks.push(row.inlinks);
      sitemaps.push(row.sitemaps);
    }
    return [keys, this.#parentIds, this.#parentAttempts, k, parent, inlinks, sitemaps];
  }
}
