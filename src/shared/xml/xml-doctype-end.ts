// Where a `<!DOCTYPE ...>` declaration ends, read the way XML defines it rather than at the
// first `>`: quoted literals (`SYSTEM "a>b"`) and the internal subset (`[ ... ]`, with its
// own literals, comments and processing instructions) may hold `>`, `<` and `]`. Nothing in
// the declaration is interpreted: it is only skipped, so no entity is ever declared or
// expanded. An internal subset that is never closed must not swallow the document: a `<`
// starting a tag (a letter, `_`, `:`, `/` or non-ASCII after it) where only declarations may
// stand ends the declaration before that `<`.

/** `scan` reached the end of the chunk before the declaration ended. */
export const DOCTYPE_UNFINISHED = -1;
/** `scan` found a tag where the declaration should have ended: see `lessThan`. */
export const DOCTYPE_CUT_BEFORE_TAG = -2;

const TOP = 0;
const TOP_DOUBLE = 1;
const TOP_SINGLE = 2;
const TOP_LESS_THAN = 3;
const SUBSET = 4;
const SUBSET_DOUBLE = 5;
const SUBSET_SINGLE = 6;
const SUBSET_LESS_THAN = 7;
const SUBSET_BANG = 8;
const SUBSET_BANG_DASH = 9;
const SUBSET_COMMENT = 10;
const SUBSET_INSTRUCTION = 11;
const AFTER_SUBSET = 12;

const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const DASH = 0x2d;
const BANG = 0x21;
const SLASH = 0x2f;
const LESS_THAN = 0x3c;
const GT = 0x3e;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A character after `<` that makes it a start or end tag, not markup a DTD may hold. */
function startsTag(c: number): boolean {
  const lower = c | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || c === 0x5f || c === 0x3a || c === SLASH || c >= 0x80;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
}

/**
 * A resumable scanner for the rest of a DOCTYPE declaration, from just after its name.
 *
 * @example
 * const end = new DoctypeEnd();
 * end.start();
 * end.scan(' urlset [<!ENTITY a "x>y">]><urlset/>', 0); // 28, just after `]>`
 */
export class DoctypeEnd {
  /** Index in the last chunk scanned of the `[` that opened the internal subset, else -1. */
  subsetOpenedAt = -1;
  /**
   * After DOCTYPE_CUT_BEFORE_TAG: index in the last chunk of the `<` the declaration was cut
   * before (-1 when that `<` ended the chunk before).
   */
  lessThan = -1;
  #state = TOP;
  /** Dashes (comment) or a question mark (instruction) seen towards the end sequence. */
  #progress = 0;

  start(): void {
    this.#state = TOP;
    this.#progress = 0;
  }

  /**
   * Reads on from `from`. Returns the position just after the closing `>`,
   * DOCTYPE_UNFINISHED, or DOCTYPE_CUT_BEFORE_TAG.
   */
  scan(text: string, from: number): number {
    this.subsetOpenedAt = -1;
    const length = text.length;
    let state = this.#state;
    let progress = this.#progress;
    let i = from;
    while (i < length) {
      // The long stretches (literals, comments, instructions) are crossed with indexOf.
      if (state === TOP_DOUBLE || state === SUBSET_DOUBLE) {
        const quote = text.indexOf('"', i);
        if (quote < 0) break;
        state = state === TOP_DOUBLE ? TOP : SUBSET;
        i = quote + 1;
        continue;
      }
      if (state === TOP_SINGLE || state === SUBSET_SINGLE) {
        const quote = text.indexOf("'", i);
        if (quote < 0) break;
        state = state === TOP_SINGLE ? TOP : SUBSET;
        i = quote + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      switch (state) {
        case TOP:
          if (c === GT) return this.#ended(i + 1);
          if (c === DOUBLE_QUOTE) state = TOP_DOUBLE;
          else if (c === SINGLE_QUOTE) state = TOP_SINGLE;
          else if (c === LESS_THAN) state = TOP_LESS_THAN;
          else if (c === OPEN_BRACKET) {
            state = SUBSET;
            this.subsetOpenedAt = i;
          }
          i++;
          break;
        case TOP_LESS_THAN:
        case SUBSET_LESS_THAN:
          if (startsTag(c)) {
            this.lessThan = i - 1;
            this.#state = TOP;
            return DOCTYPE_CUT_BEFORE_TAG;
          }
          if (state === TOP_LESS_THAN) {
            // Not a tag: this character is read again as part of the declaration.
            state = TOP;
          } else if (c === BANG) {
            state = SUBSET_BANG;
            i++;
          } else if (c === QUESTION) {
            state = SUBSET_INSTRUCTION;
            progress = 0;
            i++;
          } else {
            state = SUBSET;
          }
          break;
        case SUBSET:
          if (c === DOUBLE_QUOTE) state = SUBSET_DOUBLE;
          else if (c === SINGLE_QUOTE) state = SUBSET_SINGLE;
          else if (c === LESS_THAN) state = SUBSET_LESS_THAN;
          else if (c === CLOSE_BRACKET) state = AFTER_SUBSET;
          i++;
          break;
        case SUBSET_BANG:
          if (c === DASH) {
            state = SUBSET_BANG_DASH;
            i++;
          } else {
            // A markup declaration (`<!ENTITY`, `<!ELEMENT` ...): its literals are read as such.
            state = SUBSET;
          }
          break;
        case SUBSET_BANG_DASH:
          if (c === DASH) {
            state = SUBSET_COMMENT;
            progress = 0;
            i++;
          } else {
            state = SUBSET;
          }
          break;
        case SUBSET_COMMENT: {
          if (progress === 0) {
            const dash = text.indexOf('-', i);
            if (dash < 0) {
              i = length;
              break;
            }
            i = dash;
          }
          const d = text.charCodeAt(i++);
          if (d === DASH) progress = Math.min(progress + 1, 2);
          else if (d === GT && progress === 2) state = SUBSET;
          else progress = 0;
          break;
        }
        case SUBSET_INSTRUCTION: {
          if (progress === 0) {
            const question = text.indexOf('?', i);
            if (question < 0) {
              i = length;
              break;
            }
            i = question;
          }
          const q = text.charCodeAt(i++);
          if (q === QUESTION) progress = 1;
          else if (q === GT && progress === 1) state = SUBSET;
          else progress = 0;
          break;
        }
        case AFTER_SUBSET:
          if (c === GT) return this.#ended(i + 1);
          if (!isSpace(c)) state = TOP;
          else i++;
          break;
        default:
          i = length;
          break;
      }
    }
    this.#state = state;
    this.#progress = progress;
    return DOCTYPE_UNFINISHED;
  }

  #ended(at: number): number {
    this.#state = TOP;
    this.#progress = 0;
    return at;
  }
}
