import { type FSWatcher, watch } from 'node:fs';

/** One folder's watch, as `fs.watch` returns it. */
export interface FolderWatch {
  close(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Starts watching one folder; `onEvent` gets the name of the entry an event is about, or
 * null. Throws when watching is impossible (ENOSPC: out of inotify watches).
 */
export type WatchFolder = (path: string, onEvent: (name: string | null) => void) => FolderWatch;

/** `fs.watch`, non-recursive and not keeping the process alive. */
export const watchFolder: WatchFolder = (path, onEvent) =>
  watch(path, { persistent: false }, (_event, name) => onEvent(name));

/**
 * One non-recursive `fs.watch` per folder of the content root, by relative path. Each
 * event reports the path it names (`dir/name`, or `dir` when the name is unknown).
 * Non-recursive on purpose: a folder is watched before it is read, so a file created in a
 * new folder is either seen by the read or reported by the watch, never missed.
 */
export class FolderWatchers {
  readonly #watchers = new Map<string, FolderWatch>();
  readonly #abs: (dir: string) => string;
  readonly #onChange: (path: string) => void;
  readonly #watch: WatchFolder;
  /**
   * With the default `fs.watch`: each watcher's folder, for two listeners shared by every
   * watcher (called with the watcher as `this`), instead of three closures and two contexts
   * per folder (about 2 MB for the 10,000 folders of a 50,000-document root).
   */
  readonly #dirOf = new Map<FSWatcher, string>();
  readonly #onNodeChange: (this: FSWatcher, event: string, name: string | null) => void;
  readonly #onNodeError: (this: FSWatcher) => void;
  #disposed = false;

  constructor(
    abs: (dir: string) => string,
    onChange: (path: string) => void,
    watchOne: WatchFolder = watchFolder,
  ) {
    this.#abs = abs;
    this.#onChange = onChange;
    this.#watch = watchOne;
    const dirOf = this.#dirOf;
    const watchers = this.#watchers;
    this.#onNodeChange = function (this: FSWatcher, _event, name) {
      const dir = dirOf.get(this);
      if (dir !== undefined) onChange(name ? (dir === '' ? name : `${dir}/${name}`) : dir);
    };
    this.#onNodeError = function (this: FSWatcher) {
      const dir = dirOf.get(this);
      this.close();
      if (dir === undefined) return;
      dirOf.delete(this);
      if (watchers.get(dir) === this) watchers.delete(dir);
      onChange(dir);
    };
  }

  /**
   * Closes every watch for good: a reading of an old root still under way asks to watch
   * more folders, and gets a yes that watches nothing.
   */
  dispose(): void {
    this.#disposed = true;
    this.closeAll();
  }

  has(dir: string): boolean {
    return this.#watchers.has(dir);
  }

  /**
   * Watches a folder, replacing an older watch on the same path (the new one is created
   * first). False when watching is impossible (out of inotify watches, unsupported); every
   * watch is then closed, and the caller must stop relying on them.
   */
  watch(dir: string): boolean {
    if (this.#disposed) return true;
    const existing = this.#watchers.get(dir);
    if (this.#watch === watchFolder) return this.#watchWithNode(dir, existing);
    try {
      const watcher = this.#watch(this.#abs(dir), (name) => {
        this.#onChange(name ? (dir === '' ? name : `${dir}/${name}`) : dir);
      });
      watcher.on('error', () => {
        watcher.close();
        if (this.#watchers.get(dir) === watcher) this.#watchers.delete(dir);
        this.#onChange(dir);
      });
      this.#watchers.set(dir, watcher);
    } catch {
      this.closeAll();
      return false;
    }
    existing?.close();
    return true;
  }

  /** {@link watch} with `fs.watch` itself: the same events, errors and failures. */
  #watchWithNode(dir: string, existing: FolderWatch | undefined): boolean {
    try {
      const watcher = watch(this.#abs(dir), { persistent: false });
      watcher.on('change', this.#onNodeChange);
      watcher.on('error', this.#onNodeError);
      this.#dirOf.set(watcher, dir);
      this.#watchers.set(dir, watcher);
    } catch {
      this.closeAll();
      return false;
    }
    this.#close(existing);
    return true;
  }

  #close(watcher: FolderWatch | undefined): void {
    if (watcher === undefined) return;
    watcher.close();
    this.#dirOf.delete(watcher as FSWatcher);
  }

  /** Closes the watches of `dir` and every folder under it, except those in `keep`. */
  closeUnder(dir: string, keep?: ReadonlySet<string>): void {
    const prefix = dir === '' ? '' : `${dir}/`;
    for (const [path, watcher] of [...this.#watchers]) {
      if ((path === dir || path.startsWith(prefix)) && keep?.has(path) !== true) {
        this.#close(watcher);
        this.#watchers.delete(path);
      }
    }
  }

  closeAll(): void {
    for (const watcher of this.#watchers.values()) this.#close(watcher);
    this.#watchers.clear();
  }
}
