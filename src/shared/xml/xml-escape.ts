/**
 * Characters XML 1.0 cannot carry at all, not even as character references: C0 controls
 * other than tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF.
 * The `u` flag makes a lone surrogate one code point, so it matches here too.
 */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * The first character XML 1.0 forbids in `text`, described for a message (`U+000B at
 * index 4`), or null when there is none. The writer refuses such values rather than
 * dropping the character: a changed title or URL would be a silent data change, and the
 * caller is the one who knows whether the character was noise.
 */
export function forbiddenXmlChar(text: string): string | null {
  const match = FORBIDDEN.exec(text);
  if (match === null) return null;
  const code = match[0].codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at index ${match.index}`;
}

const TEXT_SPECIALS = /[&<>"'\r]/g;
// The same set without the global flag: `test` on it keeps no state between calls, and most
// values have nothing to escape, so a test is cheaper than a replace with a callback.
const HAS_TEXT_SPECIAL = /[&<>"'\r]/;
const NON_ASCII = /[\u0080-\uffff]/;
const ATTRIBUTE_SPECIALS = /[&<>"'\t\n\r]/g;

const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A parser turns a literal CR (or CRLF) into LF, and in attributes also tab and LF into
  // spaces; references keep the value exactly as given.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function reference(char: string): string {
  return REFERENCES[char] ?? char;
}

/**
 * Element content, with all five predefined entities escaped (`>` too, so `]]>` can never
 * appear). Expects text already checked with {@link forbiddenXmlChar}.
 */
export function escapeXmlText(text: string): string {
  return HAS_TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIALS, reference) : text;
}

/** An attribute value for a double-quoted attribute; whitespace kept as references. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(ATTRIBUTE_SPECIALS, reference);
}

/** Bytes `text` takes in UTF-8, without encoding it (the pure core has no `Buffer`). */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
