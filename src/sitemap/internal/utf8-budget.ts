// The byte cap counts text given as a string in UTF-8 bytes, as the same document given as
// bytes would count, so that a string and its encoding are cut at the same character.

/**
 * How many UTF-16 units from the start of `text` fit in `budget` UTF-8 bytes, and how many
 * bytes those take. A surrogate pair is never split; a lone surrogate counts as the three
 * bytes of U+FFFD, as TextEncoder writes it.
 *
 * @example
 * utf8Fit('aé€', 4); // { units: 2, bytes: 3 }
 */
export function utf8Fit(text: string, budget: number): { units: number; bytes: number } {
  const length = text.length;
  let bytes = 0;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    let units = 1;
    let size = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        units = 2;
        size = 4;
      }
    }
    if (bytes + size > budget) break;
    bytes += size;
    i += units;
  }
  return { units: i, bytes };
}
