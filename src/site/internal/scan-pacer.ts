import { type Dirent, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { sep } from 'node:path';

/**
 * How a scan reads folders. Folders are read synchronously while such reads answer from the
 * kernel's cache: a thread-pool round trip per folder cost 0.4-0.9 s of CPU over the 9,857
 * folders of a 50,000-document root, more than the reads themselves. Once the reads of a
 * scan have taken longer in total than a cached read would (`folderMs` per folder and
 * `entryMs` per entry, plus `slackMs` for the odd pause of a busy machine), the disk is
 * being read: from then on that scan reads folders asynchronously (the caller runs several
 * at once), so the reads overlap. Synchronous work is cut into slices of `sliceMs`, after
 * each of which the event loop gets a turn.
 */
export interface ScanPace {
  readonly folderMs: number;
  readonly entryMs: number;
  readonly slackMs: number;
  readonly sliceMs: number;
}

/** A cached read takes ~20 µs for a folder of 8 entries, ~2 ms for 1,700, on a 2-core VM. */
export const DEFAULT_SCAN_PACE: ScanPace = {
  folderMs: 0.1,
  entryMs: 0.005,
  slackMs: 10,
  sliceMs: 20,
};

/** The folder reads and event-loop turns of one scan, as {@link ScanPace} says. */
export class ScanPacer {
  readonly #pace: ScanPace;
  /** Folders are read synchronously until the reads are slow. */
  #sync = true;
  /** The synchronous reads so far: milliseconds, and what a cached read would allow. */
  #syncMs = 0;
  #syncBudgetMs: number;
  /** `performance.now()` when the event loop last had a turn during this scan. */
  #turnedAt = performance.now();
  /** The turn the workers wait for, once one asked for it. */
  #turn: Promise<void> | null = null;

  constructor(pace: ScanPace) {
    this.#pace = pace;
    this.#syncBudgetMs = pace.slackMs;
  }

  /** One folder's listing (rejects as `readdir` does). */
  async readFolder(abs: string): Promise<Dirent[]> {
    if (!this.#sync) return readdir(abs, { withFileTypes: true });
    if (this.turnDue()) await this.turn();
    const started = performance.now();
    const entries = readdirSync(abs, { withFileTypes: true });
    this.#syncMs += performance.now() - started;
    this.#syncBudgetMs += this.#pace.folderMs + entries.length * this.#pace.entryMs;
    if (this.#syncMs > this.#syncBudgetMs) this.#sync = false;
    return entries;
  }

  /** The current slice of synchronous work is over. */
  turnDue(): boolean {
    return performance.now() - this.#turnedAt >= this.#pace.sliceMs;
  }

  /**
   * Gives the event loop a turn (timers, I/O, watcher events). The workers that want one
   * share it, and the next slice starts when it is over: each worker resuming with a slice of
   * its own would hold the loop for one slice per worker (32 x 20 ms between two turns, as
   * measured), since Node runs the promise jobs an immediate resolves before the next
   * immediate.
   */
  turn(): Promise<void> {
    this.#turn ??= new Promise<void>((resolve) => {
      setImmediate(() => {
        this.#turn = null;
        this.#turnedAt = performance.now();
        resolve();
      });
    });
    return this.#turn;
  }
}

/**
 * A path of the tree (a scanned or watched relative path: no `.` or `..` segment, which the
 * tree never reads) under `root`, by concatenation: what `path.join` gives for such paths
 * to the system calls, without normalising each of ~60,000 paths character by character.
 */
export function absolutePath(root: string, path: string): string {
  if (path === '') return root;
  return root.endsWith(sep) ? root + path : root + sep + path;
}
