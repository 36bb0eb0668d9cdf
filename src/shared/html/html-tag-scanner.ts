// htmlparser2's Parser without its allocations: the same Tokenizer, driven by the same
// element stack (implied closes, void elements, foreign content, the `image` -> `img`
// rename), but an attribute is only read when the handler asked for it on that tag, and
// text only while the handler wants text. Parser builds an attribute object per tag and a
// string per attribute name, attribute value and text run; a crawler needs a handful of
// them per page. Every callback below mirrors Parser.js (htmlparser2 12) in HTML mode with
// default options; the differential test of the crawler's extractor holds the two together
// (src/crawl/internal/html-extract-differential.test.ts).
//
// Entities: the Tokenizer checks its `decodeEntities` flag on every character of text and
// attribute values, and with it off it skips to the next `<` or quote instead of stepping
// through each character (where a page's time goes). It finds the same tags and the same
// attribute boundaries either way (an entity never contains `<`, a quote or a space); only
// the text and values it reports differ. So the flag is on exactly while a wanted attribute's
// value or wanted text is being read, and off otherwise. It is a plain property of the
// Tokenizer (`private readonly` in its types only); if a later htmlparser2 made it truly
// private, the assignment would do nothing and every entity would be decoded, as before.
import { type QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { ownCopy } from '../own-copy.ts';
import {
  htmlIntegrationElements,
  openImpliesClose,
  svgTagNameAdjustments,
  voidElements,
} from './html-parser-tables.ts';

/** What a {@link HtmlTagScanner} reports to. Names are lowercase, as Parser gives them. */
export interface HtmlTagHandler {
  /**
   * The attributes (lowercase names) to read on an opening tag of this name, or undefined
   * for none. Asked once per opening tag, before its attributes are read.
   */
  attributesOf(name: string): readonly string[] | undefined;
  /**
   * An element opened. `values[i]` is the value of `attributesOf(name)[i]` (entities
   * decoded; the first of duplicate attributes), undefined when absent. The array is
   * reused: read it before returning.
   */
  open(name: string, values: readonly (string | undefined)[]): void;
  /** An element closed, explicitly or implied (as Parser's `onclosetag`). */
  close(name: string): void;
  /** True while text is wanted; text is not even sliced otherwise. */
  wantsText(): boolean;
  text(text: string): void;
}

const NONE = 0;
const SVG = 1;
const MATH = 2;
const NO_VALUES: readonly (string | undefined)[] = [];

/**
 * Lowercase tag and attribute names met so far, by a hash of their characters: a page names
 * the same few dozen again and again, and slicing and lowercasing each one was a string or
 * two per tag. Shared by every scanner (names only, copied: no page text is kept); bounded.
 */
const NAMES = new Map<number, string>();
const MAX_NAMES = 1024;
const MAX_NAME_LENGTH = 32;

/**
 * `text.slice(from, to).toLowerCase()` without allocating when that name is in
 * {@link NAMES}. Only ASCII names are looked up (for them toLowerCase is A-Z to a-z); a
 * remembered name is compared character by character, so a hash collision costs the
 * slice, never a wrong name.
 */
function lowerName(text: string, from: number, to: number): string {
  if (to - from > MAX_NAME_LENGTH) return text.slice(from, to).toLowerCase();
  let hash = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return text.slice(from, to).toLowerCase();
    // Kept in V8's small-integer range, so the key is never a boxed number.
    hash = (Math.imul(hash, 31) + (c >= 0x41 && c <= 0x5a ? c | 0x20 : c)) & 0x3fffffff;
  }
  const known = NAMES.get(hash);
  if (known !== undefined && sameLowerName(text, from, to, known)) return known;
  const name = text.slice(from, to).toLowerCase();
  if (known === undefined && NAMES.size < MAX_NAMES) NAMES.set(hash, ownCopy(name));
  return name;
}

/** True when the ASCII `text.slice(from, to)`, lowercased, is `name`. */
function sameLowerName(text: string, from: number, to: number, name: string): boolean {
  if (name.length !== to - from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name.charCodeAt(i - from)) return false;
  }
  return true;
}

/**
 * A push scanner of HTML text: `write()` chunks of text, then `end()`. It reports opening
 * and closing elements exactly as htmlparser2's Parser reports them (HTML mode, default
 * options), with only the asked-for attributes. Total: never throws on input.
 *
 * @example
 * ```ts
 * const hrefs: string[] = [];
 * const scanner = new HtmlTagScanner({
 *   attributesOf: (name) => (name === 'a' ? ['href'] : undefined),
 *   open: (name, values) => { if (name === 'a' && values[0] !== undefined) hrefs.push(values[0]); },
 *   close: () => {},
 *   wantsText: () => false,
 *   text: () => {},
 * });
 * scanner.end('<A HREF="/x?a=1&amp;b=2">x</A>'); // hrefs: ['/x?a=1&b=2']
 * ```
 */
export class HtmlTagScanner implements TokenizerCallbacks {
  readonly #handler: HtmlTagHandler;
  readonly #tokenizer: Tokenizer;
  /** Open elements, innermost last (Parser keeps them innermost first). */
  readonly #stack: string[] = [];
  /** Parser's foreignContext, innermost last. */
  readonly #foreignContext: number[] = [NONE];
  #tagname = '';
  /** The attributes asked for on the tag being read; null outside an opening tag. */
  #wanted: readonly string[] | undefined | null = null;
  #values: (string | undefined)[] = [];
  /** Index in #wanted of the attribute being read, -1 when it is not read. */
  #attribute = -1;
  #attribvalue = '';
  readonly #buffers: string[] = [];
  #bufferOffset = 0;
  #ended = false;

  constructor(handler: HtmlTagHandler) {
    this.#handler = handler;
    this.#tokenizer = new Tokenizer({ decodeEntities: true }, this);
    this.#syncDecoding();
  }

  write(chunk: string): void {
    if (this.#ended) return;
    this.#buffers.push(chunk);
    this.#tokenizer.write(chunk);
  }

  end(chunk?: string): void {
    if (this.#ended) return;
    if (chunk) this.write(chunk);
    this.#ended = true;
    this.#tokenizer.end();
  }

  isInForeignContext(): boolean {
    return this.#foreignContext[this.#foreignContext.length - 1] !== NONE;
  }

  ontext(start: number, endIndex: number): void {
    if (this.#handler.wantsText()) this.#handler.text(this.#slice(start, endIndex));
    else this.#release(start);
  }

  ontextentity(codepoint: number): void {
    if (this.#handler.wantsText()) this.#handler.text(String.fromCodePoint(codepoint));
  }

  onopentagname(start: number, endIndex: number): void {
    this.#emitOpenTag(this.#readTagName(start, endIndex));
  }

  onopentagend(): void {
    this.#endOpenTag();
  }

  onclosetag(start: number, endIndex: number): void {
    const name = this.#readTagName(start, endIndex);
    if (!voidElements.has(name)) {
      const pos = this.#stack.lastIndexOf(name);
      if (pos !== -1) {
        while (this.#stack.length > pos + 1) this.#popElement();
        this.#popElement();
      } else if (name === 'p') {
        this.#emitOpenTag('p');
        this.#closeCurrentTag();
      }
    } else if (name === 'br') {
      this.#handler.open('br', NO_VALUES);
      this.#handler.close('br');
      this.#syncDecoding();
    }
  }

  onselfclosingtag(): void {
    if (this.isInForeignContext()) this.#closeCurrentTag();
    else this.#endOpenTag();
  }

  onattribname(start: number, endIndex: number): void {
    const wanted = this.#wanted;
    this.#attribute = -1;
    if (wanted === null || wanted === undefined) {
      this.#release(start);
      return;
    }
    const index = wanted.indexOf(this.#lowerName(start, endIndex));
    if (index !== -1 && this.#values[index] === undefined) this.#attribute = index;
    this.#syncDecoding();
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.#attribute === -1) this.#release(start);
    else this.#attribvalue += this.#slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    if (this.#attribute !== -1) this.#attribvalue += String.fromCodePoint(codepoint);
  }

  onattribend(_quote: QuoteType): void {
    if (this.#attribute !== -1) this.#values[this.#attribute] = this.#attribvalue;
    this.#attribute = -1;
    this.#attribvalue = '';
    this.#syncDecoding();
  }

  ondeclaration(start: number): void {
    this.#release(start);
  }

  onprocessinginstruction(start: number): void {
    this.#release(start);
  }

  oncomment(start: number): void {
    this.#release(start);
  }

  oncdata(start: number, endIndex: number, endOffset: number): void {
    // HTML mode: CDATA is text in foreign content, a comment elsewhere.
    if (this.isInForeignContext() && this.#handler.wantsText()) {
      this.#handler.text(this.#slice(start, endIndex - endOffset));
    } else {
      this.#release(start);
    }
  }

  onend(): void {
    for (let index = this.#stack.length - 1; index >= 0; index--) {
      this.#handler.close(this.#stack[index] as string);
    }
  }

  #readTagName(start: number, endIndex: number): string {
    const name = this.#lowerName(start, endIndex);
    const context = this.#foreignContext[this.#foreignContext.length - 1];
    if (context === SVG) return svgTagNameAdjustments.get(name) ?? name;
    if (context === NONE) return name === 'image' ? 'img' : name;
    return name;
  }

  #emitOpenTag(name: string): void {
    this.#tagname = name;
    // Parser ignores a <form> inside a <form>: no element, no attributes.
    if (name === 'form' && this.#stack.includes('form')) {
      this.#tagname = '';
      return;
    }
    const impliesClose = openImpliesClose.get(name);
    if (impliesClose !== undefined) {
      while (this.#stack.length > 0 && impliesClose.has(this.#top())) this.#popElement();
    }
    if (!voidElements.has(name)) {
      this.#stack.push(name);
      if (name === 'svg') this.#foreignContext.push(SVG);
      else if (name === 'math') this.#foreignContext.push(MATH);
      else if (htmlIntegrationElements.has(name)) this.#foreignContext.push(NONE);
    }
    const wanted = this.#handler.attributesOf(name);
    this.#wanted = wanted;
    if (wanted !== undefined) {
      for (let index = 0; index < wanted.length; index++) this.#values[index] = undefined;
    }
  }

  #endOpenTag(): void {
    const wanted = this.#wanted;
    if (wanted !== null) {
      this.#wanted = null;
      this.#handler.open(this.#tagname, wanted === undefined ? NO_VALUES : this.#values);
    }
    if (voidElements.has(this.#tagname)) this.#handler.close(this.#tagname);
    this.#tagname = '';
    this.#syncDecoding();
  }

  #closeCurrentTag(): void {
    const name = this.#tagname;
    this.#endOpenTag();
    if (this.#stack.length > 0 && this.#top() === name) this.#popElement();
  }

  #popElement(): void {
    const element = this.#stack.pop() as string;
    if (element === 'svg' || element === 'math' || htmlIntegrationElements.has(element)) {
      this.#foreignContext.pop();
    }
    this.#handler.close(element);
    this.#syncDecoding();
  }

  /** Entities decoded only where they are read (see the top of this file). */
  #syncDecoding(): void {
    const decode = this.#attribute !== -1 || this.#handler.wantsText();
    (this.#tokenizer as unknown as { decodeEntities: boolean }).decodeEntities = decode;
  }

  #top(): string {
    return this.#stack[this.#stack.length - 1] as string;
  }

  /** `#slice(start, end).toLowerCase()`, from {@link NAMES} when it can (not across chunks). */
  #lowerName(start: number, end: number): string {
    if (start === end) return '';
    this.#release(start);
    const buffer = this.#buffers[0] as string;
    const to = end - this.#bufferOffset;
    if (to > buffer.length) return this.#slice(start, end).toLowerCase();
    return lowerName(buffer, start - this.#bufferOffset, to);
  }

  /** Parser's getSlice: the text from `start` to `end`, across chunks. */
  #slice(start: number, end: number): string {
    if (start === end) return '';
    this.#release(start);
    const buffers = this.#buffers;
    let slice = (buffers[0] as string).slice(start - this.#bufferOffset, end - this.#bufferOffset);
    while (end - this.#bufferOffset > (buffers[0] as string).length) {
      this.#bufferOffset += (buffers[0] as string).length;
      buffers.shift();
      slice += (buffers[0] as string).slice(0, end - this.#bufferOffset);
    }
    return slice;
  }

  /** Drops the chunks wholly before `start`: the tokenizer never reads behind it again. */
  #release(start: number): void {
    const buffers = this.#buffers;
    while (buffers.length > 1 && start - this.#bufferOffset >= (buffers[0] as string).length) {
      this.#bufferOffset += (buffers[0] as string).length;
      buffers.shift();
    }
  }
}
