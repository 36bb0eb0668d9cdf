import { rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { asIoError } from '../../shared/files/atomic-file.ts';

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
    throw asIoError(step, error);
  }
}
