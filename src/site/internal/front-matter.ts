/** A Markdown text split into its YAML front matter (if any) and the rest. */
export interface FrontMatterSplit {
  /** The lines between the fences, or null when the text has no front matter. */
  readonly frontMatter: string | null;
  /** What is rendered: the text after the closing fence, or the whole text. */
  readonly body: string;
}

const OPENING = /^---[ \t]*\r?$/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/;

/**
 * Splits off YAML front matter as Jekyll, Hugo and pandoc write it: a first line `---`, then
 * a line that is not blank (pandoc's rule: `---` and a blank line is a thematic break), up
 * to the next line that is `---` or `...` (`---` twice is an empty front matter, as in
 * Jekyll). Without a closing line there is no front matter and the text is returned whole,
 * but for a byte order mark at its start, which is dropped either way. The front matter is
 * not interpreted (a sidecar says what a document is), only kept out of the page. Total
 * and linear.
 *
 * @example
 * ```ts
 * splitFrontMatter('---\ntitle: x\n---\n# Hello\n').body; // '# Hello\n'
 * ```
 */
export function splitFrontMatter(text: string): FrontMatterSplit {
  // A byte order mark (Windows editors write one) would turn `# Title` into a paragraph.
  const markdown = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstEnd = markdown.indexOf('\n');
  if (firstEnd < 0 || !OPENING.test(markdown.slice(0, firstEnd))) {
    return { frontMatter: null, body: markdown };
  }
  let start = firstEnd + 1;
  let first = true;
  while (start < markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const end = newline < 0 ? markdown.length : newline;
    const line = markdown.slice(start, end);
    if (CLOSING.test(line)) {
      return {
        frontMatter: markdown.slice(firstEnd + 1, start),
        body: newline < 0 ? '' : markdown.slice(newline + 1),
      };
    }
    if (first && line.trim() === '') break;
    first = false;
    start = end + 1;
  }
  return { frontMatter: null, body: markdown };
}
