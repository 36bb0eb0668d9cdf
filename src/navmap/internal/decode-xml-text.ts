// Bytes to text for a navigational sitemap, per RFC 7303: a BOM, then the HTTP charset,
// then the XML declaration, then UTF-8. The shared chooser does the choosing; this adds a
// note when the HTTP charset overrode a different declaration, and reads encodings the
// shared decoder does not know with TextDecoder when it knows them.

import { encodingForLabel } from '../../shared/html/html-charset-label.ts';
import {
  checkedAgainstBytes,
  chooseEncoding,
  SNIFF_BYTES,
  StreamDecoder,
  type XmlEncoding,
} from '../../shared/xml/text-decoding.ts';
import { MAX_NAVMAP_BYTES } from '../navmap-names.ts';

export interface DecodedText {
  readonly text: string;
  /** The encoding used, as a label. */
  readonly encoding: string;
  /** Problems, each as [severity, code, message], reported at the start of the document. */
  readonly notes: readonly (readonly [Severity, string, string])[];
}

type Severity = 'error' | 'warning' | 'info';
type Note = [Severity, string, string];

const DECLARATION = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

/**
 * Decodes a whole document. Never throws: bytes that are not valid in the chosen encoding
 * become U+FFFD, with a warning; and past `maxBytes` bytes (UTF-16 code units for a string)
 * the rest is left out, with an error, so the text always fits in a JavaScript string (V8's
 * limit is just under 512 Mi characters: a larger document used to throw here).
 *
 * @example
 * ```ts
 * decodeXmlText(bytes, 'iso-8859-1').text;
 * ```
 */
export function decodeXmlText(
  input: Uint8Array | string,
  charset?: string,
  maxBytes: number = MAX_NAVMAP_BYTES,
): DecodedText {
  const notes: Note[] = [];
  const cut = (length: number) => {
    if (length <= maxBytes) return;
    const size = formatSize(maxBytes);
    notes.push([
      'error',
      'too-large',
      `the document is larger than ${size}; only its first ${size} are read`,
    ]);
  };
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    cut(text.length);
    return { text: cutText(text, maxBytes), encoding: 'utf-16', notes };
  }
  const contentType = charset === undefined ? undefined : `application/xml; charset=${charset}`;
  const head = input.subarray(0, SNIFF_BYTES);
  const choice = chooseEncoding(head, contentType);
  const body = input.subarray(choice.bomLength);
  cut(body.length);
  // An HTTP charset the shared decoder does not know still overrides the declaration.
  const sent = choice.source === 'bom' || choice.source === 'http' ? null : (charset ?? null);
  if (sent !== null) {
    const overriding = textDecoderFor(sent);
    if (overriding !== null) {
      const text = overriding.decode(cutBytes(body, maxBytes, overriding.encoding));
      return { text, encoding: overriding.encoding, notes };
    }
    notes.push([
      'warning',
      'unsupported-encoding',
      `the HTTP charset "${sent}" is not a known encoding; it is ignored`,
    ]);
  }
  if (choice.unsupported !== null) {
    const fallback = textDecoderFor(choice.unsupported);
    if (fallback !== null) {
      const text = fallback.decode(cutBytes(body, maxBytes, fallback.encoding));
      return { text, encoding: fallback.encoding, notes };
    }
    notes.push([
      'warning',
      'unsupported-encoding',
      `encoding "${choice.unsupported}" is not supported; read as UTF-8`,
    ]);
  }
  const encoding = choice.source === 'bom' ? choice.encoding : checkedUnits(choice, head, notes);
  const decoder = new StreamDecoder(encoding);
  const text = decoder.decode(cutBytes(body, maxBytes, encoding), true);
  if (decoder.invalid) {
    notes.push([
      'warning',
      'invalid-encoding',
      `bytes that are not valid ${encoding} were replaced with U+FFFD`,
    ]);
  }
  if (choice.source === 'http') {
    const declared = DECLARATION.exec(text.slice(0, SNIFF_BYTES))?.[1];
    if (declared !== undefined && !sameEncoding(declared, charset ?? '')) {
      notes.push([
        'info',
        'charset-overrides-declaration',
        `the HTTP charset "${charset}" overrides the declared encoding "${declared}"`,
      ]);
    }
  }
  return { text, encoding, notes };
}

/**
 * The first `max` bytes of `body`, ending on a whole character of `encoding` (UTF-8,
 * UTF-16), so the cut itself adds no U+FFFD. Other multi-byte encodings may end in a
 * partial character; the document says it was cut.
 */
function cutBytes(body: Uint8Array, max: number, encoding: string): Uint8Array {
  if (body.length <= max) return body;
  let end = max;
  if (encoding === 'utf-8') {
    // The first byte left out continues a character: leave that whole character out.
    while (end > 0 && ((body[end] ?? 0) & 0xc0) === 0x80) end--;
  } else if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    end -= end % 2;
    const [a = 0, b = 0] = body.subarray(end - 2, end);
    const unit = encoding === 'utf-16le' ? (b << 8) | a : (a << 8) | b;
    if (end >= 2 && unit >= 0xd800 && unit <= 0xdbff) end -= 2;
  }
  return body.subarray(0, end);
}

/** The first `max` code units of `text`, not splitting a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** `64 MiB`, `1000 bytes`. */
function formatSize(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes >= mib && bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}

/**
 * The chosen encoding, checked against the bytes (see `checkedAgainstBytes`), the bytes'
 * word noted as a warning.
 */
function checkedUnits(
  choice: ReturnType<typeof chooseEncoding>,
  head: Uint8Array,
  notes: Note[],
): XmlEncoding {
  const checked = checkedAgainstBytes(choice, head);
  if (checked.mismatch !== null) notes.push(['warning', 'encoding-mismatch', checked.mismatch]);
  return checked.encoding;
}

function textDecoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label, { ignoreBOM: true });
  } catch {
    return null;
  }
}

function sameEncoding(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const left = encodingForLabel(a);
  return left !== null && left === encodingForLabel(b);
}
