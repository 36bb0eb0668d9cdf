// gzip through the Web DecompressionStream, for runtimes without Node's zlib.

import type { Chunk, ChunkSource } from './byte-source.ts';

/**
 * gzip through the Web `DecompressionStream`, for runtimes without zlib. It reads one member:
 * data after it fails the read (with what came before kept).
 */
export class WebGunzip implements ChunkSource {
  readonly #source: ChunkSource;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #pump: Promise<void>;
  #closed = false;

  constructor(source: ChunkSource) {
    this.#source = source;
    const stream = new DecompressionStream('gzip');
    const writer = stream.writable.getWriter();
    this.#reader = stream.readable.getReader();
    const encoder = new TextEncoder();
    this.#pump = (async () => {
      try {
        for (;;) {
          const chunk = await source.next();
          if (chunk === null) break;
          const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
          await writer.write(bytes as Uint8Array<ArrayBuffer>);
        }
        await writer.close();
      } catch (error) {
        await writer.abort(error).catch(() => {});
      }
    })();
  }

  async next(): Promise<Chunk | null> {
    if (this.#closed) return null;
    const { value, done } = await this.#reader.read();
    return done ? null : value;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.cancel().catch(() => {});
    this.#source.close();
    this.#pump.catch(() => {});
  }
}
