import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * A small file read whole, or why not. `missing`: it does not exist; `not-a-file`: a
 * folder, a FIFO, a device or (without `followLinks`) a link; `too-large`: more than the
 * limit, found before reading more than one byte past it.
 */
export type SmallFile =
  | { readonly ok: true; readonly text: string; readonly stat: Stats }
  | {
      readonly ok: false;
      readonly reason: 'missing' | 'not-a-file' | 'too-large' | 'unreadable';
      readonly message: string;
      readonly stat: Stats | null;
    };

/**
 * Opened without blocking, so a FIFO put in a file's place cannot hang a thread (it is
 * refused as not a file once opened); without following a final link unless asked.
 */
function openFlags(followLinks: boolean): number {
  return (
    constants.O_RDONLY |
    (constants.O_NONBLOCK ?? 0) |
    (followLinks ? 0 : (constants.O_NOFOLLOW ?? 0))
  );
}

/**
 * Reads a UTF-8 file of at most `maxBytes`, checking what was opened (not what a path named
 * a moment before): a regular file within the limit. Never throws.
 */
export async function readSmallFile(
  path: string,
  maxBytes: number,
  followLinks: boolean,
): Promise<SmallFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, openFlags(followLinks));
  } catch (error) {
    return refused(error, null);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return notAFile(stat);
    if (stat.size > maxBytes) return tooLarge(stat, maxBytes);
    // Read to the end, not to the size: a file written meanwhile may have grown. A read that
    // fills less than it was offered, exactly at the size fstat saw, has met the end: no read
    // more to hear it (one system call fewer per sidecar). Otherwise read on: procfs reports
    // size 0 and some FUSE mounts a wrong size, and both return short reads mid-file.
    const reading = new Growing(stat.size, maxBytes);
    for (;;) {
      const { buffer, offset, room } = reading.space();
      const { bytesRead } = await handle.read(buffer, offset, room, offset);
      if (bytesRead === 0) break;
      if (!reading.add(bytesRead)) return tooLarge(stat, maxBytes);
      if (bytesRead < room && stat.size > 0 && reading.length === stat.size) break;
    }
    return { ok: true, text: reading.text(), stat };
  } catch (error) {
    return refused(error, null);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** {@link readSmallFile}, synchronously (for a configuration read before serving). */
export function readSmallFileSync(path: string, maxBytes: number, followLinks: boolean): SmallFile {
  let fd: number;
  try {
    fd = openSync(path, openFlags(followLinks));
  } catch (error) {
    return refused(error, null);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return notAFile(stat);
    if (stat.size > maxBytes) return tooLarge(stat, maxBytes);
    const reading = new Growing(stat.size, maxBytes);
    for (;;) {
      const { buffer, offset, room } = reading.space();
      const bytesRead = readSync(fd, buffer, offset, room, offset);
      if (bytesRead === 0) break;
      if (!reading.add(bytesRead)) return tooLarge(stat, maxBytes);
      if (bytesRead < room && stat.size > 0 && reading.length === stat.size) break;
    }
    return { ok: true, text: reading.text(), stat };
  } catch (error) {
    return refused(error, null);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Closing a read-only descriptor cannot lose data.
    }
  }
}

/** A read buffer sized for the file as stat saw it, grown (up to the limit) if it grew. */
class Growing {
  #buffer: Buffer;
  #length = 0;
  readonly #max: number;

  constructor(size: number, maxBytes: number) {
    this.#max = maxBytes;
    // One byte more than expected, so the end of the file is seen without growing.
    this.#buffer = Buffer.allocUnsafe(Math.min(maxBytes, size) + 1);
  }

  space(): { buffer: Buffer; offset: number; room: number } {
    if (this.#length === this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.#max + 1, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    return { buffer: this.#buffer, offset: this.#length, room: this.#buffer.length - this.#length };
  }

  /** Bytes read so far. */
  get length(): number {
    return this.#length;
  }

  /** False once more than the limit was read. */
  add(bytes: number): boolean {
    this.#length += bytes;
    return this.#length <= this.#max;
  }

  text(): string {
    return this.#buffer.toString('utf8', 0, this.#length);
  }
}

function refused(error: unknown, stat: Stats | null): SmallFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return { ok: false, reason: 'missing', message: 'it does not exist', stat };
  }
  // ELOOP: a link opened with O_NOFOLLOW.
  if (code === 'ELOOP' || code === 'EISDIR') {
    return { ok: false, reason: 'not-a-file', message: 'it is not a regular file', stat };
  }
  return { ok: false, reason: 'unreadable', message: (error as Error).message, stat };
}

function notAFile(stat: Stats): SmallFile {
  return { ok: false, reason: 'not-a-file', message: 'it is not a regular file', stat };
}

function tooLarge(stat: Stats, maxBytes: number): SmallFile {
  return {
    ok: false,
    reason: 'too-large',
    message: `it is larger than ${maxBytes} bytes`,
    stat,
  };
}
