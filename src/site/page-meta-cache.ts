import { realpathSync, type Stats, statSync } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { WaymarkError } from '../shared/waymark-error.ts';
import { eventLoopBarrier } from './internal/event-loop-barrier.ts';
import { FolderWatchers } from './internal/folder-watchers.ts';
import {
  fileStamp,
  loadSidecar,
  type PageMeta,
  type PageRecord,
  pageMeta,
  SIDECAR_SUFFIX,
} from './internal/page-record.ts';

export type { PageMeta };

/** What a directory read found: documents and folders, by path. */
interface Seen {
  readonly files: Set<string>;
  readonly dirs: Set<string>;
}

/**
 * How the cache learns about changes. `watch` (default): one `fs.watch` per directory
 * marks paths dirty, and each read re-checks only those. `stat`: each read walks and
 * stats the whole root, for file systems where watching is unreliable (network mounts,
 * some containers); correct everywhere, slower with the size of the root.
 */
export type RevalidateMode = 'watch' | 'stat';

/** The root-level file that configures a site; never a document. */
export const SITE_CONFIG_FILE = 'waymark.site.yaml';

export interface PageMetaCacheOptions {
  /** The content root. */
  readonly root: string;
  readonly revalidate?: RevalidateMode;
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
 * it is read, so nothing created in it is missed.
 *
 * @example
 * ```ts
 * const cache = new PageMetaCache({ root: 'content' });
 * const { pages } = await cache.snapshot();
 * await cache.close();
 * ```
 */
export class PageMetaCache {
  readonly #root: string;
  #mode: RevalidateMode;
  readonly #records = new Map<string, PageRecord>();
  readonly #symlinks = new Set<string>();
  readonly #watchers: FolderWatchers;
  #dirty = new Set<string>();
  #events = 0;
  #done = 0;
  #running: Promise<void> | null = null;
  #changed = false;
  #generation = 0;
  #configStamp: string | null = null;
  #snapshot: PageMetaSnapshot | null = null;
  #closed = false;
  readonly #ready: Promise<void>;

  constructor(options: PageMetaCacheOptions) {
    let st: Stats;
    try {
      this.#root = realpathSync(options.root);
      st = statSync(this.#root);
    } catch (error) {
      throw new WaymarkError(
        'io-failed',
        `cannot read the content root ${options.root}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (!st.isDirectory()) {
      throw new WaymarkError(
        'invalid-argument',
        `the content root ${options.root} is not a directory`,
      );
    }
    this.#mode = options.revalidate ?? 'watch';
    this.#watchers = new FolderWatchers(
      (dir) => this.#abs(dir),
      (path) => this.#mark(path),
    );
    const events = this.#events;
    this.#ready = this.#reconcile('').then(() => {
      this.#done = events;
      this.#changed = false;
    });
    // A failed first scan is reported to whoever awaits a snapshot, not as an unhandled rejection.
    this.#ready.catch(() => {});
  }

  /** How changes are found now: `stat` when asked for, or after watching failed. */
  get mode(): RevalidateMode {
    return this.#mode;
  }

  /** The documents as they are on disk now (see the class comment for the guarantee). */
  async snapshot(): Promise<PageMetaSnapshot> {
    await this.#ready;
    if (this.#closed) throw new WaymarkError('usage', 'the page cache is closed');
    if (this.#mode === 'watch') {
      await eventLoopBarrier();
      // A watcher sees writes to the link's target under the target's own path: recheck links.
      for (const link of this.#symlinks) this.#mark(link);
    } else {
      this.#mark('');
    }
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
        pages: [...this.#records.values()].map((record) => record.meta),
        configStamp: this.#configStamp,
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

  #mark(path: string): void {
    this.#dirty.add(path);
    this.#events++;
  }

  async #revalidate(): Promise<void> {
    const upTo = this.#events;
    const dirty = [...this.#dirty].sort();
    this.#dirty = new Set();
    if (this.#mode === 'stat') {
      await this.#reconcile('');
    } else {
      // Parents first, so a new directory is watched and read before paths inside it.
      for (const path of dirty) await this.#refresh(path, null);
    }
    if (this.#changed) {
      this.#changed = false;
      this.#generation++;
      this.#snapshot = null;
    }
    this.#done = upTo;
  }

  /**
   * Reads a directory afresh: documents and watchers under it that are no longer there are
   * dropped, and its folders are watched anew (a folder removed and created again may get
   * the same inode, whose old watch died with it).
   */
  async #reconcile(dir: string): Promise<void> {
    const seen: Seen = { files: new Set(), dirs: new Set() };
    if (dir === '') {
      await this.#scanDirectory('', seen);
    } else {
      await this.#refresh(dir, seen);
    }
    const prefix = dir === '' ? '' : `${dir}/`;
    for (const path of [...this.#records.keys()]) {
      if (path.startsWith(prefix) && !seen.files.has(path)) this.#forgetFile(path);
    }
    this.#watchers.closeUnder(dir, seen.dirs);
  }

  async #scanDirectory(dir: string, seen: Seen): Promise<void> {
    const abs = this.#abs(dir);
    seen.dirs.add(dir);
    // Out of watches (ENOSPC) or unsupported: fall back to checking everything per read.
    if (this.#mode === 'watch' && !this.#closed && !this.#watchers.watch(dir)) this.#mode = 'stat';
    let names: string[];
    try {
      names = await readdir(abs);
    } catch {
      return;
    }
    // The listing says which sidecars exist: no failing lstat per document without one.
    const listed = new Set(names);
    await Promise.all(
      names
        .filter((name) => !name.startsWith('.'))
        .map((name) =>
          this.#refresh(
            dir === '' ? name : `${dir}/${name}`,
            seen,
            listed.has(name + SIDECAR_SUFFIX),
          ),
        ),
    );
  }

  /** Brings one path up to date; `seen` collects what a directory being read holds. */
  async #refresh(path: string, seen: Seen | null, sidecarListed = true): Promise<void> {
    if (path === '') {
      await this.#reconcile('');
      return;
    }
    if (path.split('/').some((segment) => segment.startsWith('.'))) return;
    const abs = this.#abs(path);
    let st: Stats | null = await lstat(abs).catch(() => null);
    let symlink = false;
    if (st?.isSymbolicLink()) {
      symlink = true;
      st = await this.#followLink(abs);
      if (st?.isDirectory()) st = null;
    }
    if (st === null) {
      await this.#forget(path);
      return;
    }
    if (st.isDirectory()) {
      // An event names a folder when it is created, removed, renamed or replaced: read it again.
      if (seen === null) await this.#reconcile(path);
      else await this.#scanDirectory(path, seen);
      return;
    }
    if (!st.isFile()) {
      await this.#forget(path);
      return;
    }
    if (path === SITE_CONFIG_FILE) {
      const stamp = fileStamp(st);
      if (stamp !== this.#configStamp) {
        this.#configStamp = stamp;
        this.#changed = true;
      }
      return;
    }
    if (path.endsWith(SIDECAR_SUFFIX)) {
      await this.#refreshSidecarOf(path.slice(0, -SIDECAR_SUFFIX.length));
      return;
    }
    seen?.files.add(path);
    await this.#update(path, st, symlink, sidecarListed);
  }

  async #update(path: string, st: Stats, symlink: boolean, sidecarListed = true): Promise<void> {
    const previous = this.#records.get(path);
    const sidecar = sidecarListed
      ? await loadSidecar(this.#abs(path), previous?.sidecar ?? null)
      : null;
    const stamp = fileStamp(st);
    if (previous?.stamp === stamp && previous.sidecar === sidecar && previous.symlink === symlink) {
      return;
    }
    this.#records.set(path, { stamp, symlink, sidecar, meta: pageMeta(path, st, sidecar) });
    if (symlink) this.#symlinks.add(path);
    else this.#symlinks.delete(path);
    this.#changed = true;
  }

  async #refreshSidecarOf(docPath: string): Promise<void> {
    const record = this.#records.get(docPath);
    if (record === undefined) return;
    const abs = this.#abs(docPath);
    const st = record.symlink ? await this.#followLink(abs) : await lstat(abs).catch(() => null);
    if (st === null || !st.isFile()) this.#forgetFile(docPath);
    else await this.#update(docPath, st, record.symlink);
  }

  /** A link counts only when it resolves to a file inside the root. */
  async #followLink(abs: string): Promise<Stats | null> {
    const target = await realpath(abs).catch(() => null);
    if (target === null || !target.startsWith(this.#root + sep)) return null;
    const st = await stat(target).catch(() => null);
    return st?.isFile() ? st : null;
  }

  async #forget(path: string): Promise<void> {
    if (path === SITE_CONFIG_FILE && this.#configStamp !== null) {
      this.#configStamp = null;
      this.#changed = true;
    }
    if (this.#records.has(path)) this.#forgetFile(path);
    if (path.endsWith(SIDECAR_SUFFIX)) {
      const docPath = path.slice(0, -SIDECAR_SUFFIX.length);
      await this.#refreshSidecarOf(docPath);
    }
    if (this.#watchers.has(path)) this.#forgetUnder(path);
  }

  #forgetFile(path: string): void {
    this.#records.delete(path);
    this.#symlinks.delete(path);
    this.#changed = true;
  }

  /** A directory went away (or was replaced): its watchers and documents go too. */
  #forgetUnder(dir: string): void {
    const prefix = `${dir}/`;
    this.#watchers.closeUnder(dir);
    for (const path of [...this.#records.keys()]) {
      if (path.startsWith(prefix)) this.#forgetFile(path);
    }
  }

  #abs(path: string): string {
    return path === '' ? this.#root : join(this.#root, path);
  }
}
