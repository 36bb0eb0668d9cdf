import { readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { WaymarkError } from '../shared/waymark-error.ts';
import { ContentTree, SITE_CONFIG_FILE } from './internal/content-tree.ts';
import { eventLoopBarrier } from './internal/event-loop-barrier.ts';
import { FolderWatchers, type WatchFolder } from './internal/folder-watchers.ts';
import type { PageMeta } from './internal/page-record.ts';
import { absolutePath } from './internal/scan-pacer.ts';

export type { FolderWatch, WatchFolder } from './internal/folder-watchers.ts';
export type { PageMeta };
export { SITE_CONFIG_FILE };

/**
 * How the cache learns about changes. `watch`: one `fs.watch` per directory marks paths
 * dirty, and each read re-checks only those; the default on Linux, where inotify reports
 * a change as it happens. `stat`: each read walks and stats the whole root; the default
 * elsewhere (macOS delivers folder events with a delay, BSD kqueue does not report edits
 * inside a folder) and the choice for network mounts and volumes shared into containers;
 * correct everywhere, slower with the size of the root.
 */
export type RevalidateMode = 'watch' | 'stat';

/**
 * The mode used when none is asked for: `watch` only where it keeps the guarantee.
 *
 * @example
 * ```ts
 * defaultRevalidateMode('linux'); // 'watch'
 * defaultRevalidateMode('darwin'); // 'stat'
 * ```
 */
export function defaultRevalidateMode(platform: string = process.platform): RevalidateMode {
  return platform === 'linux' ? 'watch' : 'stat';
}

export interface PageMetaCacheOptions {
  /** The content root. */
  readonly root: string;
  /** Default: {@link defaultRevalidateMode}. */
  readonly revalidate?: RevalidateMode;
  /** Starts one folder's watch (default `fs.watch`); for tests that make watching fail. */
  readonly watch?: WatchFolder;
}

/** One consistent view of the content root. */
export interface PageMetaSnapshot {
  /** Grows by one whenever any document, sidecar or the site config changed. */
  readonly generation: number;
  /** Every document, in no particular order. */
  readonly pages: readonly PageMeta[];
  /** `waymark.site.yaml` at the root: a stamp that changes when it does, or null. */
  readonly configStamp: string | null;
  /** How changes are found now (`stat` after watching failed). */
  readonly mode: RevalidateMode;
}

/**
 * One in-memory index of document metadata, shared by every response: id, alias, access,
 * Markdown or not, noindex, and `lastModified`, the later of the document's and its
 * sidecar's modification times. It holds no response bodies.
 *
 * {@link PageMetaCache.snapshot} reflects the disk as it was when it was called: a
 * change already on disk shows in that snapshot. In `watch` mode it first lets the event
 * loop deliver pending watcher events (two `setImmediate` turns, so one poll phase runs
 * after the call), then re-stats only the dirty paths; a new directory is watched before
 * it is read, so nothing created in it is missed. When one poll phase delivers so many
 * events that the kernel's queue may have overflowed (inotify then drops events without
 * a word), the next read re-reads the whole root instead.
 *
 * @example
 * ```ts
 * const cache = new PageMetaCache({ root: 'content' });
 * const { pages } = await cache.snapshot();
 * await cache.close();
 * ```
 */
export class PageMetaCache {
  #mode: RevalidateMode;
  #tree!: ContentTree;
  #watchers!: FolderWatchers;
  /** The content root as given: a deploy may put another folder, or link, at that path. */
  readonly #rootPath: string;
  /** The folder `#rootPath` named when the tree was opened: its device and inode. */
  #rootId: string;
  readonly #watchOne: WatchFolder | undefined;
  /** Events in one poll phase from which an overflowed kernel queue is suspected. */
  readonly #burstLimit = inotifyQueueLength() / 2;
  #burst = 0;
  #burstReset = false;
  #rescan = false;
  #dirty = new Set<string>();
  #events = 0;
  #done = 0;
  #running: Promise<void> | null = null;
  #generation = 0;
  #snapshot: PageMetaSnapshot | null = null;
  #closed = false;
  readonly #ready: Promise<void>;

  constructor(options: PageMetaCacheOptions) {
    this.#rootPath = options.root;
    const { root, st } = openRoot(options.root);
    this.#rootId = folderId(st);
    this.#mode = options.revalidate ?? defaultRevalidateMode();
    this.#watchOne = options.watch;
    this.#open(root);
    const events = this.#events;
    this.#ready = this.#tree.reconcile('').then(() => {
      this.#done = events;
      this.#tree.changed = false;
      for (const path of this.#tree.failed) this.#mark(path);
      this.#tree.failed.clear();
    });
    // A failed first scan is reported to whoever awaits a snapshot, not as an unhandled rejection.
    this.#ready.catch(() => {});
  }

  /** The content root, with links resolved: every document's real path is inside it. */
  get root(): string {
    return this.#tree.root;
  }

  /** How changes are found now: `stat` when asked for, or after watching failed. */
  get mode(): RevalidateMode {
    return this.#mode;
  }

  /** The documents as they are on disk now (see the class comment for the guarantee). */
  async snapshot(): Promise<PageMetaSnapshot> {
    await this.#ready;
    if (this.#closed) throw new WaymarkError('usage', 'the page cache is closed');
    if (this.#mode === 'watch') await eventLoopBarrier();
    // After the barrier: a deploy made before the read was asked for is seen by it.
    this.#followRoot();
    // After the barrier too: watching may have failed while it ran.
    if (this.#mode === 'watch') {
      // A watcher sees writes to the link's target under the target's own path: recheck links.
      for (const link of this.#tree.symlinks) this.#mark(link);
    } else this.#mark('');
    const target = this.#events;
    while (this.#done < target) {
      this.#running ??= this.#revalidate().finally(() => {
        this.#running = null;
      });
      await this.#running;
    }
    if (this.#snapshot === null) {
      this.#snapshot = {
        generation: this.#generation,
        pages: [...this.#tree.records.values()].map((record) => record.meta),
        configStamp: this.#tree.configStamp,
        mode: this.#mode,
      };
    }
    return this.#snapshot;
  }

  /** Stops watching. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watchers.closeAll();
    await this.#running?.catch(() => {});
  }

  /** Watches and reads the folder `root` (a real path) from now on. */
  #open(root: string): void {
    this.#watchers = new FolderWatchers(
      (dir) => absolutePath(root, dir),
      (path) => this.#mark(path),
      this.#watchOne,
    );
    const watchers = this.#watchers;
    this.#tree = new ContentTree(
      root,
      watchers,
      () => this.#mode === 'watch' && !this.#closed,
      // Out of watches (ENOSPC) or unsupported: check everything per read from now on
      // (unless this tree is an old root's, whose watches no longer matter).
      () => {
        if (this.#watchers === watchers) this.#mode = 'stat';
      },
    );
  }

  /**
   * A deploy that renames a new tree into the root's place (\`mv site.new site\`, hard-linked
   * copies included), or switches the link the root is given by (\`current -> releases/v2\`),
   * changes the folder the root names; the watches follow the old folder (inotify watches
   * inodes) and the index holds its documents and their access. So every read looks at what
   * the root names now (one stat), and reads a new folder whole. A root that is gone fails
   * the read: nothing is answered from the index of a folder that is no longer the root.
   */
  #followRoot(): void {
    const st = statRoot(this.#rootPath);
    const id = folderId(st);
    if (id === this.#rootId) return;
    const opened = openRoot(this.#rootPath);
    this.#rootId = folderId(opened.st);
    // Disposed, not only closed: a reading of the old tree still under way adds no watch.
    this.#watchers.dispose();
    this.#open(opened.root);
    this.#tree.changed = true;
    this.#rescan = true;
    this.#mark('');
  }

  #mark(path: string): void {
    this.#dirty.add(path);
    this.#events++;
    // Counted per poll phase, and flagged at once: a read that starts after this event
    // must not trust the events alone.
    if (++this.#burst >= this.#burstLimit) this.#rescan = true;
    if (!this.#burstReset) {
      this.#burstReset = true;
      setImmediate(() => {
        this.#burst = 0;
        this.#burstReset = false;
      });
    }
  }

  async #revalidate(): Promise<void> {
    const upTo = this.#events;
    const dirty = [...this.#dirty].sort();
    this.#dirty = new Set();
    const rescan = this.#rescan || this.#mode === 'stat' || dirty.includes('');
    this.#rescan = false;
    // The tree this pass reads: the root may be replaced while it runs (see #followRoot).
    const tree = this.#tree;
    if (rescan) {
      await tree.reconcile('');
    } else {
      // Parents first, so a new directory is watched and read before paths inside it.
      for (const path of dirty) {
        if (tree !== this.#tree) break;
        await tree.refresh(path);
      }
    }
    // Replaced meanwhile: this pass read a folder that is no longer the root, and says
    // nothing; the waiting reads go on until the new root has been read whole.
    if (tree !== this.#tree) return;
    if (tree.changed) {
      tree.changed = false;
      this.#generation++;
      this.#snapshot = null;
    }
    this.#done = upTo;
    // Left out for now; the next read tries them again (after `upTo`: not in this read).
    for (const path of tree.failed) this.#mark(path);
    tree.failed.clear();
  }
}

/** The real path of the content root given as \`path\`, which must be a folder, and its stat. */
function openRoot(path: string): { root: string; st: Stats } {
  let root: string;
  try {
    root = realpathSync(path);
  } catch (error) {
    throw unreadableRoot(path, error);
  }
  const st = statRoot(root, path);
  if (!st.isDirectory()) {
    throw new WaymarkError('invalid-argument', `the content root ${path} is not a directory`);
  }
  return { root, st };
}

function statRoot(path: string, given = path): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw unreadableRoot(given, error);
  }
}

function unreadableRoot(path: string, error: unknown): WaymarkError {
  return new WaymarkError(
    'io-failed',
    `cannot read the content root ${path}: ${(error as Error).message}`,
    { cause: error },
  );
}

/** A folder's identity: the same path may name another folder after a rename. */
function folderId(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

/**
 * inotify's queue length (`max_queued_events`, 16,384 by default): past it, events are
 * dropped with only an overflow marker that Node does not pass on.
 */
function inotifyQueueLength(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isInteger(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}
