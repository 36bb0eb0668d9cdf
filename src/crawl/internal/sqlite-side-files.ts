import { existsSync, unlinkSync } from 'node:fs';

// A read-only connection to a state a crawl left its write-ahead log beside (`-wal`) makes
// the log's index file (`-shm`) to read it: left behind, it would make `crawl status` look as
// if it had changed the state. (A state with no log is opened immutable, which makes none.)

/** The side files of `file` that are not there now. */
export function absentSideFiles(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`].filter((path) => !existsSync(path));
}

/**
 * Removes the index file a reading made, once its connection is closed: the `-shm` among
 * `absent` (from {@link absentSideFiles} before it opened), when the log it indexes was
 * there before (so this reading did not open the state immutable). A crawl never needs it:
 * it holds its index in memory.
 */
export function removeCreatedSideFiles(absent: readonly string[]): void {
  for (const path of absent) {
    if (!path.endsWith('-shm')) continue;
    try {
      if (existsSync(path)) unlinkSync(path);
    } catch {
      // Tidying only: a side file that cannot be removed is harmless to the state.
    }
  }
}
