// RFC 2774 §4.1, the `Opt` header (and `Man`, `C-Opt`, `C-Man`, which share its grammar):
//
//   Opt        = "Opt" ":" 1#ext-decl
//   ext-decl   = <"> ( absoluteURI | field-name ) <"> [ namespace ] [ ext-params ]
//   namespace  = ";" "ns" "=" header-prefix
//   header-prefix = 2*DIGIT
//   ext-params = *( ";" ext-param )
//   ext-param  = token [ "=" ( token | quoted-string ) ]
//
// with HTTP's implied linear whitespace between elements and empty list elements allowed.

/** One extension declaration of an `Opt` header. */
export interface ExtensionDeclaration {
  /** The extension's URI (or field name), unquoted. */
  readonly uri: string;
  /** The header prefix from `ns=NN`, or null when absent or not two or more digits. */
  readonly ns: string | null;
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const PREFIX = /^[0-9]{2,}$/;

/**
 * Reads every extension declaration of one or more `Opt` header values (several headers are
 * one list, joined with commas). Total: a declaration it cannot read is skipped up to the
 * next comma outside quotes, and parsing goes on.
 *
 * @example
 * ```ts
 * parseOptHeader('"http://standard-sitemap.org/2007/ns"; ns=42, "urn:x"; ns=07; q=1');
 * // [{ uri: 'http://standard-sitemap.org/2007/ns', ns: '42' }, { uri: 'urn:x', ns: '07' }]
 * ```
 */
export function parseOptHeader(value: string): ExtensionDeclaration[] {
  const out: ExtensionDeclaration[] = [];
  const reader = new ListReader(value);
  while (!reader.done()) {
    reader.skipSpace();
    if (reader.take(',')) continue;
    const declaration = readDeclaration(reader);
    if (declaration !== null) out.push(declaration);
    reader.skipToComma();
  }
  return out;
}

function readDeclaration(reader: ListReader): ExtensionDeclaration | null {
  // The URI is quoted; an unquoted one (a common mistake) is read up to `;`, `,` or space.
  const uri = reader.peek() === '"' ? reader.quoted() : reader.until(/[;,\s]/);
  if (uri === null || uri === '') return null;
  let ns: string | null = null;
  let nsSeen = false;
  for (;;) {
    reader.skipSpace();
    if (!reader.take(';')) break;
    reader.skipSpace();
    const name = reader.token();
    if (name === '') break;
    reader.skipSpace();
    let parameter = '';
    if (reader.take('=')) {
      reader.skipSpace();
      parameter = (reader.peek() === '"' ? reader.quoted() : reader.token()) ?? '';
    }
    // The first `ns` counts; a later one is an error in the header, and ignored.
    if (name.toLowerCase() === 'ns' && !nsSeen) {
      nsSeen = true;
      ns = PREFIX.test(parameter) ? parameter : null;
    }
  }
  return { uri, ns };
}

/** A cursor over a header value. */
class ListReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  done(): boolean {
    return this.#at >= this.#text.length;
  }

  peek(): string {
    return this.#text.charAt(this.#at);
  }

  take(char: string): boolean {
    if (this.#text.charAt(this.#at) !== char) return false;
    this.#at++;
    return true;
  }

  skipSpace(): void {
    while (this.#at < this.#text.length && /\s/.test(this.#text.charAt(this.#at))) this.#at++;
  }

  token(): string {
    const start = this.#at;
    while (this.#at < this.#text.length && TOKEN_CHAR.test(this.#text.charAt(this.#at))) {
      this.#at++;
    }
    return this.#text.slice(start, this.#at);
  }

  until(stop: RegExp): string {
    const start = this.#at;
    while (this.#at < this.#text.length && !stop.test(this.#text.charAt(this.#at))) this.#at++;
    return this.#text.slice(start, this.#at);
  }

  /** A quoted-string with backslash escapes; null when the closing quote is missing. */
  quoted(): string | null {
    let out = '';
    this.#at++;
    while (this.#at < this.#text.length) {
      const c = this.#text.charAt(this.#at++);
      if (c === '"') return out;
      if (c === '\\' && this.#at < this.#text.length) out += this.#text.charAt(this.#at++);
      else out += c;
    }
    return null;
  }

  /** Skips to just before the next comma that is not inside a quoted string. */
  skipToComma(): void {
    while (this.#at < this.#text.length) {
      const c = this.#text.charAt(this.#at);
      if (c === ',') return;
      if (c === '"') this.quoted();
      else this.#at++;
    }
  }
}
