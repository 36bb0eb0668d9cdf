import { formatBytes } from '../../http/internal/format-limit.ts';
import { concatBytes } from '../../shared/bytes.ts';
import { cannotRead } from '../../shared/files/cannot-read.ts';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';
import type { CliIo } from '../io.ts';

/**
 * The most read from a file argument or standard input that a command holds whole (a
 * robots.txt, a navigational sitemap, a `--urls` list): far past any real one (a list of
 * 256 MiB is some three million URLs), and a bound on memory for `/dev/zero` or an endless
 * pipe, which would otherwise be read until the process ran out of memory. Sitemaps are
 * read as they stream and have `--max-bytes` instead.
 */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * Reads a file argument whole, `-` meaning standard input, at most `most` bytes: more is an
 * `io-failed` error (exit 3) once byte `most + 1` is read, without reading further.
 */
export async function readInput(
  path: string,
  io: CliIo,
  most: number = MAX_INPUT_BYTES,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for await (const chunk of await openInput(path, io)) {
      if (length + chunk.length > most) {
        throw new WaymarkError(
          'io-failed',
          `cannot read ${displayName(path)}: over ${formatBytes(most)}, the most read from a file here`,
        );
      }
      chunks.push(chunk);
      length += chunk.length;
    }
  } catch (error) {
    throw isWaymarkError(error) ? error : cannotRead(path, error);
  }
  // A plain Uint8Array whatever the chunks were (a Buffer's slice() is a view, not a copy).
  const bytes = concatBytes(chunks, length);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The URLs of a `--urls` file: one a line, trimmed; blank lines and `#` comments skipped. */
export function urlLines(bytes: Uint8Array): string[] {
  return new TextDecoder()
    .decode(bytes)
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}

/** How a file argument is named in messages. */
export function displayName(path: string): string {
  return path === '-' ? '<stdin>' : path;
}

/**
 * Opens a file argument as a stream (`-` is standard input). The first chunk is read at once,
 * so a missing or unreadable file is a clear error here rather than a problem found halfway.
 */
export async function openInput(path: string, io: CliIo): Promise<AsyncIterable<Uint8Array>> {
  const iterator = io.openFile(path)[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw cannotRead(path, error);
  }
  return (async function* () {
    let done = first.done === true;
    try {
      if (!done) yield first.value as Uint8Array;
      while (!done) {
        const next = await iterator.next();
        done = next.done === true;
        if (!done) yield next.value;
      }
    } finally {
      // Left early (a read cap, a failure downstream): the file is closed now, not when the
      // garbage collector gets to its stream.
      if (!done) await iterator.return?.();
    }
  })();
}
