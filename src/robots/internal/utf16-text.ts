// A robots.txt saved as UTF-16 (Windows Notepad's "Unicode") has a NUL byte beside every
// ASCII char: crawlers read robots.txt as UTF-8 bytes, match no directive in it and allow
// everything, while its author sees the rules they wrote. The parser says so once.

/**
 * The text (as `readRobotsText` gives it) starts with a UTF-16 byte order mark, or with two
 * ASCII chars each beside a NUL, in either byte order (`U\0s\0`, `\0U\0s`).
 */
export function looksLikeUtf16(text: string): boolean {
  const first = text.charCodeAt(0);
  const second = text.charCodeAt(1);
  // Not valid UTF-8, so the text is one char per byte: FF FE or FE FF are the mark itself.
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)) return true;
  const third = text.charCodeAt(2);
  const fourth = text.charCodeAt(3);
  if (second === 0 && fourth === 0) return isAscii(first) && isAscii(third);
  if (first === 0 && third === 0) return isAscii(second) && isAscii(fourth);
  return false;
}

/** A char of ASCII other than NUL. */
function isAscii(c: number): boolean {
  return c > 0 && c < 0x80;
}
