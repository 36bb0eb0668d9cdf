// Bytes to text for HTML pages. The encoding is chosen as browsers choose it (HTML Standard
// §13.2.3), from: a byte order mark, the Content-Type charset, a <meta> in the first 1024
// bytes; with none of those, UTF-8 (see CharsetSource). The first 1024 bytes are held back
// until they are all in (or the input ends), so the choice never depends on how the input
// was split; after that, TextDecoder streams, so a character split across chunks decodes
// whole.

import { concatBytes } from '../bytes.ts';
import { charsetParameter, encodingForLabel } from './html-charset-label.ts';
import { PRESCAN_BYTES, prescanCharset } from './html-prescan.ts';

/**
 * Where the encoding came from: a byte order mark, the Content-Type header, a `<meta>` in
 * the first 1024 bytes, or the default. The default is UTF-8, not the standard's
 * windows-1252 for unlabelled pages: almost every page on the web today is UTF-8, and
 * pages that are not nearly all say so; a windows-1252 page read as UTF-8 loses only its
 * non-ASCII characters, while the reverse garbles every non-ASCII URL and title.
 */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface CharsetChoice {
  /** The encoding's WHATWG name, as `TextDecoder#encoding` spells it (`'shift_jis'`). */
  readonly charset: string;
  readonly source: CharsetSource;
  /** Bytes of byte order mark to skip. */
  readonly bomLength: number;
}

/**
 * Picks the encoding for a page from its first bytes (at least {@link PRESCAN_BYTES} of
 * them when the page has that many) and its Content-Type. A BOM comes first, before the
 * header, as in browsers: it cannot be there by accident, while a server's charset often
 * is. A header or meta label TextDecoder does not know is passed over.
 *
 * @example
 * ```ts
 * chooseCharset(bytes, 'text/html; charset=iso-8859-1'); // { charset: 'windows-1252', source: 'header', bomLength: 0 }
 * ```
 */
export function chooseCharset(head: Uint8Array, contentType: string | undefined): CharsetChoice {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { charset: 'utf-8', source: 'bom', bomLength: 3 };
  }
  if (head[0] === 0xfe && head[1] === 0xff) {
    return { charset: 'utf-16be', source: 'bom', bomLength: 2 };
  }
  if (head[0] === 0xff && head[1] === 0xfe) {
    return { charset: 'utf-16le', source: 'bom', bomLength: 2 };
  }
  const label = charsetParameter(contentType);
  const sent = label === null ? null : encodingForLabel(label);
  if (sent !== null) return { charset: sent, source: 'header', bomLength: 0 };
  const declared = prescanCharset(head);
  if (declared !== null) return { charset: declared, source: 'meta', bomLength: 0 };
  return { charset: 'utf-8', source: 'default', bomLength: 0 };
}

/**
 * A push decoder for one HTML page: `write()` bytes and get text back (empty while the
 * first 1024 bytes are still being collected), `end()` for the rest. Bytes that are not
 * valid in the chosen encoding become U+FFFD; nothing throws.
 *
 * @example
 * ```ts
 * const decoder = new HtmlDecoder('text/html; charset=shift_jis');
 * let text = decoder.write(bytes);
 * text += decoder.end();
 * decoder.choice?.charset; // 'shift_jis'
 * ```
 */
export class HtmlDecoder {
  readonly #contentType: string | undefined;
  #head: Uint8Array[] = [];
  #headLength = 0;
  #decoder: TextDecoder | null = null;
  #choice: CharsetChoice | null = null;

  constructor(contentType?: string) {
    this.#contentType = contentType;
  }

  /** The encoding in use; null until the first 1024 bytes are in or the input ended. */
  get choice(): CharsetChoice | null {
    return this.#choice;
  }

  write(chunk: Uint8Array): string {
    if (this.#decoder !== null) return this.#decoder.decode(chunk, { stream: true });
    // The usual case, the whole head in the first chunk: decoded at once, so not copied.
    if (this.#headLength === 0 && chunk.length >= PRESCAN_BYTES) return this.#start(chunk);
    // Copied (a Buffer's slice() would be a view): a caller may reuse its buffer once
    // write() returns.
    this.#head.push(new Uint8Array(chunk));
    this.#headLength += chunk.length;
    return this.#headLength < PRESCAN_BYTES ? '' : this.#startHeld();
  }

  end(): string {
    const text = this.#decoder === null ? this.#startHeld() : '';
    return text + (this.#decoder as TextDecoder).decode();
  }

  #startHeld(): string {
    const head = concatBytes(this.#head, this.#headLength);
    this.#head = [];
    return this.#start(head);
  }

  /** Chooses the encoding from the page's first bytes, and decodes them. */
  #start(head: Uint8Array): string {
    const choice = chooseCharset(head, this.#contentType);
    this.#choice = choice;
    this.#decoder = new TextDecoder(choice.charset, { ignoreBOM: true });
    return this.#decoder.decode(head.subarray(choice.bomLength), { stream: true });
  }
}
