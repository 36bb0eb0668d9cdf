const BANG = 0x21;
const DASH = 0x2d;
const GT = 0x3e;
const QUESTION = 0x3f;
const BRACKET = 0x5d;

/**
 * Finds where a comment, a CDATA section or a processing instruction ends, resumably across
 * chunks, with the same steps (and so the same answers on odd input) as htmlparser2 in XML
 * mode: a comment ends at the first `-->` or `--!>` after `<!--`, CDATA at the first `]]>`,
 * an instruction at the first `?>` after `<?`. It jumps with `indexOf` to the first character
 * of the end sequence and steps only from there. Each method returns the position just after
 * the end sequence, or -1 when the chunk ends first (the progress so far is kept).
 *
 * @example
 * const end = new SectionEnd();
 * end.start();
 * end.comment('<!-- a -- b -', 4); // -1
 * end.comment('->after', 0); // 2
 */
export class SectionEnd {
  /** How much of the end sequence the last characters read match, as htmlparser2 counts it. */
  #progress = 0;

  /** Begins a new section. */
  start(): void {
    this.#progress = 0;
  }

  comment(text: string, from: number): number {
    const length = text.length;
    let progress = this.#progress;
    let i = from;
    while (i < length) {
      if (progress === 0) {
        const dash = text.indexOf('-', i);
        if (dash < 0) break;
        progress = 1;
        i = dash + 1;
        continue;
      }
      const c = text.charCodeAt(i++);
      // 1: `-`, 2: `--` (or more dashes), 3: `--!`.
      if (c === GT && progress >= 2) {
        this.#progress = 0;
        return i;
      }
      if (progress === 3) progress = c === DASH ? 1 : 0;
      else if (progress === 2) progress = c === BANG ? 3 : c === DASH ? 2 : 0;
      else progress = c === DASH ? 2 : 0;
    }
    this.#progress = progress;
    return -1;
  }

  cdata(text: string, from: number): number {
    const length = text.length;
    let progress = this.#progress;
    let i = from;
    while (i < length) {
      if (progress === 0) {
        const bracket = text.indexOf(']', i);
        if (bracket < 0) break;
        progress = 1;
        i = bracket + 1;
        continue;
      }
      const c = text.charCodeAt(i++);
      // 1: `]`, 2: `]]` (or more).
      if (c === GT && progress === 2) {
        this.#progress = 0;
        return i;
      }
      progress = c === BRACKET ? 2 : 0;
    }
    this.#progress = progress;
    return -1;
  }

  instruction(text: string, from: number): number {
    const length = text.length;
    let progress = this.#progress;
    let i = from;
    while (i < length) {
      if (progress === 0) {
        const question = text.indexOf('?', i);
        if (question < 0) break;
        progress = 1;
        i = question + 1;
        continue;
      }
      const c = text.charCodeAt(i++);
      if (c === GT) {
        this.#progress = 0;
        return i;
      }
      progress = c === QUESTION ? 1 : 0;
    }
    this.#progress = progress;
    return -1;
  }
}
