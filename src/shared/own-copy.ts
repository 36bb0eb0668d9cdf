/**
 * `text` as a string of its own. A slice of a larger string (a value cut from a chunk of a
 * document, an attribute of a page) keeps V8's whole parent string alive for as long as the
 * slice lives, so a value handed out or remembered is copied first: joined to a character
 * and cut again, which makes V8 copy the characters into a new string. Joined at the end
 * rather than the start: about a sixth less time.
 */
export function ownCopy(text: string): string {
  return `${text} `.slice(0, -1);
}
