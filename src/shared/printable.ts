// Text from someone else's document, made safe to show on a terminal. Values can carry any
// character XML or HTTP lets through: an ESC or a C1 CSI printed raw would drive the user's
// terminal, and bidi controls can make a line read differently from what it is.

/** C0 and C1 controls, DEL, and the bidi and line-separator controls. */
export const UNSAFE_TO_SHOW =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The character's code point in hex, at least `width` digits. */
export function codePointHex(char: string, width: number): string {
  return (char.codePointAt(0) ?? 0).toString(16).padStart(width, '0');
}

/**
 * The text with every control character shown as an escape (`\x1b`, `\u202e`), for a
 * terminal. Plain text is returned unchanged.
 *
 * @example
 * ```ts
 * printable('a\x1b[2Jb'); // 'a\\x1b[2Jb'
 * ```
 */
export function printable(text: string): string {
  return text.replace(UNSAFE_TO_SHOW, (c) =>
    c < '\u0100' ? `\\x${codePointHex(c, 2)}` : `\\u${codePointHex(c, 4)}`,
  );
}
