/**
 * Writes a request's origin piece into each gap of a chunk of spaced-out sitemap entries.
 * A part has thousands of gaps, each a few dozen bytes: `Uint8Array.prototype.set` costs
 * ~16-30 ns a call there, while the piece as 8-byte words stored with `DataView.setFloat64`
 * costs ~3 ns a gap. A word is taken as a double only when it is not a NaN (whose payload
 * a store may not keep); the origin piece is ASCII, so that never happens in practice, and
 * any other piece, or one longer than eight words, is copied with `set` as before.
 */
export class OriginGaps {
  readonly #piece: Uint8Array;
  /** Word offsets and values; unused slots repeat the last word (writing it twice is harmless). */
  readonly #at = new Uint32Array(MAX_WORDS);
  readonly #word = new Float64Array(MAX_WORDS);
  /** 0: copy with `set`; else 4 or 8 words per gap. */
  readonly #words: number;

  constructor(piece: Uint8Array) {
    this.#piece = piece;
    this.#words = wordsFor(piece, this.#at, this.#word);
  }

  /**
   * For each entry i in [start, end) whose gap is not empty (spacedAt[i] < spacedAt[i + 1]),
   * the piece at byte `base + spacedAt[i]` of `out`.
   */
  fill(out: Uint8Array, base: number, spacedAt: Uint32Array, start: number, end: number): void {
    const piece = this.#piece;
    if (this.#words === 0) {
      for (let i = start; i < end; i++) {
        const gap = spacedAt[i] as number;
        if (gap !== spacedAt[i + 1]) out.set(piece, base + gap);
      }
      return;
    }
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const at = this.#at;
    const word = this.#word;
    const a0 = at[0] as number;
    const a1 = at[1] as number;
    const a2 = at[2] as number;
    const a3 = at[3] as number;
    const w0 = word[0] as number;
    const w1 = word[1] as number;
    const w2 = word[2] as number;
    const w3 = word[3] as number;
    if (this.#words === 4) {
      for (let i = start; i < end; i++) {
        const gap = spacedAt[i] as number;
        if (gap === spacedAt[i + 1]) continue;
        const p = base + gap;
        view.setFloat64(p + a0, w0, true);
        view.setFloat64(p + a1, w1, true);
        view.setFloat64(p + a2, w2, true);
        view.setFloat64(p + a3, w3, true);
      }
      return;
    }
    const a4 = at[4] as number;
    const a5 = at[5] as number;
    const a6 = at[6] as number;
    const a7 = at[7] as number;
    const w4 = word[4] as number;
    const w5 = word[5] as number;
    const w6 = word[6] as number;
    const w7 = word[7] as number;
    for (let i = start; i < end; i++) {
      const gap = spacedAt[i] as number;
      if (gap === spacedAt[i + 1]) continue;
      const p = base + gap;
      view.setFloat64(p + a0, w0, true);
      view.setFloat64(p + a1, w1, true);
      view.setFloat64(p + a2, w2, true);
      view.setFloat64(p + a3, w3, true);
      view.setFloat64(p + a4, w4, true);
      view.setFloat64(p + a5, w5, true);
      view.setFloat64(p + a6, w6, true);
      view.setFloat64(p + a7, w7, true);
    }
  }
}

const MAX_WORDS = 8;

/**
 * Splits `piece` into 8-byte words (the last one overlapping the one before when the
 * length is not a multiple of 8): 4 or 8 slots filled, or 0 when `set` must copy it.
 */
function wordsFor(piece: Uint8Array, at: Uint32Array, word: Float64Array): number {
  const length = piece.byteLength;
  if (length < 8) return 0;
  const view = new DataView(piece.buffer, piece.byteOffset, length);
  let n = 0;
  for (let offset = 0; offset + 8 <= length; offset += 8) {
    if (n === MAX_WORDS) return 0;
    at[n] = offset;
    word[n++] = view.getFloat64(offset, true);
  }
  if (length % 8 !== 0) {
    if (n === MAX_WORDS) return 0;
    at[n] = length - 8;
    word[n++] = view.getFloat64(length - 8, true);
  }
  for (let k = 0; k < n; k++) if (Number.isNaN(word[k])) return 0;
  const slots = n <= 4 ? 4 : MAX_WORDS;
  for (let k = n; k < slots; k++) {
    at[k] = at[n - 1] as number;
    word[k] = word[n - 1] as number;
  }
  return slots;
}
