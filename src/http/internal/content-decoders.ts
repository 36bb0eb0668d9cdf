// Undoing `Content-Encoding` the way Node's fetch (undici 7) does, for waymark's own
// node:http(s) transports, so a body reads the same whichever way it was fetched, with one
// difference: a compressed body cut short fails, where fetch reads it as far as it goes and
// ends. A cut gzip is otherwise a complete, shorter document: a text sitemap missing its
// last thousands of URLs, which `indexnow submit --diff` would take as removed.

import { Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type ZlibOptions,
} from 'node:zlib';

/** Node 22.15 / 23.8 and later; an older Node's fetch leaves zstd bodies as sent too. */
const createZstdDecompress = (zlib as { createZstdDecompress?: () => Transform })
  .createZstdDecompress;

/**
 * Output as the input arrives (as fetch), and at the end the stream must be whole: a body cut
 * short fails with zlib's `Z_BUF_ERROR` ("unexpected end of file"), see {@link isCutShort}.
 */
const STREAMING: ZlibOptions = { flush: constants.Z_SYNC_FLUSH };
const STREAMING_BROTLI = { flush: constants.BROTLI_OPERATION_FLUSH };

/** The decoders' error for a compressed body that ends before its compressed stream does. */
export function isCutShort(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'Z_BUF_ERROR';
}

/**
 * Decoders for a `Content-Encoding` list, last applied first; an empty list when there is
 * nothing to undo. An unknown coding leaves the body as sent, as fetch does.
 */
export function decodersFor(encoding: string | null): Transform[] {
  if (encoding === null) return [];
  const codings = encoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') {
      decoders.push(new LazyDecoder(() => createGunzip(STREAMING)));
    } else if (coding === 'deflate') {
      // zlib-wrapped (what the name means) or raw deflate (what some servers send), told
      // apart by the first byte, as fetch does.
      decoders.push(
        new LazyDecoder((first) =>
          ((first[0] as number) & 0x0f) === 0x08
            ? createInflate(STREAMING)
            : createInflateRaw(STREAMING),
        ),
      );
    } else if (coding === 'br') {
      decoders.push(new LazyDecoder(() => createBrotliDecompress(STREAMING_BROTLI)));
    } else if (coding === 'zstd' && createZstdDecompress) {
      const zstd = createZstdDecompress;
      decoders.push(new LazyDecoder(() => zstd()));
    } else return [];
  }
  return decoders;
}

/**
 * A decoder made when the first byte of the body arrives, so that:
 * - an empty body (`Content-Length: 0` with `Content-Encoding: gzip`, as some servers send)
 *   is an empty body, as fetch reads it, not a stream cut short;
 * - `deflate` can be told zlib-wrapped or raw by its first byte;
 * - the decoder pauses while this stream's reader is behind, as a zlib stream in a pipeline
 *   does: one 64 KiB chunk of a deflate bomb is otherwise inflated whole (some 64 MiB)
 *   ahead of the reader and its size cap;
 * - bytes after the end of a deflate or br stream (a trailing line break, padding) are
 *   dropped, as fetch drops them, instead of being written to a decoder that has ended
 *   (gzip reads them as a next member, and fails on them, as fetch does).
 */
class LazyDecoder extends Transform {
  readonly #make: (first: Buffer) => Transform;
  #decoder: Transform | null = null;
  /** The decoder reached the end of its stream. */
  #ended = false;
  /** The end of input, waiting for the decoder to give what it holds. */
  #finishing: ((error?: Error | null) => void) | null = null;

  constructor(make: (first: Buffer) => Transform) {
    super();
    this.#make = make;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.#ended || (this.#decoder === null && chunk.length === 0)) {
      callback();
      return;
    }
    if (this.#decoder === null) {
      const decoder = this.#make(chunk);
      decoder.on('data', (data: Buffer) => {
        if (!this.push(data)) decoder.pause();
      });
      decoder.on('end', () => {
        this.#ended = true;
        this.#finishing?.();
        this.#finishing = null;
      });
      decoder.on('error', (error) => this.destroy(error));
      this.#decoder = decoder;
    }
    // Called back once the decoder took the chunk; a decoder that ends inside it still does.
    this.#decoder.write(chunk, () => callback());
  }

  override _read(size: number) {
    this.#decoder?.resume();
    super._read(size);
  }

  override _final(callback: (error?: Error | null) => void) {
    if (this.#decoder === null || this.#ended) {
      callback();
      return;
    }
    // Done once the decoder has given all it holds; one cut short fails through its error
    // listener instead (see isCutShort).
    this.#finishing = callback;
    this.#decoder.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.#decoder?.destroy();
    callback(error);
  }
}
