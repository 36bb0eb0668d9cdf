// An HTML or XML page served as robots.txt (a soft 404, a login page) reads as hundreds of
// invalid lines; the parser says it once instead.

/**
 * The text starts, after whitespace, with `<!doctype html`, `<html`, `<head` or `<?xml`
 * (any case) within its first 512 chars.
 */
export function looksLikeHtml(text: string): boolean {
  // Nearly every file starts with an ASCII char other than `<` once ASCII blanks are
  // skipped (which trimStart would skip too): then it is no HTML, and no strings are made.
  let i = 0;
  while (i < 512 && isJsWhitespace(text.charCodeAt(i))) i++;
  const first = text.charCodeAt(i);
  if (i === 512 || Number.isNaN(first) || (first < 0x80 && first !== 0x3c)) return false;
  const head = text.slice(0, 512).trimStart().toLowerCase();
  return (
    head.startsWith('<!doctype html') ||
    head.startsWith('<html') ||
    head.startsWith('<head') ||
    head.startsWith('<?xml')
  );
}

/** ASCII chars `String.prototype.trimStart` removes: TAB, LF, VT, FF, CR and space. */
function isJsWhitespace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
