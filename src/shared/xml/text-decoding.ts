// Bytes to text for XML documents (sitemaps, navigational sitemaps). The encoding comes from
// the BOM, then the HTTP charset, then the XML declaration (sitemaps must be UTF-8, but real
// ones declare ISO-8859-1, send Windows-1252 or UTF-16 with a BOM). TextDecoder streams every
// encoding needed except ISO-8859-1, which WHATWG maps to Windows-1252: that one is decoded
// by hand, exactly.

import { concatBytes } from '../bytes.ts';

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'iso-8859-1' | 'windows-1252';

/** How many leading bytes are enough to find a BOM and an XML declaration. */
export const SNIFF_BYTES = 1024;

const LABELS: Readonly<Record<string, XmlEncoding>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16': 'utf-16le',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  latin1: 'iso-8859-1',
  'latin-1': 'iso-8859-1',
  l1: 'iso-8859-1',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
};

export interface EncodingChoice {
  readonly encoding: XmlEncoding;
  /** Bytes of BOM to skip. */
  readonly bomLength: number;
  /** Where the choice came from, for diagnostics. */
  readonly source: 'bom' | 'http' | 'declaration' | 'default';
  /** A declared or sent label that is not supported (UTF-8 is used instead). */
  readonly unsupported: string | null;
}

/** Picks the encoding from the first bytes (at least {@link SNIFF_BYTES} when the input has them). */
export function chooseEncoding(head: Uint8Array, contentType: string | undefined): EncodingChoice {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return bom('utf-8', 3);
  if (head[0] === 0xff && head[1] === 0xfe) return bom('utf-16le', 2);
  if (head[0] === 0xfe && head[1] === 0xff) return bom('utf-16be', 2);
  const charset = charsetOf(contentType);
  if (charset !== null) {
    const encoding = LABELS[charset];
    if (encoding !== undefined)
      return { encoding, bomLength: 0, source: 'http', unsupported: null };
  }
  // UTF-16 without a BOM still starts with "<?" as two-byte units.
  if (head[0] === 0x3c && head[1] === 0x00 && head[2] === 0x3f && head[3] === 0x00) {
    return { encoding: 'utf-16le', bomLength: 0, source: 'declaration', unsupported: null };
  }
  if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] === 0x3f) {
    return { encoding: 'utf-16be', bomLength: 0, source: 'declaration', unsupported: null };
  }
  const declared = declaredEncoding(head);
  if (declared !== null) {
    const encoding = LABELS[declared];
    if (encoding !== undefined)
      return { encoding, bomLength: 0, source: 'declaration', unsupported: null };
    return { encoding: 'utf-8', bomLength: 0, source: 'default', unsupported: declared };
  }
  const unsupported = charset !== null && LABELS[charset] === undefined ? charset : null;
  return { encoding: 'utf-8', bomLength: 0, source: 'default', unsupported };
}

type Units = 'utf-16le' | 'utf-16be' | 'single';

/**
 * What the first two bytes show, when they are the start of an XML document (`<` or
 * whitespace): two-byte units in either order, single bytes, or nothing (null).
 */
function unitsOf(head: Uint8Array): Units | null {
  const [a = -1, b = -1] = head;
  if (START.has(a) && b === 0) return 'utf-16le';
  if (a === 0 && START.has(b)) return 'utf-16be';
  if (START.has(a) && b > 0) return 'single';
  return null;
}

/** `<`, space, tab, line feed, carriage return. */
const START: ReadonlySet<number> = new Set([0x3c, 0x20, 0x09, 0x0a, 0x0d]);

/**
 * The chosen encoding (not from a BOM), checked against the bytes (XML 1.0 Appendix F). A
 * document cannot start with `<` in one byte and be UTF-16, nor with `<` in two bytes and
 * be anything else: a label that says otherwise would lose the whole document, so the bytes
 * decide, and `mismatch` says so. UTF-16 without a BOM takes its byte order from the bytes.
 */
export function checkedAgainstBytes(
  choice: EncodingChoice,
  head: Uint8Array,
): { encoding: XmlEncoding; mismatch: string | null } {
  if (choice.source === 'bom') return { encoding: choice.encoding, mismatch: null };
  const units = unitsOf(head);
  const sixteen = choice.encoding === 'utf-16le' || choice.encoding === 'utf-16be';
  const named = choice.source === 'http' ? 'the HTTP charset' : 'the declaration';
  if (units === null || units === choice.encoding)
    return { encoding: choice.encoding, mismatch: null };
  if (units === 'single') {
    if (!sixteen) return { encoding: choice.encoding, mismatch: null };
    return {
      encoding: 'utf-8',
      mismatch: `${named} says UTF-16, but the document starts with single-byte characters; read as UTF-8`,
    };
  }
  return {
    encoding: units,
    mismatch: sixteen
      ? null
      : `the document is UTF-16 (${units === 'utf-16le' ? 'little' : 'big'}-endian) by its bytes${choice.source === 'default' ? ', without a BOM' : `, though ${named} says ${choice.encoding}`}; read as UTF-16`,
  };
}

function bom(encoding: XmlEncoding, bomLength: number): EncodingChoice {
  return { encoding, bomLength, source: 'bom', unsupported: null };
}

function charsetOf(contentType: string | undefined): string | null {
  const match =
    contentType === undefined ? null : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1]?.toLowerCase() ?? null;
}

/** `encoding="..."` of an XML declaration at the start (leading whitespace tolerated). */
function declaredEncoding(head: Uint8Array): string | null {
  let text = '';
  for (let i = 0; i < head.length && i < SNIFF_BYTES; i++) {
    const b = head[i] as number;
    if (b === 0x3e) break; // '>' ends the declaration
    text += String.fromCharCode(b);
  }
  const match = /^\s*<\?xml[\s\S]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(text);
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * A streaming decoder for the chosen encoding. UTF-8 is decoded strictly until the first
 * invalid byte, so a wrong declaration can be reported once; the rest is decoded leniently
 * (U+FFFD for what cannot be read), from the bytes of a character the strict decoder was
 * still waiting to complete, so the text does not depend on where the chunks were cut.
 */
export class StreamDecoder {
  readonly encoding: XmlEncoding;
  /** Set once bytes were found that are not valid in the encoding (UTF-8 only). */
  invalid = false;
  /**
   * In the text of the {@link decode} call that set {@link invalid}, where the first U+FFFD
   * for bytes that are not valid stands (a reader may stop before it); -1 until then.
   */
  invalidAt = -1;
  #strict: TextDecoder | null;
  #lenient: TextDecoder | null;
  /** The bytes of an unfinished character at the end of what the strict decoder read. */
  #unfinished: Uint8Array = NO_BYTES;

  constructor(encoding: XmlEncoding) {
    this.encoding = encoding;
    this.#strict =
      encoding === 'utf-8' ? new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }) : null;
    this.#lenient =
      encoding === 'iso-8859-1' || encoding === 'utf-8'
        ? null
        : new TextDecoder(encoding, { ignoreBOM: true });
  }

  decode(bytes: Uint8Array, last = false): string {
    if (this.encoding === 'iso-8859-1') return latin1(bytes);
    if (this.#strict !== null) {
      try {
        const text = this.#strict.decode(bytes, { stream: !last });
        this.#unfinished = last ? NO_BYTES : unfinishedUtf8(this.#unfinished, bytes);
        return text;
      } catch {
        this.invalid = true;
        this.#strict = null;
        this.#lenient = new TextDecoder('utf-8', { ignoreBOM: true });
        const replay =
          this.#unfinished.length === 0 ? bytes : concatBytes([this.#unfinished, bytes]);
        this.#unfinished = NO_BYTES;
        // The bytes before the bad ones are whole characters: their text is the same length
        // in either decoder.
        const good = replay.subarray(0, Math.max(0, firstInvalidUtf8(replay, last)));
        this.invalidAt =
          good.length === 0 ? 0 : new TextDecoder('utf-8', { ignoreBOM: true }).decode(good).length;
        return this.#lenient.decode(replay, { stream: !last });
      }
    }
    return (this.#lenient as TextDecoder).decode(bytes, { stream: !last });
  }
}

const NO_BYTES = new Uint8Array(0);

/**
 * Where the first sequence that is not UTF-8 starts in `bytes` (a byte that cannot start or
 * continue a character, an overlong form, a surrogate, past U+10FFFF; when `last`, a
 * character cut off at the end), or -1: the places a WHATWG decoder writes U+FFFD. Run once
 * per document, when the strict decoder has already refused the bytes.
 */
export function firstInvalidUtf8(bytes: Uint8Array, last: boolean): number {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes, and the narrower range the second of them must fall in.
    let more: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) more = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      more = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      more = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= more; k++) {
      if (i + k >= length) return last ? i : -1;
      const byte = bytes[i + k] as number;
      if (byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
}

/**
 * The start of a character left unfinished at the end of valid UTF-8 (`before`, then
 * `bytes`), as a copy: what a streaming decoder holds back. Empty in the usual case, a last
 * byte that is ASCII.
 */
export function unfinishedUtf8(before: Uint8Array, bytes: Uint8Array): Uint8Array {
  const total = before.length + bytes.length;
  const at = (i: number): number =>
    i < before.length ? (before[i] as number) : (bytes[i - before.length] as number);
  if (total === 0 || at(total - 1) < 0x80) return NO_BYTES;
  // Back over continuation bytes (10xxxxxx) to the lead byte, at most three.
  for (let held = 1; held <= Math.min(3, total); held++) {
    const byte = at(total - held);
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (length <= held) return NO_BYTES;
    const copy = new Uint8Array(held);
    for (let k = 0; k < held; k++) copy[k] = at(total - held + k);
    return copy;
  }
  return NO_BYTES;
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  }
  return out;
}
