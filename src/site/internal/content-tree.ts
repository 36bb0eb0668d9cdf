import { type Dirent, lstatSync, type Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { insideRoot, isDocumentPath, SITE_CONFIG_FILE } from './document-path.ts';
import type { FolderWatchers } from './folder-watchers.ts';
import {
  fileStamp,
  loadSidecar,
  loadSidecarSync,
  type PageRecord,
  pageRecord,
  SIDECAR_SUFFIX,
  type SidecarRecord,
  unchangedFile,
} from './page-record.ts';
import { absolutePath, DEFAULT_SCAN_PACE, type ScanPace, ScanPacer } from './scan-pacer.ts';
import { drainQueue } from './work-queue.ts';

export { SITE_CONFIG_FILE };

/** Folder reads and file checks in flight at once while a folder tree is read. */
const SCAN_WORKERS = 32;

/** One step of reading a folder tree: list a folder, or check one of its entries. */
type ScanTask =
  | { readonly dir: string }
  | { readonly path: string; readonly sidecarListed: boolean };

/** A folder tree being read: what it found (documents and folders, by path), what is left. */
interface Scan {
  /**
   * Null when the scan started with nothing known (nothing can have gone, nothing to
   * compare with): no set of every path, alive through the whole scan, on a first scan.
   */
  readonly files: Set<string> | null;
  readonly dirs: Set<string>;
  readonly queue: ScanTask[];
  readonly pacer: ScanPacer;
}

/**
 * What is on disk under a content root, by relative path: one record per document, the
 * stamp of `waymark.site.yaml`, and the folders being watched. It brings one path (or a
 * whole folder) up to date when told to; deciding when is the cache's job. `changed` is
 * set whenever a refresh changed anything, for the cache to publish a new generation.
 */
export class ContentTree {
  readonly root: string;
  readonly records = new Map<string, PageRecord>();
  /** Documents that are links: a write through the link is reported under the target. */
  readonly symlinks = new Set<string>();
  configStamp: string | null = null;
  changed = false;
  /** Paths whose reading failed unexpectedly: left out, for the owner to read again. */
  readonly failed = new Set<string>();
  readonly #watchers: FolderWatchers;
  /** Asked before each folder read: watch it first (false once watching failed). */
  readonly #shouldWatch: () => boolean;
  readonly #onWatchFailed: () => void;
  readonly #pace: ScanPace;

  constructor(
    root: string,
    watchers: FolderWatchers,
    shouldWatch: () => boolean,
    onWatchFailed: () => void,
    pace: ScanPace = DEFAULT_SCAN_PACE,
  ) {
    this.root = root;
    this.#pace = pace;
    this.#watchers = watchers;
    this.#shouldWatch = shouldWatch;
    this.#onWatchFailed = onWatchFailed;
  }

  /**
   * Reads a directory afresh: documents and watchers under it that are no longer there are
   * dropped, and its folders are watched anew (a folder removed and created again may get
   * the same inode, whose old watch died with it).
   */
  async reconcile(dir: string): Promise<void> {
    const known = this.records.size;
    const seen: Scan = {
      files: known === 0 ? null : new Set(),
      dirs: new Set(),
      queue: [dir === '' ? { dir } : { path: dir, sidecarListed: true }],
      pacer: new ScanPacer(this.#pace),
    };
    // A fixed number of workers over a queue, not a promise per entry of the whole tree.
    await drainQueue(seen.queue, SCAN_WORKERS, async (task) => {
      try {
        if ('dir' in task) await this.#scanDirectory(task.dir, seen);
        else await this.#refresh(task.path, seen, task.sidecarListed);
      } catch {
        // Contained to this entry: it is left out (not served, not listed), the rest of
        // the scan is applied, and the next read tries it again.
        if (!('dir' in task)) seen.files?.delete(task.path);
        this.failed.add('dir' in task ? task.dir : task.path);
      }
    });
    const prefix = dir === '' ? '' : `${dir}/`;
    // Nothing was known before: nothing can have gone.
    if (seen.files === null) {
      this.#watchers.closeUnder(dir, seen.dirs);
      return;
    }
    for (const path of [...this.records.keys()]) {
      if (path.startsWith(prefix) && !seen.files.has(path)) this.#forgetFile(path);
    }
    this.#watchers.closeUnder(dir, seen.dirs);
  }

  /**
   * Brings one path that a watcher named up to date (a folder is read again whole). Never
   * rejects: a path that fails is dropped (not served, not listed) and put in `failed`, so
   * one bad entry neither stops nor undoes the other changes of the same read.
   */
  async refresh(path: string): Promise<void> {
    try {
      await this.#refresh(path, null);
    } catch {
      this.#forgetUnder(path);
      if (this.records.has(path)) this.#forgetFile(path);
      // A sidecar that could not be read may say `access: deny`: its document goes too.
      const document = path.endsWith(SIDECAR_SUFFIX) ? path.slice(0, -SIDECAR_SUFFIX.length) : null;
      if (document !== null && this.records.has(document)) this.#forgetFile(document);
      this.failed.add(path);
    }
  }

  /** Lists one folder of a scan and queues its entries. */
  async #scanDirectory(dir: string, seen: Scan): Promise<void> {
    const abs = this.#abs(dir);
    seen.dirs.add(dir);
    // Watched before it is read: a file created meanwhile is seen by the read or the watch.
    if (this.#shouldWatch() && !this.#watchers.watch(dir)) this.#onWatchFailed();
    let entries: Dirent[];
    try {
      entries = await seen.pacer.readFolder(abs);
    } catch {
      return;
    }
    // The listing says which sidecars exist: no failing lstat per document without one. Kept
    // by the document's name (a slice per sidecar, not a concatenation per entry).
    const listed = new Set<string>();
    for (const entry of entries) {
      const name = entry.name;
      if (name.endsWith(SIDECAR_SUFFIX)) listed.add(name.slice(0, -SIDECAR_SUFFIX.length));
    }
    for (let i = 0; i < entries.length; i++) {
      // A folder of 1,700 entries is ~80 ms of checks: the event loop gets its turns within it.
      if ((i & 63) === 63 && seen.pacer.turnDue()) await seen.pacer.turn();
      const entry = entries[i] as Dirent;
      const name = entry.name;
      if (name.startsWith('.')) continue;
      // A concatenation: once hashed as a key of `records` it is flattened, and the garbage
      // collector then drops the 32-byte node for the flat string; about what
      // `[dir, name].join('/')` kept, without its array and join per entry.
      const path = dir === '' ? name : `${dir}/${name}`;
      const sidecarListed = listed.has(name);
      if (entry.isDirectory()) {
        seen.queue.push({ dir: path });
      } else if (entry.isFile() && path !== SITE_CONFIG_FILE) {
        // In a scan the document's own check reads its sidecar (the listing says it exists).
        if (!name.endsWith(SIDECAR_SUFFIX)) this.#scanFile(path, sidecarListed, seen);
      } else {
        // Links, the configuration, anything else: the general path, one task each.
        seen.queue.push({ path, sidecarListed });
      }
    }
  }

  /**
   * A regular file the listing named, checked at once with synchronous calls: on metadata
   * the listing just brought into the cache, a handful of system calls cost far less than
   * a trip through the thread pool each (the folder reads stay asynchronous and overlap).
   * Anything unexpected (gone, no longer a file) takes the general path.
   */
  #scanFile(path: string, sidecarListed: boolean, seen: Scan): void {
    try {
      const abs = absolutePath(this.root, path);
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (st === undefined || !st.isFile()) {
        seen.queue.push({ path, sidecarListed });
        return;
      }
      seen.files?.add(path);
      const previous = this.records.get(path);
      const sidecar = sidecarListed ? loadSidecarSync(abs, previous?.sidecar ?? null) : null;
      this.#store(path, st, false, sidecar);
    } catch {
      // Contained to this entry, as in `reconcile`.
      seen.files?.delete(path);
      this.failed.add(path);
    }
  }

  /**
   * Brings one path up to date. During a scan (`seen`), a folder is queued to be listed and
   * the documents found are collected; otherwise a folder is read again whole.
   */
  async #refresh(path: string, seen: Scan | null, sidecarListed = true): Promise<void> {
    if (path === '') {
      await this.reconcile('');
      return;
    }
    if (path.split('/').some((segment) => segment.startsWith('.'))) return;
    const abs = this.#abs(path);
    let st: Stats | null = await lstat(abs).catch(() => null);
    let symlink = false;
    if (st?.isSymbolicLink()) {
      symlink = true;
      st = await this.#followLink(abs, path !== SITE_CONFIG_FILE);
      if (st?.isDirectory()) st = null;
    }
    if (st === null) {
      await this.#forget(path);
      return;
    }
    if (st.isDirectory()) {
      // An event names a folder when it is created, removed, renamed or replaced: read it again.
      if (seen === null) await this.reconcile(path);
      else seen.queue.push({ dir: path });
      return;
    }
    if (!st.isFile()) {
      await this.#forget(path);
      return;
    }
    if (path === SITE_CONFIG_FILE) {
      const stamp = fileStamp(st);
      if (stamp !== this.configStamp) {
        this.configStamp = stamp;
        this.changed = true;
      }
      return;
    }
    if (path.endsWith(SIDECAR_SUFFIX)) {
      // In a scan the document's own task reads its sidecar (the listing says it exists).
      if (seen === null) await this.#refreshSidecarOf(path.slice(0, -SIDECAR_SUFFIX.length));
      return;
    }
    seen?.files?.add(path);
    await this.#update(path, st, symlink, sidecarListed);
  }

  async #update(path: string, st: Stats, symlink: boolean, sidecarListed = true): Promise<void> {
    const previous = this.records.get(path);
    const sidecar = sidecarListed
      ? await loadSidecar(this.#abs(path), previous?.sidecar ?? null)
      : null;
    this.#store(path, st, symlink, sidecar);
  }

  /** Keeps what was read of one document; `changed` when it differs from what was kept. */
  #store(path: string, st: Stats, symlink: boolean, sidecar: SidecarRecord | null): void {
    const previous = this.records.get(path);
    if (
      previous !== undefined &&
      unchangedFile(previous, st) &&
      previous.sidecar === sidecar &&
      previous.meta.symlink === symlink
    ) {
      return;
    }
    this.records.set(path, pageRecord(path, st, sidecar, symlink));
    if (symlink) this.symlinks.add(path);
    else this.symlinks.delete(path);
    this.changed = true;
  }

  async #refreshSidecarOf(docPath: string): Promise<void> {
    const record = this.records.get(docPath);
    if (record === undefined) return;
    const abs = this.#abs(docPath);
    const st = record.meta.symlink
      ? await this.#followLink(abs, true)
      : await lstat(abs).catch(() => null);
    if (st === null || !st.isFile()) this.#forgetFile(docPath);
    else await this.#update(docPath, st, record.meta.symlink);
  }

  /**
   * A link counts only when it resolves to a file inside the root; a document's link, only
   * when that file is itself a document: not hidden, not a sidecar, not the configuration
   * (a link to `.env` or to `waymark.site.yaml` must not publish it).
   */
  async #followLink(abs: string, document: boolean): Promise<Stats | null> {
    const target = await realpath(abs).catch(() => null);
    const relative = target === null ? null : insideRoot(this.root, target);
    if (target === null || relative === null) return null;
    if (document && !isDocumentPath(relative)) return null;
    const st = await stat(target).catch(() => null);
    return st?.isFile() ? st : null;
  }

  async #forget(path: string): Promise<void> {
    if (path === SITE_CONFIG_FILE && this.configStamp !== null) {
      this.configStamp = null;
      this.changed = true;
    }
    if (this.records.has(path)) this.#forgetFile(path);
    if (path.endsWith(SIDECAR_SUFFIX)) {
      const docPath = path.slice(0, -SIDECAR_SUFFIX.length);
      await this.#refreshSidecarOf(docPath);
    }
    if (this.#watchers.has(path)) this.#forgetUnder(path);
  }

  #forgetFile(path: string): void {
    this.records.delete(path);
    this.symlinks.delete(path);
    this.changed = true;
  }

  /** A directory went away (or was replaced): its watchers and documents go too. */
  #forgetUnder(dir: string): void {
    const prefix = `${dir}/`;
    this.#watchers.closeUnder(dir);
    for (const path of [...this.records.keys()]) {
      if (path.startsWith(prefix)) this.#forgetFile(path);
    }
  }

  #abs(path: string): string {
    return absolutePath(this.root, path);
  }
}
