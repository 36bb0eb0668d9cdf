// The first heading of a Markdown text, found by reading its lines once, without rendering
// it: the listing at `/` names every document by its heading, and rendering them all with
// `marked` (whose time is quadratic on some inputs) for that would cost far too much. The
// same function names a rendered page in its <title>, so the two always agree. It follows
// CommonMark's block structure as far as a heading depends on it: fenced and indented code,
// HTML blocks, block quotes and list items hide headings; a paragraph followed by `===` or
// `---` is one.

/** Longest heading shown, in code points; longer ones end in an ellipsis. */
export const MAX_HEADING_LENGTH = 200;
/** Markdown of a heading looked at (the text shown is shorter): bounds the cleaning work. */
const MAX_HEADING_SOURCE = 2000;

const ATX = /^(#{1,6})(?:[ \t]+|$)/;
const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^([-+*]|(\d{1,9})[.)])([ \t]+|$)/;
const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
/** CommonMark's HTML block starts 1 to 6, with the text that ends each (null: a blank line). */
const HTML_STARTS: readonly [RegExp, ((match: RegExpExecArray) => string) | null][] = [
  [/^<(script|pre|style|textarea)(?:[\s>]|$)/i, (m) => `</${(m[1] ?? '').toLowerCase()}>`],
  [/^<!--/, () => '-->'],
  [/^<\?/, () => '?>'],
  [/^<![A-Za-z]/, () => '>'],
  [/^<!\[CDATA\[/, () => ']]>'],
  [new RegExp(`^</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, 'i'), null],
];
/** Start 7: a whole open or close tag alone on its line (it cannot interrupt a paragraph). */
const HTML_TAG_LINE =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/;

type Container =
  | { readonly kind: 'quote' }
  | { readonly kind: 'list'; readonly indent: number; blankSeen: boolean };

/**
 * The text of the first top-level heading (ATX `# Title` or setext `Title` over `===`/`---`)
 * with a non-empty text, as plain text for display (see {@link headingText}), or null.
 * Total and linear in the length of the text.
 *
 * @example
 * ```ts
 * firstHeading('Intro\n\n## The *first* one\n'); // 'The first one'
 * ```
 */
export function firstHeading(markdown: string): string | null {
  let fence: { readonly char: string; readonly length: number } | null = null;
  /** The text that ends the HTML block we are in ('' for a blank line), or null. */
  let htmlEnd: string | null = null;
  let container: Container | null = null;
  let paragraph: 'top' | 'nested' | null = null;
  let paragraphText = '';
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const end = newline < 0 ? markdown.length : newline;
    const line = markdown.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    const { indent, content } = measure(line);
    const blank = content.trim() === '';
    if (fence !== null) {
      if (indent <= 3 && closesFence(content, fence)) fence = null;
      continue;
    }
    if (htmlEnd !== null) {
      if (htmlEnd === '' ? blank : line.toLowerCase().includes(htmlEnd)) htmlEnd = null;
      continue;
    }
    if (blank) {
      paragraph = null;
      if (container?.kind === 'quote') container = null;
      else if (container?.kind === 'list') container.blankSeen = true;
      continue;
    }
    if (container?.kind === 'list') {
      if (indent >= container.indent) {
        paragraph = 'nested';
        continue;
      }
      if (!container.blankSeen && paragraph === 'nested' && !startsBlock(content, indent)) continue;
      container = null;
    } else if (container?.kind === 'quote') {
      if (indent <= 3 && content.startsWith('>')) continue;
      if (paragraph === 'nested' && !startsBlock(content, indent)) continue;
      container = null;
    }
    if (indent >= 4) {
      // Indented code, unless it continues a paragraph.
      if (paragraph === 'top') paragraphText = joinLine(paragraphText, content);
      else paragraph = null;
      continue;
    }
    const atx = ATX.exec(content);
    if (atx !== null) {
      paragraph = null;
      const text = headingText(atxText(content.slice(atx[0].length)));
      if (text !== '') return text;
      continue;
    }
    if (paragraph === 'top' && SETEXT_UNDERLINE.test(content)) {
      paragraph = null;
      const text = headingText(paragraphText);
      if (text !== '') return text;
      continue;
    }
    if (THEMATIC_BREAK.test(content)) {
      paragraph = null;
      continue;
    }
    const fenceOpen = FENCE.exec(content);
    if (fenceOpen !== null) {
      const marks = fenceOpen[1] ?? '';
      const char = marks.charAt(0);
      // A backtick fence's info string cannot hold a backtick (that is inline code).
      if (char === '~' || !(fenceOpen[2] ?? '').includes('`')) {
        fence = { char, length: marks.length };
        paragraph = null;
        continue;
      }
    }
    const html = htmlStart(content, paragraph === 'top');
    if (html !== null) {
      paragraph = null;
      if (html === '' || !content.toLowerCase().includes(html, 2)) htmlEnd = html;
      continue;
    }
    if (content.startsWith('>')) {
      container = { kind: 'quote' };
      paragraph = 'nested';
      continue;
    }
    const item = LIST_ITEM.exec(content);
    if (item !== null && !(paragraph === 'top' && cannotInterrupt(item, content))) {
      const spaces = measure(item[3] ?? '').indent;
      const gap = spaces === 0 || spaces > 4 ? 1 : spaces;
      container = { kind: 'list', indent: indent + (item[1] ?? '').length + gap, blankSeen: false };
      paragraph = 'nested';
      continue;
    }
    if (paragraph !== 'top') {
      paragraph = 'top';
      paragraphText = '';
    }
    paragraphText = joinLine(paragraphText, content);
  }
  return null;
}

/**
 * A heading's Markdown as plain text: link and image syntax reduced to their text,
 * emphasis, code marks and HTML tags dropped, backslash escapes and character references
 * resolved, control characters and runs of white space made one space, and at most
 * {@link MAX_HEADING_LENGTH} code points. Linear: only its first 2,000 characters are read.
 */
export function headingText(markdown: string): string {
  const text = markdown
    .slice(0, MAX_HEADING_SOURCE)
    .replace(ESCAPE_STANDINS, '')
    // Escaped characters are set aside first, so `\<b\>` and `\*` stay as written.
    .replace(/\\([!-/:-@[-`{-~])/g, (_all, char: string) =>
      String.fromCodePoint(ESCAPE_BASE + char.charCodeAt(0)),
    )
    // A link's destination may hold balanced parentheses (`Foo_(bar)`), as CommonMark allows.
    .replace(/!?\[([^[\]]*)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^[\]]*\])/g, '$1')
    .replace(/<((?:https?|mailto|ftp):[^<>\s]*)>/gi, '$1')
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, '')
    .replace(/[*~`]+/g, '')
    // Underscores only as a pair of emphasis marks around text, never inside a word or
    // before punctuation (`snake_case`, `Foo_(bar)` stay as written).
    .replace(/(?<![\p{L}\p{N}_])(_{1,3})(?=[^\s_])([^_]*[^\s_])\1(?![\p{L}\p{N}_])/gu, '$2')
    .replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g, entity)
    .replace(ESCAPE_STANDINS, (char) =>
      String.fromCharCode((char.codePointAt(0) ?? 0) - ESCAPE_BASE),
    );
  return displayText(text);
}

/** Private-use code points that stand in for escaped ASCII while markup is taken out. */
const ESCAPE_BASE = 0xf0000;
const ESCAPE_STANDINS = /[\u{F0000}-\u{F007F}]/gu;

/**
 * Text from a file made fit to show as a name: control characters and runs of white space
 * as one space, trimmed, and at most {@link MAX_HEADING_LENGTH} code points (longer text
 * ends in an ellipsis). It is still to be escaped.
 */
export function displayText(text: string): string {
  const clean = text
    .slice(0, MAX_HEADING_SOURCE)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point.
    .replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  const points = Array.from(clean);
  return points.length <= MAX_HEADING_LENGTH
    ? clean
    : `${points
        .slice(0, MAX_HEADING_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function entity(whole: string, decimal?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED[name] ?? whole;
  const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
  // As HTML does: NUL, surrogates and beyond Unicode become the replacement character.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

/** Leading white space as columns (a tab to the next multiple of 4), and what follows it. */
function measure(line: string): { indent: number; content: string } {
  let indent = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const char = line[i];
    if (char === ' ') indent++;
    else if (char === '\t') indent += 4 - (indent % 4);
    else break;
  }
  return { indent, content: line.slice(i) };
}

/** The text of an ATX heading after its `#`s: without a closing run of `#`. */
function atxText(rest: string): string {
  const trimmed = rest.trim();
  if (/^#+$/.test(trimmed)) return '';
  return trimmed.replace(/[ \t]+#+$/, '');
}

function closesFence(content: string, fence: { char: string; length: number }): boolean {
  let n = 0;
  while (content[n] === fence.char) n++;
  return n >= fence.length && content.slice(n).trim() === '';
}

/** What ends the HTML block `content` starts ('' for a blank line), or null if none. */
function htmlStart(content: string, inParagraph: boolean): string | null {
  if (!content.startsWith('<')) return null;
  for (const [start, end] of HTML_STARTS) {
    const match = start.exec(content);
    if (match !== null) return end === null ? '' : end(match);
  }
  return !inParagraph && HTML_TAG_LINE.test(content) ? '' : null;
}

/** An ordered item not starting at 1, or an empty item, does not interrupt a paragraph. */
function cannotInterrupt(item: RegExpExecArray, content: string): boolean {
  if (item[2] !== undefined && item[2] !== '1') return true;
  return content.slice(item[0].length).trim() === '';
}

/**
 * Whether a line outside a container's indent starts a block (so it is not a lazy
 * continuation of the container's paragraph).
 */
function startsBlock(content: string, indent: number): boolean {
  if (indent >= 4) return false;
  return (
    ATX.test(content) ||
    THEMATIC_BREAK.test(content) ||
    SETEXT_UNDERLINE.test(content) ||
    FENCE.test(content) ||
    content.startsWith('>') ||
    LIST_ITEM.test(content) ||
    htmlStart(content, true) !== null
  );
}

/** A paragraph's text so far and one more line, kept to what a heading can show. */
function joinLine(text: string, line: string): string {
  if (text.length >= MAX_HEADING_SOURCE) return text;
  const trimmed = line.trim();
  return text === '' ? trimmed : `${text} ${trimmed}`;
}
