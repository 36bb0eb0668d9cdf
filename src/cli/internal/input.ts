import { cannotRead } from '../../shared/files/cannot-read.ts';
import type { CliIo } from '../io.ts';

/** Reads a file argument, `-` meaning standard input. */
export async function readInput(path: string, io: CliIo): Promise<Uint8Array> {
  if (path === '-') return io.readStdin();
  try {
    return await io.readFile(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
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
    if (!first.done) yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  })();
}
