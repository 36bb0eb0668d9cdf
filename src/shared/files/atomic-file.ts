import { constants } from 'node:fs';
import { copyFile, type FileHandle, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isWaymarkError, WaymarkError } from '../waymark-error.ts';
import { type OutputTarget, resolveOutputTarget } from './output-target.ts';
import { randomHex } from './random-name.ts';
import { SYSTEM_ERROR_WORDS } from './system-error-words.ts';

/** The temporary name of a write to `target`: hidden, in its folder, with the writer's pid. */
async function temporaryPath(target: string): Promise<string> {
  return join(dirname(target), `.${basename(target)}.${process.pid}-${await randomHex()}.tmp`);
}

/** `.<name>.<pid>-<hex>.tmp`, or `.<name>.<hex>.tmp` as written before the pid was added. */
const TEMPORARY_NAME = /^\.(.+)\.(?:(\d+)-)?[0-9a-f]{12}\.tmp$/;

/**
 * One file written atomically: into a temporary file beside its target, flushed to disk,
 * then renamed over the target, and the folder flushed so the rename survives a power loss
 * too. Until {@link commit} the target is untouched; {@link discard} removes the
 * temporary file. The target is resolved first (see {@link resolveOutputTarget}): a
 * symbolic link is written through, the old file's mode (and owner, where permitted) is
 * kept, and a directory, device, FIFO or socket is refused before anything is written.
 * Temporary files that killed writes left beside the target are removed when it opens.
 */
export class AtomicFile {
  #target: OutputTarget;
  #temporary: string;
  #state: 'open' | 'written' | 'done' = 'open';

  private constructor(target: OutputTarget, temporary: string) {
    this.#target = target;
    this.#temporary = temporary;
  }

  /** Starts a write of `path` (nothing is created until {@link write}). */
  static async open(path: string): Promise<AtomicFile> {
    const target = await resolveOutputTarget(path);
    await removeLeftovers(target.path);
    return new AtomicFile(target, await temporaryPath(target.path));
  }

  /** The file the commit replaces (after symbolic links). */
  get target(): string {
    return this.#target.path;
  }

  /**
   * Streams `chunks` into the temporary file, through gzip when asked, with backpressure,
   * and flushes it to disk. Throws a `WaymarkError` (`io-failed`) on a system error;
   * whatever `chunks` throws is passed on as it is.
   */
  async write(
    chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
    options: { readonly gzip?: boolean } = {},
  ): Promise<void> {
    if (this.#state !== 'open') throw new WaymarkError('invalid-argument', 'written already');
    this.#state = 'written';
    const handle = await this.#step('create', () =>
      open(
        this.#temporary,
        constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY,
        this.#target.mode ?? 0o666,
      ),
    );
    // What the caller's chunks throw is theirs, passed on unchanged (even a system error).
    let sourceFailed = false;
    async function* source(): AsyncGenerator<string | Uint8Array> {
      try {
        yield* chunks;
      } catch (error) {
        sourceFailed = true;
        throw error;
      }
    }
    try {
      await this.#keepOwnerAndMode(handle);
      const sink = async (data: AsyncIterable<string | Uint8Array>): Promise<void> => {
        // Writers yield small chunks (a sitemap's <url> elements, gzip's output): written one
        // by one, the write calls were ~2% of a whole crawl's CPU. They are copied into one
        // buffer and written when it is full. Copied at once, not held, as a producer may
        // reuse its buffer once it resumes. writeFile, unlike write, loops until all is written.
        const gathered = Buffer.allocUnsafe(GATHERED_BYTES);
        let used = 0;
        for await (const given of data) {
          // Bytes of any view a JavaScript caller passes (a Uint16Array, a DataView), as
          // writeFile would write them, not its elements.
          const chunk = typeof given === 'string' ? given : asBytes(given);
          const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
          if (used + bytes > GATHERED_BYTES && used > 0) {
            await handle.writeFile(gathered.subarray(0, used));
            used = 0;
          }
          if (bytes >= GATHERED_BYTES) await handle.writeFile(chunk);
          else if (typeof chunk === 'string') used += gathered.write(chunk, used);
          else {
            gathered.set(chunk, used);
            used += bytes;
          }
        }
        if (used > 0) await handle.writeFile(gathered.subarray(0, used));
      };
      try {
        // Loaded here, not with the module, like node:crypto (see random-name.ts).
        const { pipeline } = await import('node:stream/promises');
        if (options.gzip === true) {
          const { createGzip } = await import('node:zlib');
          await pipeline(source(), createGzip(), sink);
        } else {
          await pipeline(source(), sink);
        }
      } catch (error) {
        throw sourceFailed ? error : asIoError(`write ${this.#target.path}`, error);
      }
      await this.#step('flush', () => handle.sync());
    } finally {
      await handle.close().catch(() => {});
    }
  }

  /**
   * Moves the written temporary file so that it will replace `path` instead (another
   * folder: copied when that is on another file system).
   */
  async retarget(path: string): Promise<void> {
    const target = await resolveOutputTarget(path);
    await removeLeftovers(target.path);
    const temporary = await temporaryPath(target.path);
    await this.#step('move', async () => {
      try {
        await rename(this.#temporary, temporary);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(this.#temporary, temporary, constants.COPYFILE_EXCL);
        await rm(this.#temporary, { force: true });
      }
    });
    this.#target = target;
    this.#temporary = temporary;
  }

  /**
   * Checks the target once more (it may have been replaced by a directory or a FIFO since
   * the write began), renames the temporary file over it, and flushes the folder.
   */
  async commit(): Promise<void> {
    if (this.#state !== 'written') throw new WaymarkError('invalid-argument', 'nothing written');
    const now = await resolveOutputTarget(this.#target.path);
    if (now.path !== this.#target.path) {
      throw new WaymarkError(
        'io-failed',
        `cannot write ${this.#target.path}: it became a link to ${now.path} while it was written`,
      );
    }
    await this.#step('rename', () => rename(this.#temporary, this.#target.path));
    this.#state = 'done';
    await syncFolder(dirname(this.#target.path));
  }

  /** Removes the temporary file, if any; the target stays as it was. Never throws. */
  async discard(): Promise<void> {
    if (this.#state === 'done') return;
    this.#state = 'done';
    await rm(this.#temporary, { force: true }).catch(() => {});
  }

  /**
   * The new file gets the old one's owner when the process may give it (it runs as root),
   * then the old one's mode: set explicitly, since the umask trimmed the mode at creation
   * (0664 would become 0644), and after chown, which clears set-user-ID and set-group-ID.
   */
  async #keepOwnerAndMode(handle: FileHandle): Promise<void> {
    const { owner, mode } = this.#target;
    if (owner !== null && process.getuid?.() === 0) {
      await handle.chown(owner.uid, owner.gid).catch(() => {});
    }
    if (mode !== null) await this.#step('set the mode of', () => handle.chmod(mode));
  }

  async #step<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw asIoError(`${what} ${this.#temporary} for ${this.#target.path}`, error);
    }
  }
}

/**
 * Writes `chunks` to `path` atomically (see {@link AtomicFile}): on any failure the
 * temporary file is removed and `path` is untouched.
 *
 * @example
 * ```ts
 * await writeFileAtomically('sitemap.xml', ['<?xml version="1.0"?>\n', body]);
 * ```
 */
export async function writeFileAtomically(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: { readonly gzip?: boolean } = {},
): Promise<void> {
  const file = await AtomicFile.open(path);
  try {
    await file.write(chunks, options);
    await file.commit();
  } finally {
    await file.discard();
  }
}

/**
 * Removes the temporary files that writes of `target` left when their process died: those
 * whose pid is not running (and unnumbered ones from before pids were recorded). A live
 * writer's file is left alone.
 */
async function removeLeftovers(target: string): Promise<void> {
  const name = basename(target);
  const names = await readdir(dirname(target)).catch(() => [] as string[]);
  for (const entry of names) {
    const match = TEMPORARY_NAME.exec(entry);
    if (match === null || match[1] !== name) continue;
    const pid = match[2] === undefined ? null : Number(match[2]);
    if (pid !== null && (pid === process.pid || isRunning(pid))) continue;
    await rm(join(dirname(target), entry), { force: true }).catch(() => {});
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Flushes a folder's entries (a rename in it) to disk; where that is not possible, skipped. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some systems cannot open or flush a folder; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** A system error as `io-failed` naming the step; waymark's own and the caller's errors as they are. */
export function asIoError(step: string, error: unknown): unknown {
  if (isWaymarkError(error) || !isSystemError(error)) return error;
  // Making a directory, EEXIST means something that is not one is in the way.
  const words =
    error.code === 'EEXIST' && error.syscall === 'mkdir'
      ? 'a file is there, not a directory'
      : SYSTEM_ERROR_WORDS[error.code ?? ''];
  return new WaymarkError('io-failed', `cannot ${step}: ${words ?? error.message}`, {
    cause: error,
  });
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    'syscall' in error
  );
}

/** The most written per write call, but for a larger chunk written as it is. */
const GATHERED_BYTES = 64 * 1024;

/** The bytes of `view`, whatever kind of view it is. */
function asBytes(view: ArrayBufferView): Uint8Array {
  return view instanceof Uint8Array
    ? view
    : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
