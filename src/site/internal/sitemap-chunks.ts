import { Buffer } from 'node:buffer';
import { OriginGaps } from './origin-gaps.ts';
import type { SitemapLayout, SitemapLines, SitemapPart } from './sitemap-lines.ts';

/**
 * The size a chunk of a sitemap is cut to: large enough that writing it costs one system
 * call for many entries, small enough that a pool of them stays a few megabytes.
 */
export const CHUNK_BYTES = 1024 * 1024;

/** Gives a buffer of at least `size` bytes for the next chunk. */
export type TakeBuffer = (size: number) => Uint8Array;

/**
 * One part's bytes, chunk by chunk, written into buffers the caller gives: the writer's
 * head, then per entry the origin piece and the entry's rest, then the writer's tail.
 * Each chunk is one copy of the entries' spaced-out bytes (`layout.spaced`) and one small
 * copy of the origin into each gap: no string is built, nothing outlives the request.
 * Altogether exactly the `bytes` the layout counted.
 */
export class SitemapPartChunks {
  readonly #lines: SitemapLines;
  readonly #layout: SitemapLayout;
  readonly #part: SitemapPart;
  readonly #gaps: OriginGaps;
  #next: number;
  #total = 0;
  #done = false;

  constructor(lines: SitemapLines, layout: SitemapLayout, part: SitemapPart, piece: Uint8Array) {
    this.#lines = lines;
    this.#layout = layout;
    this.#part = part;
    this.#gaps = new OriginGaps(piece);
    this.#next = part.start;
  }

  /** The next chunk, a view of the buffer `take` gave, exactly its size; null at the end. */
  next(take: TakeBuffer): Uint8Array | null {
    if (this.#done) return null;
    const { spaced, spacedAt } = this.#layout;
    const { headBytes, tailBytes } = this.#lines;
    const part = this.#part;
    const start = this.#next;
    const first = start === part.start;
    const end = chunkEnd(
      spacedAt,
      start,
      part.end,
      CHUNK_BYTES - headBytes.length - tailBytes.length,
    );
    const last = end === part.end;
    const from = spacedAt[start] as number;
    const to = spacedAt[end] as number;
    const size = to - from + (first ? headBytes.length : 0) + (last ? tailBytes.length : 0);
    const out = take(size).subarray(0, size);
    let at = 0;
    if (first) {
      out.set(headBytes, 0);
      at = headBytes.length;
    }
    const base = at - from;
    spaced.copy(out, at, from, to);
    // Each gap gets the origin; a skipped entry has none (its next entry starts where it does).
    this.#gaps.fill(out, base, spacedAt, start, end);
    if (last) out.set(tailBytes, size - tailBytes.length);
    this.#total += size;
    this.#next = end;
    if (last) {
      this.#done = true;
      if (this.#total !== part.bytes)
        throw new Error(`sitemap part is ${this.#total} bytes, laid out as ${part.bytes}`);
    }
    return out;
  }
}

/** A fresh buffer per chunk: for consumers that keep what they are given. */
export const freshBuffer: TakeBuffer = (size) => Buffer.allocUnsafe(size);

/**
 * One part's chunks, each in a buffer of its own. The same bytes as
 * {@link SitemapPartChunks} with pooled buffers.
 */
export function* sitemapPartChunks(
  lines: SitemapLines,
  layout: SitemapLayout,
  part: SitemapPart,
  piece: string,
): Generator<Uint8Array> {
  const chunks = new SitemapPartChunks(lines, layout, part, Buffer.from(piece));
  for (;;) {
    const chunk = chunks.next(freshBuffer);
    if (chunk === null) return;
    yield chunk;
  }
}

/** The end of the chunk from `start`: the last entry that keeps it within `limit` bytes. */
function chunkEnd(at: Uint32Array, start: number, end: number, limit: number): number {
  const base = at[start] as number;
  const fits = (i: number): boolean => (at[i] as number) - base <= limit;
  if (fits(end)) return end;
  let low = start + 1; // always at least one entry
  let high = end;
  while (low + 1 < high) {
    const mid = (low + high) >>> 1;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
