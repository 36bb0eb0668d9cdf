import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';

/**
 * Files written under temporary names and renamed into place only once all of them are
 * complete, so a reader never sees a half-written sitemap under its final name and a
 * failure part-way leaves the final names untouched. A temporary file sits in the
 * directory of its final name (rename is atomic only within one file system), hidden by a
 * leading dot and marked `.tmp`.
 */
export class TempFiles {
  readonly #temps = new Set<string>();

  /** A fresh temporary path beside `finalPath`, tracked for removal. */
  reserve(finalPath: string): string {
    const temp = join(
      dirname(finalPath),
      `.${basename(finalPath)}.${randomBytes(6).toString('hex')}.tmp`,
    );
    this.#temps.add(temp);
    return temp;
  }

  /**
   * Streams `chunks` into `temp`, through gzip when asked, with backpressure: memory
   * stays at a few chunks however long the source is. The file is flushed to disk before
   * it is closed, so the later rename cannot expose an empty file after a crash.
   */
  async write(
    temp: string,
    chunks: Iterable<string> | AsyncIterable<string>,
    gzip: boolean,
  ): Promise<void> {
    const file = createWriteStream(temp, { flags: 'wx', flush: true });
    try {
      if (gzip) await pipeline(chunks, createGzip(), file);
      else await pipeline(chunks, file);
    } catch (error) {
      // A stream destroyed while its file is still being opened creates the file after the
      // failure is reported: wait for it to close, or removing the temporary file could come
      // first and leave it behind (seen under load, when the entries fail at once).
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      throw error;
    }
  }

  /**
   * Gives a finished temporary file the temporary name of a new final path (in another
   * directory), copying when that directory is on another file system.
   */
  async move(temp: string, newFinalPath: string): Promise<string> {
    const moved = this.reserve(newFinalPath);
    try {
      await rename(temp, moved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(temp, moved);
      await rm(temp, { force: true });
    }
    this.#temps.delete(temp);
    return moved;
  }

  /** Renames a finished temporary file to its final name, replacing what was there. */
  async commit(temp: string, finalPath: string): Promise<void> {
    await rename(temp, finalPath);
    this.#temps.delete(temp);
  }

  /** Removes every temporary file not committed; errors are ignored (best effort). */
  async removeAll(): Promise<void> {
    await Promise.all([...this.#temps].map((temp) => rm(temp, { force: true }).catch(() => {})));
    this.#temps.clear();
  }
}

/**
 * Removes the directories from `deepest` up to and including `top` that are empty: the
 * ones a failed run created. A directory that holds anything is left alone.
 */
export async function removeEmptyDirectories(deepest: string, top: string): Promise<void> {
  for (let path = deepest; path.startsWith(top); path = dirname(path)) {
    try {
      await rmdir(path);
    } catch {
      return;
    }
    if (path === top || dirname(path) === path) return;
  }
}

/** Runs a file-system step; a system error becomes `io-failed` naming the step. */
export async function io<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw ioError(step, error);
  }
}

/** A system error (ENOSPC, EACCES, ...) as `io-failed`; anything else as it is. */
export function ioError(step: string, error: unknown): unknown {
  if (isWaymarkError(error) || !isSystemError(error)) return error;
  return new WaymarkError('io-failed', `cannot ${step}: ${error.message}`, { cause: error });
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    'syscall' in error
  );
}
