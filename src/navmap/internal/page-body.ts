// The body of a page handed to discovery: bytes, text, or a stream read with a size cap
// (discovery never fetches, but a caller's Response can be endless).

import { concatBytes } from '../../shared/bytes.ts';

/** Most bytes of a page read for the HTML steps (its `<head>` is near the start). */
const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/**
 * A page's body as bytes or text, at most {@link MAX_PAGE_BYTES} of it. A stream - a
 * `Response`'s (also from another copy of undici), or any async iterable of bytes (a Node
 * stream) - is read up to that and then cancelled; a read that fails keeps what came.
 * Anything else is no body (null).
 *
 * @example
 * ```ts
 * const body = await bodyOf(response.body); // at most 10 MiB, the rest cancelled
 * ```
 */
export async function bodyOf(body: unknown): Promise<Uint8Array | string | null> {
  // Whole bodies are cut to the same cap as streams: text past 512 Mi characters cannot
  // even be decoded, and the <head> is near the start.
  if (typeof body === 'string') return body.slice(0, MAX_PAGE_BYTES);
  if (body instanceof Uint8Array) return body.subarray(0, MAX_PAGE_BYTES);
  if (ArrayBuffer.isView(body)) {
    return new Uint8Array(body.buffer, body.byteOffset, Math.min(body.byteLength, MAX_PAGE_BYTES));
  }
  if (body === null || typeof body !== 'object') return null;
  const stream = body as Partial<ReadableStream<Uint8Array>>;
  if (typeof stream.getReader === 'function') {
    if (stream.locked === true) return null;
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      reader = stream.getReader();
    } catch {
      return null;
    }
    return collect(
      (async function* () {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      })(),
      () => reader.cancel(),
    );
  }
  const iterable = body as Partial<AsyncIterable<unknown>>;
  if (typeof iterable[Symbol.asyncIterator] !== 'function') return null;
  return collect(iterable as AsyncIterable<unknown>, async () => {});
}

/** Up to MAX_PAGE_BYTES of the chunks, then `stop` (leaving the loop closes the iterator). */
async function collect(
  chunks: AsyncIterable<unknown>,
  stop: () => Promise<unknown>,
): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      if (!(chunk instanceof Uint8Array)) continue;
      kept.push(chunk.subarray(0, MAX_PAGE_BYTES - size));
      size += Math.min(chunk.byteLength, MAX_PAGE_BYTES - size);
      if (size >= MAX_PAGE_BYTES) break;
    }
  } catch {
    // A body that breaks off (or passes a fetch's own size cap) is read as far as it came.
  } finally {
    stop().catch(() => {});
  }
  return concatBytes(kept, size);
}
