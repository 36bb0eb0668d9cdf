import type { Stats } from 'node:fs';
import { lstat, open, readlink, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { WaymarkError } from '../waymark-error.ts';
import { randomHex } from './random-name.ts';
import { SYSTEM_ERROR_WORDS, systemErrorInWords } from './system-error-words.ts';

/** Where writing a path really goes, and what the new file must keep of the old one. */
export interface OutputTarget {
  /** The file to replace: the path itself, or the file its symbolic links lead to. */
  readonly path: string;
  /** The old file's permission bits, to give the new one; null when there is no old file. */
  readonly mode: number | null;
  /** The old file's owner, to give the new one where the process may; null when none. */
  readonly owner: { readonly uid: number; readonly gid: number } | null;
}

/** Links followed at most, as the kernel does (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

/**
 * Resolves where a write to `path` lands, before anything is written. A symbolic link is
 * written through (its target is replaced and the link stays, as a shell's `>` does); a
 * regular file is replaced keeping its mode; a missing file is created, in a folder that
 * must exist. A directory, a device, a FIFO or a socket is never replaced: those throw a
 * `WaymarkError` (`io-failed`) that names what is there.
 *
 * @example
 * ```ts
 * const target = await resolveOutputTarget('public/sitemap.xml');
 * target.path; // the file a rename must replace
 * ```
 */
export async function resolveOutputTarget(path: string): Promise<OutputTarget> {
  let current = resolve(path);
  for (let links = 0; links <= MAX_LINKS; links++) {
    const st = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw cannot(path, `cannot look at ${current} (${systemErrorInWords(error)})`, error);
    });
    if (st === null) {
      await checkFolder(path, dirname(current));
      return { path: current, mode: null, owner: null };
    }
    if (st.isSymbolicLink()) {
      current = resolve(dirname(current), await readlink(current));
      continue;
    }
    if (!st.isFile()) {
      const where = current === resolve(path) ? '' : ` (where ${path} leads)`;
      throw cannot(path, `${current}${where} is ${kindOf(st)}, not a regular file`);
    }
    return {
      path: current,
      mode: st.mode & 0o7777,
      owner: { uid: st.uid, gid: st.gid },
    };
  }
  throw cannot(path, `more than ${MAX_LINKS} symbolic links`);
}

/**
 * Checks, before any work, that a file can be written at `path`: where it leads is a
 * regular file or nothing (see {@link resolveOutputTarget}), in a folder where this
 * process can create files (tried for real, since permissions, read-only mounts and ACLs
 * all decide). Throws a `WaymarkError` (`io-failed`) saying what is wrong.
 *
 * @example
 * ```ts
 * await checkWritableFile('public/sitemap.xml'); // before a crawl of an hour
 * ```
 */
export async function checkWritableFile(path: string): Promise<void> {
  const target = await resolveOutputTarget(path);
  await tryCreating(path, dirname(target.path));
}

/**
 * Checks, before any work, that files can be written in the folder `path`: it is a
 * folder, or missing below a folder where this process can create it.
 *
 * @example
 * ```ts
 * await checkWritableFolder('public/sitemaps');
 * ```
 */
export async function checkWritableFolder(path: string): Promise<void> {
  let current = resolve(path);
  for (;;) {
    const st = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
      throw cannot(path, `cannot look at ${current} (${systemErrorInWords(error)})`, error);
    });
    if (st !== null) {
      if (!st.isDirectory()) {
        throw cannot(
          path,
          current === resolve(path) ? 'it is not a folder' : `${current} is not a folder`,
        );
      }
      await tryCreating(path, current);
      return;
    }
    if (dirname(current) === current) throw cannot(path, 'no folder above it exists');
    current = dirname(current);
  }
}

/** Creates and removes a file in `folder`: the one sure test that writing there works. */
async function tryCreating(path: string, folder: string): Promise<void> {
  const probe = join(folder, `.waymark-probe.${process.pid}-${await randomHex()}`);
  try {
    await (await open(probe, 'wx')).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = SYSTEM_ERROR_WORDS[code ?? ''] ?? code ?? (error as Error).message;
    throw cannot(path, `cannot create files in ${folder} (${why})`, error);
  } finally {
    await rm(probe, { force: true }).catch(() => {});
  }
}

async function checkFolder(path: string, folder: string): Promise<void> {
  const st = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'ENOENT'
        ? `the folder ${folder} does not exist`
        : `cannot look at ${folder} (${systemErrorInWords(error)})`;
    throw cannot(path, reason, error);
  });
  if (!st.isDirectory()) throw cannot(path, `${folder} is not a folder`);
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function cannot(path: string, reason: string, cause?: unknown): WaymarkError {
  return new WaymarkError('io-failed', `cannot write ${path}: ${reason}`, { cause });
}
