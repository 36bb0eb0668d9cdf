// A gzip member's header (RFC 1952, section 2.3), read a byte at a time: it is short, but
// may be split across chunks anywhere, and its optional fields have any length.

const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/** A gzip member header read a byte at a time (it is short, but may be split anywhere). */
export class GzipHeader {
  #read = 0;
  #flags = 0;
  /** Bytes of the current variable field (FEXTRA's length, then its data) still to skip. */
  #extraLength = 0;
  #extraLeft = -1;
  #step: 'fixed' | 'extra-length' | 'extra' | 'name' | 'comment' | 'crc' | 'done' = 'fixed';

  reset(): void {
    this.#read = 0;
    this.#flags = 0;
    this.#extraLeft = -1;
    this.#step = 'fixed';
  }

  get done(): boolean {
    return this.#step === 'done';
  }

  /** True once nothing of the header has been read yet. */
  get empty(): boolean {
    return this.#read === 0;
  }

  /** Reads from `at`; returns where it stopped (the header is done, or the chunk ended). */
  read(bytes: Uint8Array, at: number): number {
    let i = at;
    while (i < bytes.length && this.#step !== 'done') {
      const b = bytes[i++] as number;
      const n = this.#read++;
      switch (this.#step) {
        case 'fixed':
          if ((n === 0 && b !== 0x1f) || (n === 1 && b !== 0x8b)) {
            throw new Error('not a gzip member header');
          }
          if (n === 2 && b !== 8) throw new Error('unknown compression method');
          if (n === 3) this.#flags = b;
          if (n === 9) this.#next('fixed');
          break;
        case 'extra-length':
          if (this.#extraLeft < 0) {
            this.#extraLength = b;
            this.#extraLeft = 1;
          } else {
            this.#extraLength |= b << 8;
            this.#extraLeft = this.#extraLength;
            this.#step = 'extra';
            if (this.#extraLeft === 0) this.#next('extra');
          }
          break;
        case 'extra':
          if (--this.#extraLeft === 0) this.#next('extra');
          break;
        case 'name':
          if (b === 0) this.#next('name');
          break;
        case 'comment':
          if (b === 0) this.#next('comment');
          break;
        case 'crc':
          if (--this.#extraLeft === 0) this.#next('crc');
          break;
        default:
          break;
      }
    }
    return i;
  }

  /** The step after `step`, as the flags say. */
  #next(step: 'fixed' | 'extra' | 'name' | 'comment' | 'crc'): void {
    const order = ['fixed', 'extra', 'name', 'comment', 'crc'] as const;
    const flags = [0, FEXTRA, FNAME, FCOMMENT, FHCRC];
    for (let k = order.indexOf(step) + 1; k < order.length; k++) {
      if ((this.#flags & (flags[k] as number)) === 0) continue;
      const next = order[k] as (typeof order)[number];
      this.#step = next === 'extra' ? 'extra-length' : next;
      this.#extraLeft = next === 'crc' ? 2 : -1;
      return;
    }
    this.#step = 'done';
  }
}
