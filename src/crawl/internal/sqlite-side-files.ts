import { existsSync, statSync, unlinkSync } from 'node:fs';

// A read-only connection to a database in WAL mode creates its `-wal` and `-shm` side files
// when they are not there (a state closed cleanly has none): left behind, they would make
// `crawl status` look as if it had changed the state.

/** The side files of `file` that are not there now. */
export function absentSideFiles(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`].filter((path) => !existsSync(path));
}

/**
 * Removes the side files in `created` (from {@link absentSideFiles} before the connection
 * opened), once it is closed, if the log is empty: a `-wal` with frames in it was written by
 * a crawl that opened the file since, and is left alone.
 */
export function removeCreatedSideFiles(created: readonly string[]): void {
  const wal = created.find((path) => path.endsWith('-wal'));
  try {
    if (wal !== undefined && existsSync(wal) && statSync(wal).size > 0) return;
    for (const path of created) if (existsSync(path)) unlinkSync(path);
  } catch {
    // Tidying only: a side file that cannot be removed is harmless to the state.
  }
}
