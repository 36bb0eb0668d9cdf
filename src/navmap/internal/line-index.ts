/** Turns offsets in a text into 1-based lines and columns. */
export class LineIndex {
  /** Offset of each line's first character. */
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1))
      this.#starts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    const starts = this.#starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] as number) + 1 };
  }
}
