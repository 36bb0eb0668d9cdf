import { Buffer } from 'node:buffer';
/**
 * Buffers of one size, handed out and given back: a response written from it allocates
 * nothing once warm, and its memory is not left for the garbage collector to find.
 */
export class BufferPool {
  readonly size: number;
  readonly #free: Uint8Array[] = [];
  readonly #keep: number;

  /** `keep`: at most this many idle buffers are held (the rest are let go). */
  constructor(size: number, keep: number) {
    this.size = size;
    this.#keep = keep;
  }

  /** A buffer of at least `size` bytes (a pooled one when it fits). */
  take(size: number): Uint8Array {
    if (size > this.size) return Buffer.allocUnsafeSlow(size);
    return this.#free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives a buffer back once nothing refers to its bytes any more. */
  give(buffer: Uint8Array): void {
    if (
      buffer.byteLength === this.size &&
      buffer.byteOffset === 0 &&
      this.#free.length < this.#keep
    )
      this.#free.push(buffer);
  }
}
