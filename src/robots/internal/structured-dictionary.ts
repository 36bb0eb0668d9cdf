// A Structured Fields Dictionary reader (RFC 9651 section 4.2.2), as the AI preference
// vocabulary requires its statements to be read (draft-ietf-aipref-vocab-08 section 6.5).
// Written by hand, one pass over the text, no regular expressions: a usage statement is
// untrusted input on a robots.txt line of up to 16 KB.

/** The kind of a member's value, as RFC 9651 types it. */
export type DictionaryValueKind =
  | 'token'
  | 'string'
  | 'number'
  | 'boolean'
  | 'byte-sequence'
  | 'date'
  | 'display-string'
  | 'inner-list';

export interface DictionaryMember {
  readonly key: string;
  readonly kind: DictionaryValueKind;
  /** The value as written (`n`, `"n"`, `?1`); `?1` for a key written without `=`. */
  readonly text: string;
}

/**
 * The members in order of first appearance; a key written twice keeps its last value, as
 * RFC 9651 says. `duplicates` names keys written more than once. `error` is null when the
 * text is a valid Dictionary, else says where it is not (and `members` is empty: a Dictionary
 * that fails to parse expresses nothing).
 */
export interface ParsedDictionary {
  readonly members: readonly DictionaryMember[];
  readonly duplicates: readonly string[];
  readonly error: string | null;
}

class DictionaryError extends Error {}

const TCHAR_EXTRA = "!#$%&'*+-.^_`|~";

function isLcAlpha(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isAlpha(c: number): boolean {
  return isLcAlpha(c) || (c >= 0x41 && c <= 0x5a);
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isKeyChar(c: number): boolean {
  return isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a;
}
function isTokenChar(c: number): boolean {
  // tchar (RFC 9110), plus ":" and "/".
  return (
    isAlpha(c) ||
    isDigit(c) ||
    c === 0x3a ||
    c === 0x2f ||
    (c < 0x80 && TCHAR_EXTRA.includes(String.fromCharCode(c)))
  );
}
function isBase64Char(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d;
}

class Reader {
  pos = 0;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): number {
    return this.text.charCodeAt(this.pos);
  }
  fail(what: string): never {
    throw new DictionaryError(
      this.done ? `${what} at the end` : `${what} at character ${this.pos + 1}`,
    );
  }
  skipSpaces(): void {
    while (!this.done && this.peek() === 0x20) this.pos++;
  }
  skipOws(): void {
    while (!this.done && (this.peek() === 0x20 || this.peek() === 0x09)) this.pos++;
  }

  key(): string {
    const start = this.pos;
    if (this.done || !(isLcAlpha(this.peek()) || this.peek() === 0x2a)) {
      this.fail('expected a key (lower-case letters, digits, "_", "-", ".", "*")');
    }
    while (!this.done && isKeyChar(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** An Item or Inner List, with its parameters; returns its kind. */
  itemOrInnerList(): DictionaryValueKind {
    if (this.peek() === 0x28) {
      this.innerList();
      return 'inner-list';
    }
    const kind = this.bareItem();
    this.parameters();
    return kind;
  }

  innerList(): void {
    this.pos++; // "("
    for (;;) {
      this.skipSpaces();
      if (this.done) this.fail('unterminated inner list');
      if (this.peek() === 0x29) {
        this.pos++;
        this.parameters();
        return;
      }
      this.bareItem();
      this.parameters();
      if (this.done) this.fail('unterminated inner list');
      const c = this.peek();
      if (c !== 0x20 && c !== 0x29) this.fail('expected a space or ")" in an inner list');
    }
  }

  parameters(): void {
    while (!this.done && this.peek() === 0x3b) {
      this.pos++;
      this.skipSpaces();
      this.key();
      if (!this.done && this.peek() === 0x3d) {
        this.pos++;
        this.bareItem();
      }
    }
  }

  bareItem(): DictionaryValueKind {
    if (this.done) this.fail('expected a value');
    const c = this.peek();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return this.string();
    if (isAlpha(c) || c === 0x2a) return this.token();
    if (c === 0x3a) return this.byteSequence();
    if (c === 0x3f) return this.boolean();
    if (c === 0x40) {
      this.pos++;
      this.number();
      return 'date';
    }
    if (c === 0x25) return this.displayString();
    this.fail('expected a value');
  }

  number(): DictionaryValueKind {
    if (this.peek() === 0x2d) this.pos++;
    let digits = 0;
    let dot = -1;
    while (!this.done) {
      const c = this.peek();
      if (isDigit(c)) digits++;
      else if (c === 0x2e && dot < 0 && digits > 0 && digits <= 12) dot = digits;
      else break;
      this.pos++;
      if (dot < 0 ? digits > 15 : digits > 15 || digits - dot > 3) this.fail('number too long');
    }
    if (digits === 0 || dot === digits) this.fail('malformed number');
    return 'number';
  }

  string(): DictionaryValueKind {
    this.pos++;
    for (;;) {
      if (this.done) this.fail('unterminated string');
      const c = this.peek();
      this.pos++;
      if (c === 0x22) return 'string';
      if (c === 0x5c) {
        if (this.done || (this.peek() !== 0x22 && this.peek() !== 0x5c)) {
          this.fail('invalid escape in a string');
        }
        this.pos++;
      } else if (c < 0x20 || c > 0x7e) {
        this.fail('invalid character in a string');
      }
    }
  }

  token(): DictionaryValueKind {
    this.pos++;
    while (!this.done && isTokenChar(this.peek())) this.pos++;
    return 'token';
  }

  byteSequence(): DictionaryValueKind {
    this.pos++;
    while (!this.done && isBase64Char(this.peek())) this.pos++;
    if (this.done || this.peek() !== 0x3a) this.fail('unterminated byte sequence');
    this.pos++;
    return 'byte-sequence';
  }

  boolean(): DictionaryValueKind {
    this.pos++;
    const c = this.peek();
    if (c !== 0x30 && c !== 0x31) this.fail('expected ?0 or ?1');
    this.pos++;
    return 'boolean';
  }

  displayString(): DictionaryValueKind {
    this.pos++;
    if (this.peek() !== 0x22) this.fail('expected a quote after %');
    this.pos++;
    for (;;) {
      if (this.done) this.fail('unterminated display string');
      const c = this.peek();
      this.pos++;
      if (c === 0x22) return 'display-string';
      if (c < 0x20 || c > 0x7e) this.fail('invalid character in a display string');
    }
  }
}

/**
 * Reads `text` as an RFC 9651 Dictionary. Total and linear; never throws.
 *
 * @example
 * ```ts
 * parseDictionary('train-ai=n, search=y').members; // [{ key: 'train-ai', kind: 'token', text: 'n' }, ...]
 * ```
 */
export function parseDictionary(text: string): ParsedDictionary {
  const reader = new Reader(text);
  const byKey = new Map<string, DictionaryMember>();
  const duplicates: string[] = [];
  try {
    reader.skipSpaces();
    while (!reader.done) {
      const key = reader.key();
      let member: DictionaryMember;
      if (!reader.done && reader.peek() === 0x3d) {
        reader.pos++;
        const start = reader.pos;
        const kind = reader.itemOrInnerList();
        member = { key, kind, text: text.slice(start, reader.pos) };
      } else {
        reader.parameters();
        member = { key, kind: 'boolean', text: '?1' };
      }
      if (byKey.has(key)) {
        if (!duplicates.includes(key)) duplicates.push(key);
        // RFC 9651: the last value wins but the key keeps its first position.
      }
      byKey.set(key, member);
      reader.skipOws();
      if (reader.done) break;
      if (reader.peek() !== 0x2c) reader.fail('expected "," between members');
      reader.pos++;
      reader.skipOws();
      if (reader.done) reader.fail('a "," with no member after it');
    }
  } catch (error) {
    if (!(error instanceof DictionaryError)) throw error;
    return { members: [], duplicates: [], error: error.message };
  }
  return { members: [...byKey.values()], duplicates, error: null };
}
