// Every input the sitemap readers take, as one pull source of byte (or text) chunks, with
// gzip detected from the magic bytes and inflated on the way (gzip-members.ts). A source can
// be closed while a read is pending, so a stalled input cannot hold a reading past its time.

import { concatBytes } from '../../shared/bytes.ts';
import { GzipMembers, nodeZlib, type ZlibModule } from './gzip-members.ts';
import { WebGunzip } from './web-gunzip.ts';

export type SitemapInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>;

export type Chunk = Uint8Array | string;

/** Chunks on demand. */
export interface ChunkSource {
  /** The next chunk, or null at the end; rejects when the input fails. */
  next(): Promise<Chunk | null>;
  /** Stops the input and releases it, without waiting for a read that may never end. */
  close(): void;
}

/** The input as a source of chunks, whatever form it came in (a Node Readable is an AsyncIterable). */
export function chunksOf(input: SitemapInput): ChunkSource {
  if (typeof input === 'string' || input instanceof Uint8Array || input instanceof ArrayBuffer) {
    let given: Chunk | null = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    return {
      next: async () => {
        const chunk = given;
        given = null;
        return chunk;
      },
      close: () => {
        given = null;
      },
    };
  }
  // A Web stream is read through its reader, which a pending read does not keep from cancelling.
  if (typeof (input as ReadableStream<Uint8Array>).getReader === 'function') {
    return streamChunks(input as ReadableStream<Uint8Array>);
  }
  if (Symbol.asyncIterator in input || Symbol.iterator in input) {
    const iterator =
      Symbol.asyncIterator in input
        ? (input as AsyncIterable<Chunk>)[Symbol.asyncIterator]()
        : (input as Iterable<Chunk>)[Symbol.iterator]();
    let finished = false;
    return {
      next: async () => {
        if (finished) return null;
        const next = await iterator.next();
        if (next.done) finished = true;
        return next.done ? null : next.value;
      },
      close: () => {
        if (finished) return;
        finished = true;
        try {
          // Not awaited: an async generator answers return() only once its pending step ends.
          Promise.resolve(iterator.return?.()).catch(() => {});
        } catch {
          // An iterator whose return() throws is released all the same.
        }
      },
    };
  }
  // Not an input at all: reading it fails, as reading a failed stream does.
  return {
    next: () => Promise.reject(new TypeError('the input is not bytes, text, a stream or chunks')),
    close: () => {},
  };
}

function streamChunks(stream: ReadableStream<Uint8Array>): ChunkSource {
  const reader = stream.getReader();
  let finished = false;
  return {
    next: async () => {
      if (finished) return null;
      const { value, done } = await reader.read();
      if (done) finished = true;
      return done ? null : value;
    },
    close: () => {
      if (finished) return;
      finished = true;
      // Cancelling settles a pending read, so nothing is left waiting.
      reader.cancel().catch(() => {});
    },
  };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** {@link gunzipIfNeeded}'s source, and what it found. */
export interface InflatingSource extends ChunkSource {
  /** True once the input turned out to be gzip. */
  gzipped(): boolean;
  /** True when bytes that are not gzip followed the last gzip member (they were ignored). */
  trailingData(): boolean;
}

/**
 * Inflates the source when its first two bytes are the gzip magic (whatever the file name or
 * Content-Type says), else passes it through. Every member of a multi-member file is read
 * (`cat a.gz b.gz`). Where Node's zlib is at hand it does the inflating; elsewhere the Web
 * `DecompressionStream`, which reads a first member only. `zlib` is for tests; left out,
 * Node's zlib is loaded only once the input turns out to be gzip (loading it costs a plain
 * XML read ~1 ms and ~0.5 MB).
 */
export function gunzipIfNeeded(source: ChunkSource, zlib?: ZlibModule | null): InflatingSource {
  let inner: ChunkSource | null = null;
  let gzipped = false;
  let members: GzipMembers | null = null;
  let closed = false;
  const decide = async (): Promise<ChunkSource> => {
    const head: Uint8Array[] = [];
    let headLength = 0;
    let ended = false;
    while (headLength < 2) {
      const chunk = await source.next();
      if (chunk === null) {
        ended = true;
        break;
      }
      if (typeof chunk === 'string') {
        // Text was given: no gzip to look for.
        return prefixed([...head, chunk], source);
      }
      head.push(chunk);
      headLength += chunk.length;
    }
    const first = concatBytes(head, headLength);
    gzipped = first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
    const all = prefixed(first.length > 0 ? [first] : [], ended ? null : source, true);
    if (!gzipped) return all;
    const inflater = zlib === undefined ? nodeZlib() : zlib;
    if (inflater === null) return new WebGunzip(all);
    members = new GzipMembers(all, inflater);
    return members;
  };
  return {
    async next() {
      if (closed) return null;
      inner ??= await decide();
      return inner.next();
    },
    close() {
      closed = true;
      if (inner === null) source.close();
      else inner.close();
    },
    gzipped: () => gzipped,
    trailingData: () => members?.trailingData === true,
  };
}

/** `head`, then the rest of `source` (text after bytes encoded as UTF-8 when `bytesOnly`). */
function prefixed(head: Chunk[], source: ChunkSource | null, bytesOnly = false): ChunkSource {
  let at = 0;
  const encoder = new TextEncoder();
  return {
    async next() {
      if (at < head.length) return head[at++] as Chunk;
      const chunk = source === null ? null : await source.next();
      return bytesOnly && typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    },
    close() {
      at = head.length;
      source?.close();
    },
  };
}
