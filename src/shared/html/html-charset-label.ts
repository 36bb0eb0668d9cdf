// Encoding labels, from a Content-Type header or a <meta>, to the encoding names TextDecoder
// uses. TextDecoder knows every WHATWG label ("latin1", "sjis", "x-sjis", " UTF-8 "...), so
// it is the table: a label it refuses is an unknown one.

/**
 * The WHATWG encoding a label names, spelled as `TextDecoder#encoding` spells it
 * (`'ISO-8859-1'` -> `'windows-1252'`, `'SJIS'` -> `'shift_jis'`), or null for a label
 * TextDecoder does not decode. The "replacement" labels (`iso-2022-kr`, `hz-gb-2312`...)
 * are among those: the caller goes on to its next source instead.
 *
 * @example
 * ```ts
 * encodingForLabel(' Latin1 '); // 'windows-1252'
 * encodingForLabel('klingon'); // null
 * ```
 */
export function encodingForLabel(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * The `charset` parameter of a Content-Type value (`text/html; charset="Shift_JIS"`), as
 * written, or null when there is none.
 *
 * @example
 * ```ts
 * charsetParameter('text/html; charset=ISO-8859-1'); // 'ISO-8859-1'
 * ```
 */
export function charsetParameter(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"?|([^;\s]*))/i.exec(contentType);
  const value = match?.[1] ?? match?.[2] ?? '';
  return value === '' ? null : value;
}
