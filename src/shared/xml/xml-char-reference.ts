/** `scan` found no valid reference: the `&` is literal text. */
export const NOT_A_REFERENCE = -1;
/** `scan` reached the end of the chunk before the reference ended. */
export const UNFINISHED = -2;

const START = 0;
const NAMED = 1;
const NUMERIC = 2;
const DECIMAL = 3;
const HEX = 4;

/** Past the last code point; larger values are clamped here (they decode to U+FFFD anyway). */
const TOO_LARGE = 0x11_0000;

/**
 * The five XML entities as a tiny trie over their names: node -> decoded text ('' for an
 * inner node). Node 0 is the root; see `nextNode`.
 */
const ENTITY_TEXT = ['', '', '', '&', '', '', "'", '', '>', '', '<', '', '', '', '"'];

function nextNode(node: number, c: number): number {
  switch (node) {
    case 0:
      return c === 0x61 ? 1 : c === 0x67 ? 7 : c === 0x6c ? 9 : c === 0x71 ? 11 : -1; // a g l q
    case 1:
      return c === 0x6d ? 2 : c === 0x70 ? 4 : -1; // am ap
    case 2:
      return c === 0x70 ? 3 : -1; // amp
    case 4:
    case 12:
      return c === 0x6f ? node + 1 : -1; // apo quo
    case 5:
      return c === 0x73 ? 6 : -1; // apos
    case 7:
    case 9:
    case 13:
      return c === 0x74 ? node + 1 : -1; // gt lt quot
    case 11:
      return c === 0x75 ? 12 : -1; // qu
    default:
      return -1;
  }
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * Decodes one XML character reference, resumably across chunks, exactly as htmlparser2 does
 * in XML mode (entities' strict decoding with its XML tree): `&amp;` `&lt;` `&gt;` `&quot;`
 * `&apos;`, and `&#N;` / `&#xN;`, each only with its `;`. NUL, surrogates and values past
 * U+10FFFF decode to U+FFFD. Anything else (`&nbsp;`, `&xxe;`, `&amp` without `;`) is not a
 * reference and stays literal text, so no entity is ever expanded from a DTD.
 *
 * @example
 * const reference = new CharReference();
 * reference.start();
 * reference.scan('a &amp; b', 3); // 7, and reference.text is '&'
 */
export class CharReference {
  /** The decoded text, once `scan` has returned an end position. */
  text = '';
  #kind = START;
  #node = 0;
  #value = 0;
  #digits = 0;

  /** Begins a new reference (call with the `&` just read). */
  start(): void {
    this.#kind = START;
    this.#node = 0;
    this.#value = 0;
    this.#digits = 0;
  }

  /**
   * Reads on from `at` (just after the `&`, or 0 in the chunk after an unfinished one).
   * Returns the position after the closing `;`, NOT_A_REFERENCE, or UNFINISHED.
   */
  scan(text: string, at: number): number {
    const length = text.length;
    let kind = this.#kind;
    let node = this.#node;
    let value = this.#value;
    let digits = this.#digits;
    for (let i = at; i < length; i++) {
      const c = text.charCodeAt(i);
      if (kind === START) {
        if (c === 0x23) {
          kind = NUMERIC;
          continue;
        }
        kind = NAMED;
      }
      if (kind === NAMED) {
        if (c === 0x3b) {
          this.text = ENTITY_TEXT[node] ?? '';
          return this.text === '' ? NOT_A_REFERENCE : i + 1;
        }
        node = nextNode(node, c);
        if (node < 0) return NOT_A_REFERENCE;
        continue;
      }
      if (kind === NUMERIC) {
        if ((c | 0x20) === 0x78) {
          kind = HEX;
          continue;
        }
        kind = DECIMAL;
      }
      const digit = kind === DECIMAL ? (c >= 0x30 && c <= 0x39 ? c - 0x30 : -1) : hexDigit(c);
      if (digit >= 0) {
        value = Math.min(value * (kind === DECIMAL ? 10 : 16) + digit, TOO_LARGE);
        digits++;
        continue;
      }
      if (c !== 0x3b || digits === 0) return NOT_A_REFERENCE;
      const invalid = value === 0 || (value >= 0xd800 && value <= 0xdfff) || value >= TOO_LARGE;
      this.text = String.fromCodePoint(invalid ? 0xfffd : value);
      return i + 1;
    }
    this.#kind = kind;
    this.#node = node;
    this.#value = value;
    this.#digits = digits;
    return UNFINISHED;
  }
}
