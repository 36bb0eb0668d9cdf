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
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(STREAMING));
    else if (coding === 'deflate') decoders.push(new DeflateEither());
    else if (coding === 'br') decoders.push(createBrotliDecompress(STREAMING_BROTLI));
    else if (coding === 'zstd' && createZstdDecompress) decoders.push(createZstdDecompress());
    else return [];
  }
  return decoders;
}

/**
 * `deflate` as servers send it: zlib-wrapped (what the name means) or raw deflate (what some
 * send), told apart by the first byte, as fetch does. The inner inflate pauses while this
 * stream's reader is behind, as a zlib stream in a pipeline does: one 64 KiB chunk of a
 * deflate bomb would otherwise be inflated whole (some 64 MiB) ahead of the reader and its
 * size cap.
 */
class DeflateEither extends Transform {
  #inflate: Transform | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.#inflate === null) {
      if (chunk.length === 0) {
        callback();
        return;
      }
      const wrapped = ((chunk[0] as number) & 0x0f) === 0x08;
      const inflate = wrapped ? createInflate(STREAMING) : createInflateRaw(STREAMING);
      inflate.on('data', (data: Buffer) => {
        if (!this.push(data)) inflate.pause();
      });
      inflate.on('error', (error) => this.destroy(error));
      this.#inflate = inflate;
    }
    this.#inflate.write(chunk, callback);
  }

  override _read(size: number) {
    this.#inflate?.resume();
    super._read(size);
  }

  override _final(callback: (error?: Error | null) => void) {
    const inflate = this.#inflate;
    if (inflate === null) {
      callback();
      return;
    }
    // Done once the inflate has given all it holds; a failure (a stream cut short) destroys
    // this stream through the inflate's error listener instead.
    inflate.once('end', () => callback());
    inflate.end();
  }
}
