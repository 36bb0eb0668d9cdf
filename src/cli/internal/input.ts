import { formatBytes } from '../../http/internal/format-limit.ts';
import { concatBytes } from '../../shared/bytes.ts';
import { cannotRead } from '../../shared/files/cannot-read.ts';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';
import type { CliIo } from '../io.ts';

/**
 * The most read from a file argument or standard input that a command holds whole (a
 * robots.txt, a navigational sitemap, a `--urls` list): far past any real robots.txt or
 * navigational sitemap, and a bound on memory for `/dev/zero` or an endless pipe, which
 * would otherwise be read until the process ran out of memory (a `--urls` list has its own
 * cap on lines: {@link MAX_URL_LINES}). Sitemaps are read as they stream and have
 * `--max-bytes` instead.
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

/**
 * The most URLs a `--urls` list may hold. Each costs the process a hundred bytes or more
 * (its string, its row of output), so the 256 MiB read cap alone let a list of short lines
 * run to tens of millions of URLs and gigabytes of memory.
 */
export const MAX_URL_LINES = 1_000_000;

/**
 * The URLs of a `--urls` file (`name` in messages): one a line, trimmed; blank lines and `#`
 * comments skipped. More than {@link MAX_URL_LINES} is an `invalid-argument` error, found
 * without splitting the whole text first.
 */
export function urlLines(bytes: Uint8Array, name: string, most = MAX_URL_LINES): string[] {
  const urls: string[] = [];
  eachLine(new TextDecoder().decode(bytes), (raw) => {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith('#')) return;
    if (urls.length === most) {
      throw new WaymarkError(
        'invalid-argument',
        `${name} lists more than ${most.toLocaleString('en-US')} URLs, the most one run reads; split the list`,
      );
    }
    urls.push(line);
  });
  return urls;
}

/**
 * Calls `visit` with each line of `text` (LF, CRLF or CR ends one) in turn, found as it goes
 * rather than by splitting the whole text first: a file of short lines split at once makes an
 * array as long as it has lines (100 MB of line breaks took gigabytes).
 */
export function eachLine(text: string, visit: (line: string) => void): void {
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (;;) {
    const found = breaks.exec(text);
    visit(text.slice(start, found === null ? text.length : found.index));
    if (found === null) return;
    start = breaks.lastIndex;
  }
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
