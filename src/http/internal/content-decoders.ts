// Undoing `Content-Encoding` the way Node's fetch (undici 7) does, for waymark's own
// node:http(s) transports, so a body reads the same whichever way it was fetched.

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

/** Lenient flushing, as fetch: a body cut short is read as far as it goes. */
const LENIENT: ZlibOptions = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const LENIENT_BROTLI = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

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
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(LENIENT));
    else if (coding === 'deflate') decoders.push(new DeflateEither());
    else if (coding === 'br') decoders.push(createBrotliDecompress(LENIENT_BROTLI));
    else if (coding === 'zstd' && createZstdDecompress) decoders.push(createZstdDecompress());
    else return [];
  }
  return decoders;
}

/**
 * `deflate` as servers send it: zlib-wrapped (what the name means) or raw deflate (what some
 * send), told apart by the first byte, as fetch does.
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
      const inflate = wrapped ? createInflate(LENIENT) : createInflateRaw(LENIENT);
      inflate.on('data', (data: Buffer) => this.push(data));
      inflate.on('end', () => this.push(null));
      inflate.on('error', (error) => this.destroy(error));
      this.#inflate = inflate;
    }
    this.#inflate.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void) {
    this.#inflate?.end();
    this.#inflate = null;
    callback();
  }
}
