/** The first queued item of one origin, in take order. */
export interface OriginHead {
  readonly id: number;
  readonly origin: string;
  readonly priority: number;
  readonly depth: number;
}

/**
 * The heads of the ready origins' queues, kept in take order (priority, then depth, then
 * first added): a k-way merge of the per-origin queues, where taking a head brings in that
 * origin's next item.
 */
export class OriginHeads {
  readonly #heads: OriginHead[];

  constructor(heads: OriginHead[]) {
    this.#heads = heads.sort(compareHeads);
  }

  /** Removes and returns the best head, or undefined when none is left. */
  shift(): OriginHead | undefined {
    return this.#heads.shift();
  }

  /** Adds a head at its place. */
  insert(head: OriginHead): void {
    const heads = this.#heads;
    let low = 0;
    let high = heads.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareHeads(heads[middle] as OriginHead, head) < 0) low = middle + 1;
      else high = middle;
    }
    heads.splice(low, 0, head);
  }
}

function compareHeads(a: OriginHead, b: OriginHead): number {
  return a.priority - b.priority || a.depth - b.depth || a.id - b.id;
}
