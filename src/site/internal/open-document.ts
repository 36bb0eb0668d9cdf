import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { insideRoot, isDocumentPath } from './document-path.ts';
import type { PageMeta } from './page-record.ts';

/** A document's file, opened and checked; the caller closes `handle`. */
export interface OpenedDocument {
  readonly handle: FileHandle;
  readonly stat: Stats;
}

/**
 * Opens the file the index describes for `page`, or null. Access was decided on that file
 * (its device and inode, its place in the root); a path is only a way to reach it, and
 * what a path leads to can change between that decision and the open (a document swapped
 * for a link out of the root, a folder for a link elsewhere). So the check is made on
 * what was opened: a regular file (opened without blocking, so a FIFO in its place cannot
 * hang a thread), the same device and inode as the index recorded, and a real path that
 * is a document inside the root. A document that is not a link is opened without
 * following a final link at all.
 */
export async function openDocument(root: string, page: PageMeta): Promise<OpenedDocument | null> {
  const abs = join(root, page.path);
  const flags =
    constants.O_RDONLY |
    (constants.O_NONBLOCK ?? 0) |
    (page.symlink ? 0 : (constants.O_NOFOLLOW ?? 0));
  let handle: FileHandle;
  try {
    handle = await open(abs, flags);
  } catch {
    return null;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.dev !== page.dev || st.ino !== page.ino) return close(handle);
    const real = await realPathOf(handle, abs, st);
    const relative = real === null ? null : insideRoot(root, real);
    if (relative === null || !isDocumentPath(relative)) return close(handle);
    return { handle, stat: st };
  } catch {
    return close(handle);
  }
}

/**
 * Where the opened file really is: on Linux, what `/proc/self/fd` says of the descriptor
 * itself; elsewhere, what the path resolves to now. Either is accepted only if it leads to
 * the very file that was opened (an unlinked or moved file is not a document any more).
 */
async function realPathOf(handle: FileHandle, abs: string, opened: Stats): Promise<string | null> {
  const viaProc = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
  const real = viaProc?.startsWith('/') === true ? viaProc : await realpath(abs).catch(() => null);
  if (real === null) return null;
  const now = await stat(real).catch(() => null);
  return now !== null && now.dev === opened.dev && now.ino === opened.ino ? real : null;
}

async function close(handle: FileHandle): Promise<null> {
  await handle.close().catch(() => {});
  return null;
}
