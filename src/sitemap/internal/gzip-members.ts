// gzip, member by member (RFC 1952): a file made by `cat a.gz b.gz` holds two members, and
// both are read. The framing (header, trailer, what follows the last member) is read here;
// each member's deflate data goes to Node's zlib, which says how much of its input the data
// took, so the next member is found exactly, the CRC and size are checked, and bytes after
// the last member are noticed (and ignored) instead of failing the whole read. zlib comes
// through `process.getBuiltinModule`, so nothing here imports `node:` and the module still
// loads where there is no zlib; there the Web DecompressionStream inflates, which stops with
// an error after a first member.

import type { Chunk, ChunkSource } from './byte-source.ts';
import { GzipHeader } from './gzip-header.ts';

/** The part of node:zlib used here. */
export interface ZlibModule {
  createInflateRaw(options?: { readonly chunkSize?: number }): Inflater;
  crc32?(data: Uint8Array, value?: number): number;
}

/** The part of a zlib InflateRaw stream used here. */
export interface Inflater {
  readonly bytesWritten: number;
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/** Node's zlib where the runtime has one, else null. */
export function nodeZlib(): ZlibModule | null {
  const runtime = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } } | undefined
  )?.process;
  if (typeof runtime?.getBuiltinModule !== 'function') return null;
  try {
    return (runtime.getBuiltinModule('node:zlib') as ZlibModule | undefined) ?? null;
  } catch {
    return null;
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Inflated bytes per write to zlib, roughly: the compressed piece written is sized from the
 * ratio seen so far, so a gzip bomb (1 KB inflating to 1 MB) is fed a few hundred bytes at a
 * time and never inflates more than this much beyond what the reader asked for. zlib's
 * output buffer is as large, so one write is one trip to zlib's thread, made while the
 * reader parses the output of the last one (a trip needs the main thread to start the next,
 * and the main thread is busy parsing). Measured on the 1,000,000-URL gzip file: 16 KiB
 * (zlib's default) left the reader waiting for zlib a quarter of the time; 128 KiB reads it
 * about 15% faster than the DecompressionStream did, for some 10 MB more peak memory (zlib's
 * output buffers); 256 KiB was no faster and took 10 MB more again.
 */
const OUTPUT_PER_WRITE = 128 * 1024;
const MIN_PIECE = 64;
const MAX_PIECE = 64 * 1024;

const HEADER = 0;
const BODY = 1;
const TRAILER = 2;
/** After a member: more members, zero padding, or the end. */
const BETWEEN = 3;

/** Every member of a gzip stream, inflated by zlib. */
export class GzipMembers implements ChunkSource {
  /** True when bytes that are not gzip followed the last member. */
  trailingData = false;
  readonly #source: ChunkSource;
  readonly #zlib: ZlibModule;
  readonly #encoder = new TextEncoder();
  /** The compressed chunk being read, and how far. */
  #chunk: Uint8Array = EMPTY;
  #at = 0;
  #sourceDone = false;
  /** Inflated chunks not yet handed out. */
  #ready: Uint8Array[] = [];
  #readyAt = 0;
  #phase = HEADER;
  #members = 0;
  readonly #header = new GzipHeader();
  #inflater: Inflater | null = null;
  /** Compressed bytes written to the current inflater. */
  #fed = 0;
  #memberEnded = false;
  #failed: ((error: Error) => void) | null = null;
  #error: Error | null = null;
  #crc = 0;
  #size = 0;
  readonly #trailer = new Uint8Array(8);
  #trailerLength = 0;
  #piece = 1024;
  #done = false;
  /** A step started ahead, while the reader parses what came before; null once settled. */
  #ahead: Promise<void> | null = null;
  /** What a step started ahead failed with, thrown once what came before is handed out. */
  #aheadError: unknown = null;
  /** Inflated bytes waiting in `#ready`. */
  #readyBytes = 0;

  constructor(source: ChunkSource, zlib: ZlibModule) {
    this.#source = source;
    this.#zlib = zlib;
  }

  async next(): Promise<Chunk | null> {
    for (;;) {
      if (this.#readyAt < this.#ready.length) {
        const chunk = this.#ready[this.#readyAt] as Uint8Array;
        this.#ready[this.#readyAt++] = EMPTY;
        this.#readyBytes -= chunk.length;
        if (this.#readyAt === this.#ready.length) {
          this.#ready = [];
          this.#readyAt = 0;
        }
        this.#inflateAhead();
        return chunk;
      }
      if (this.#ahead !== null) {
        await this.#ahead;
        continue;
      }
      if (this.#aheadError !== null) throw this.#aheadError;
      if (this.#done) return null;
      await this.#work();
    }
  }

  /** One step: read a piece of the compressed input, or fetch more of it. */
  async #work(): Promise<void> {
    if (this.#at < this.#chunk.length) {
      await this.#step();
      return;
    }
    if (this.#sourceDone) {
      this.#finish();
      return;
    }
    const next = await this.#source.next();
    if (next === null) this.#sourceDone = true;
    else {
      this.#chunk = typeof next === 'string' ? this.#encoder.encode(next) : next;
      this.#at = 0;
    }
  }

  /**
   * Inside a member's data, starts the next step (fetching input, or a write to zlib, which
   * inflates on another thread) while the reader parses what is ready, as long as little
   * output is waiting.
   */
  #inflateAhead(): void {
    const inBody = this.#phase === BODY && (this.#at < this.#chunk.length || !this.#sourceDone);
    if (this.#ahead !== null || this.#done || !inBody || this.#readyBytes >= OUTPUT_PER_WRITE) {
      return;
    }
    this.#ahead = this.#work().then(
      () => {
        this.#ahead = null;
      },
      (error: unknown) => {
        this.#ahead = null;
        this.#aheadError = error;
      },
    );
  }

  close(): void {
    this.#done = true;
    this.#ready = [];
    this.#readyAt = 0;
    this.#readyBytes = 0;
    this.#inflater?.destroy();
    this.#inflater = null;
    this.#source.close();
  }

  /** The input ended: fine between members, a truncated file anywhere else. */
  #finish(): void {
    this.#done = true;
    this.#inflater?.destroy();
    this.#inflater = null;
    if (
      this.#phase === BETWEEN ||
      (this.#phase === HEADER && this.#header.empty && this.#members > 0)
    )
      return;
    throw new Error('the gzip data ends before its last member is complete');
  }

  async #step(): Promise<void> {
    const chunk = this.#chunk;
    switch (this.#phase) {
      case HEADER:
        this.#at = this.#header.read(chunk, this.#at);
        if (this.#header.done) this.#startBody();
        return;
      case BODY:
        await this.#inflate();
        return;
      case TRAILER:
        while (this.#at < chunk.length && this.#trailerLength < 8) {
          this.#trailer[this.#trailerLength++] = chunk[this.#at++] as number;
        }
        if (this.#trailerLength === 8) this.#checkTrailer();
        return;
      default: {
        // Zero bytes pad some files after the last member; anything else but a new member
        // is not gzip, and ends the reading.
        while (this.#at < chunk.length && chunk[this.#at] === 0) this.#at++;
        if (this.#at === chunk.length) return;
        if (chunk[this.#at] === 0x1f) {
          this.#phase = HEADER;
          this.#header.reset();
          return;
        }
        this.trailingData = true;
        this.#done = true;
        this.#source.close();
        return;
      }
    }
  }

  #startBody(): void {
    this.#phase = BODY;
    this.#fed = 0;
    this.#crc = 0;
    this.#size = 0;
    this.#memberEnded = false;
    const inflater = this.#zlib.createInflateRaw({ chunkSize: OUTPUT_PER_WRITE });
    inflater.on('data', (data) => {
      if (this.#inflater !== inflater) return;
      this.#ready.push(data);
      this.#readyBytes += data.length;
      this.#size += data.length;
      if (this.#zlib.crc32 !== undefined) this.#crc = this.#zlib.crc32(data, this.#crc);
    });
    inflater.on('end', () => {
      if (this.#inflater === inflater) this.#memberEnded = true;
    });
    inflater.on('error', (error) => {
      if (this.#inflater !== inflater) return;
      this.#error = error;
      this.#failed?.(error);
    });
    this.#inflater = inflater;
  }

  /**
   * Writes the next piece of deflate data and waits until zlib has handed out what it made
   * of it. When the member's data ends inside the piece, the rest goes back to the input.
   */
  async #inflate(): Promise<void> {
    const inflater = this.#inflater as Inflater;
    const piece = this.#chunk.subarray(this.#at, this.#at + this.#piece);
    this.#at += piece.length;
    const before = this.#size;
    await new Promise<void>((resolve, reject) => {
      if (this.#error !== null) {
        reject(this.#error);
        return;
      }
      this.#failed = reject;
      inflater.write(piece, (error) => (error ? reject(error) : resolve()));
    });
    this.#failed = null;
    this.#fed += piece.length;
    const ratio = (this.#size - before) / piece.length;
    this.#piece = Math.max(
      MIN_PIECE,
      Math.min(MAX_PIECE, Math.floor(OUTPUT_PER_WRITE / Math.max(ratio, 1))),
    );
    if (!this.#memberEnded) return;
    // What zlib did not take is the trailer (and what follows), and lies within this piece.
    this.#at -= this.#fed - inflater.bytesWritten;
    this.#inflater = null;
    inflater.destroy();
    this.#phase = TRAILER;
    this.#trailerLength = 0;
  }

  #checkTrailer(): void {
    const t = this.#trailer;
    const crc =
      ((t[0] as number) |
        ((t[1] as number) << 8) |
        ((t[2] as number) << 16) |
        ((t[3] as number) << 24)) >>>
      0;
    const size =
      ((t[4] as number) |
        ((t[5] as number) << 8) |
        ((t[6] as number) << 16) |
        ((t[7] as number) << 24)) >>>
      0;
    if (size !== this.#size % 2 ** 32) {
      throw new Error(`a gzip member holds ${this.#size} bytes, its trailer says ${size}`);
    }
    if (this.#zlib.crc32 !== undefined && crc !== this.#crc >>> 0) {
      throw new Error('a gzip member fails its CRC check');
    }
    this.#members++;
    this.#phase = BETWEEN;
  }
}
