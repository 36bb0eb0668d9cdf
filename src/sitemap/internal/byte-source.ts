// Every input the sitemap readers take, as one async stream of byte (or text) chunks, with
// gzip detected from the magic bytes and inflated on the way. DecompressionStream is a Web
// standard, so this stays free of node: imports.

import { concatBytes } from '../../shared/bytes.ts';

export type SitemapInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>;

/** The input as chunks, whatever form it came in (a Node Readable is an AsyncIterable). */
export async function* chunksOf(input: SitemapInput): AsyncGenerator<Uint8Array | string> {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    yield input;
    return;
  }
  if (input instanceof ArrayBuffer) {
    yield new Uint8Array(input);
    return;
  }
  if (Symbol.asyncIterator in input) {
    yield* input as AsyncIterable<Uint8Array | string>;
    return;
  }
  if (Symbol.iterator in input) {
    yield* input as Iterable<Uint8Array | string>;
    return;
  }
  const reader = (input as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Inflates the stream when its first two bytes are the gzip magic (whatever the file name or
 * Content-Type says), else passes it through. `gzipped()` tells afterwards which it was.
 */
export function gunzipIfNeeded(source: AsyncIterable<Uint8Array | string>): {
  chunks: AsyncGenerator<Uint8Array | string>;
  gzipped: () => boolean;
} {
  let gzipped = false;
  async function* run(): AsyncGenerator<Uint8Array | string> {
    const iterator = source[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let headLength = 0;
    let done = false;
    while (headLength < 2) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      if (typeof next.value === 'string') {
        // Text was given: no gzip to look for.
        yield* head;
        yield next.value;
        yield* rest(iterator);
        return;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const first = head.length === 1 ? (head[0] as Uint8Array) : concatBytes(head, headLength);
    gzipped = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
    const all = prepend(first, done ? null : iterator);
    if (gzipped) yield* inflate(all);
    else yield* all;
  }
  return { chunks: run(), gzipped: () => gzipped };
}

async function* rest<T>(iterator: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

async function* prepend(
  first: Uint8Array,
  iterator: AsyncIterator<Uint8Array | string> | null,
): AsyncGenerator<Uint8Array> {
  if (first.length > 0) yield first;
  if (iterator === null) return;
  for await (const chunk of rest(iterator)) {
    yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
  }
}

/** gunzip as a stream; a truncated or corrupt stream rejects from the iteration. */
async function* inflate(source: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const pump = (async () => {
    try {
      for await (const chunk of source) await writer.write(chunk as Uint8Array<ArrayBuffer>);
      await writer.close();
    } catch (error) {
      await writer.abort(error).catch(() => {});
    }
  })();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
    await source.return(undefined).catch(() => {});
    await pump;
  }
}
