import { ownCopy } from '../../shared/own-copy.ts';
import { NamespaceScope } from '../../shared/xml/namespace-scope.ts';
import { XmlTokenizer } from '../../shared/xml/xml-tokenizer.ts';
import type { SitemapKind } from '../types.ts';
import type { DiagnosticLog } from './diagnostic-log.ts';
import type { EntryCollector } from './entry-collector.ts';
import {
  type ExtensionDraft,
  extensionDraft,
  finishImage,
  finishNews,
  finishVideo,
  resetDraft,
  type UrlDraft,
  urlDraft,
} from './entry-drafts.ts';
import { clip, readLoc, trimXml } from './loc.ts';
import { CONVENTIONAL_PREFIXES, EXTENSIONS, SITEMAP_NS } from './namespaces.ts';
import { MAX_VALUE_CHARS, MAX_XML_DEPTH } from './reader-limits.ts';

const ROOT_KINDS: Readonly<Record<string, SitemapKind>> = {
  urlset: 'urlset',
  sitemapindex: 'index',
  rss: 'rss',
  rdf: 'rss',
  feed: 'atom',
};

/** The element that holds one entry, per kind. */
const ENTRY_ELEMENT: Readonly<Record<string, string>> = {
  urlset: 'url',
  index: 'sitemap',
  rss: 'item',
  atom: 'entry',
};

/** The schema's order of a URL's (or an index entry's) own children. */
const CORE_ORDER: Readonly<Record<string, number>> = {
  loc: 0,
  lastmod: 1,
  changefreq: 2,
  priority: 3,
};

/**
 * A URL set's entry in its usual form, read at once instead of through eleven tokenizer
 * events: `<url>` then `<loc>` and the optional `<lastmod>`, `<changefreq>` and `<priority>`
 * in the schema's order, lower-case, without attributes, with only XML whitespace between
 * them, and values without markup or references. Anything else (an extension, a comment,
 * `&amp;`, an entry cut by the chunk's end) does not match and is read the general way,
 * which gives the same entries and diagnostics (held to it by a differential test).
 */
const USUAL_URL =
  /<url>[ \t\r\n]*<loc>([^<&]*)<\/loc>[ \t\r\n]*(?:<lastmod>([^<&]*)<\/lastmod>[ \t\r\n]*)?(?:<changefreq>([^<&]*)<\/changefreq>[ \t\r\n]*)?(?:<priority>([^<&]*)<\/priority>[ \t\r\n]*)?<\/url>/y;

/** `u`, the character after `<` where {@link USUAL_URL} may start. */
const U = 0x75;

/** What an XML element name can look like (a raw `<` in text shows up as a bogus one). */
const ELEMENT_NAME = /^[a-z_][\w.-]*$/;

/** Element names remembered with their parts (see `#nameParts`). */
const NAME_CACHE_SIZE = 256;

interface ElementName {
  readonly prefix: string;
  readonly local: string;
  /** Matches ELEMENT_NAME: else a raw `<` in text, read as a tag. */
  readonly wellFormed: boolean;
}

/** The value being read; one object per reader, filled anew for each value. */
interface Capture {
  /** Which field the text goes to. */
  field: string;
  depth: number;
  offset: number;
  text: string;
  /** The text passed MAX_VALUE_CHARS: it was let go, and the value is dropped. */
  tooLong: boolean;
}

/**
 * Reads an XML sitemap (URL set, index, RSS or Atom) from decoded text, streaming, with
 * XmlTokenizer (htmlparser2's XML mode, rebuilt for speed): it never builds a tree, recovers
 * from unclosed and mismatched tags, decodes only the five XML entities and character
 * references, and never reads a DTD: a DOCTYPE (with its internal subset) is reported and
 * skipped, entity references stay as written, so external entities and entity expansion
 * cannot happen, and the rest of the document is read as usual (as the navmap reader does).
 * Elements are matched by local name, case-insensitively, in context (`loc` in `url`, `loc`
 * in `image:image`), so missing or wrong namespaces and upper-case names still read; each
 * oddity is reported. Nesting past MAX_XML_DEPTH and values past MAX_VALUE_CHARS are
 * dropped with a diagnostic rather than held.
 */
export class XmlSitemapReader {
  kind: SitemapKind | null = null;
  readonly #parser: XmlTokenizer;
  readonly #log: DiagnosticLog;
  readonly #out: EntryCollector;
  readonly #scope = new NamespaceScope();
  readonly #stack: string[] = [];
  readonly #reportedPrefixes = new Set<string>();
  readonly #names = new Map<string, ElementName>();
  #entryDepth = -1;
  #url: UrlDraft | null = null;
  /** The one draft every entry is read into (see `resetDraft`). */
  readonly #draft: UrlDraft = urlDraft(0);
  #extension: ExtensionDraft | null = null;
  #extensionDepth = -1;
  /** The value being read (`#captured`), or null. */
  #capture: Capture | null = null;
  /** Reused for every value: an object per value was a measurable share of reading. */
  readonly #captured: Capture = { field: '', depth: 0, offset: 0, text: '', tooLong: false };
  #dtdReported = false;
  #tooDeepReported = false;
  #ending = false;
  /** The last event was an open tag: an implied close right now is a self-closing tag. */
  #justOpened = false;
  #rootClosed = false;
  #truncated = false;
  /** Position of the last core child of the current entry (see CORE_ORDER), for order checks. */
  #lastOrder = -1;

  constructor(log: DiagnosticLog, out: EntryCollector) {
    this.#log = log;
    this.#out = out;
    // Once maxEntries stopped the reading, the rest of the text given with it is not read:
    // what it holds would be reported or not depending on where the input was cut.
    this.#parser = new XmlTokenizer(
      {
        onopentag: (name, attributes) => {
          if (!out.stopped) this.#open(name, attributes);
        },
        onclosetag: (name, implied) => {
          if (!out.stopped) this.#close(name, implied);
        },
        ontext: (text) => {
          this.#justOpened = false;
          if (this.#capture !== null && !out.stopped) this.#captureText(this.#capture, text);
        },
        onprocessinginstruction: (name) => {
          if (!out.stopped) this.#declaration(name);
        },
        ondepthlimit: () => {
          if (!out.stopped) this.#tooDeep();
        },
      },
      { maxDepth: MAX_XML_DEPTH },
    );
  }

  write(text: string): void {
    this.#parser.write(text);
  }

  /**
   * The document ended; `cut` when the input was cut short (a limit, a failed read), which
   * is reported already: an unclosed root or a missing one then says nothing of the document.
   */
  end(cut = false): void {
    this.#ending = true;
    this.#parser.end();
    const open = this.kind !== null && this.kind !== 'unknown';
    if (open && !this.#rootClosed && !this.#truncated && !this.#out.stopped && !cut) {
      this.#log.report(
        'error',
        'truncated',
        'the document ends before its root element is closed; it may be cut short',
        Number.MAX_SAFE_INTEGER,
      );
    }
    if (this.kind === null && !cut) {
      this.#log.report(
        'error',
        'no-root-element',
        'the document has no root element; no entries read',
        0,
      );
      this.kind = 'unknown';
    }
  }

  get #offset(): number {
    return this.#parser.startIndex;
  }

  #declaration(name: string): void {
    const lower = name.toLowerCase();
    if (lower === '?xml' && this.#offset > 0) {
      this.#log.report(
        'warning',
        'xml-declaration-not-first',
        'the XML declaration must be the very first thing in the file (here something comes before it)',
        this.#offset,
      );
    }
    if ((lower !== '!doctype' && lower !== '!entity') || this.#dtdReported) return;
    this.#dtdReported = true;
    this.#log.report(
      'warning',
      'dtd-ignored',
      'the document has a DTD; it is ignored (no DTD, external entity or entity expansion is ever read: entity references stay as written)',
      this.#offset,
    );
  }

  #tooDeep(): void {
    if (this.#tooDeepReported) return;
    this.#tooDeepReported = true;
    this.#log.report(
      'error',
      'too-deep',
      `elements nest deeper than ${MAX_XML_DEPTH} levels; the deeper ones are not read`,
      this.#offset,
    );
  }

  #captureText(capture: Capture, text: string): void {
    if (capture.tooLong) return;
    if (capture.text.length + text.length > MAX_VALUE_CHARS) {
      capture.tooLong = true;
      capture.text = '';
      return;
    }
    capture.text += text;
  }

  #open(name: string, attributes: Record<string, string>): void {
    this.#openElement(name, attributes);
    this.#justOpened = true;
  }

  #openElement(name: string, attributes: Record<string, string>): void {
    this.#scope.open(attributes);
    const { prefix, local, wellFormed } = this.#nameParts(name);
    this.#stack.push(local);
    const depth = this.#stack.length;
    if (!wellFormed) {
      this.#log.report(
        'warning',
        'malformed-markup',
        `"<${clip(name, 20)}" is not an element: a raw "<" should be written &lt;`,
        this.#offset,
      );
    }
    if (this.kind === null) {
      this.#root(local, prefix);
      return;
    }
    if (this.kind === 'unknown') return;

    if (this.#extension !== null) {
      this.#extensionChild(local, prefix, attributes, depth);
      return;
    }
    const entryElement = ENTRY_ELEMENT[this.kind] as string;
    if (local === entryElement) {
      if (this.#url !== null) {
        this.#log.report(
          'warning',
          'unclosed-element',
          `<${entryElement}> opened before the previous one was closed`,
          this.#offset,
        );
        this.#finishEntry();
      }
      this.#url = resetDraft(this.#draft, this.#offset);
      this.#entryDepth = depth;
      this.#lastOrder = -1;
      return;
    }
    if (this.#url === null) {
      // Between entries the sitemaps.org schema allows only its own entry element.
      if (this.#isSitemapElement(prefix) && (this.kind === 'urlset' || this.kind === 'index')) {
        this.#unknownElement(local);
      }
      return;
    }
    switch (this.kind) {
      case 'urlset':
        this.#urlChild(local, prefix, attributes, depth);
        return;
      case 'index':
        if (local === 'loc' || local === 'lastmod') this.#coreChild(local, depth);
        else if (this.#isSitemapElement(prefix)) this.#unknownElement(local);
        return;
      case 'rss':
        if (local === 'link' && prefix === '') this.#startCapture('loc', depth);
        else if (local === 'guid' && prefix === '' && isPermaLink(attributes))
          this.#startCapture('guid', depth);
        else if (local === 'pubdate' || (local === 'date' && prefix === 'dc'))
          this.#startCapture('lastmod', depth);
        return;
      case 'atom':
        this.#atomChild(local, attributes, depth);
        return;
      default:
        return;
    }
  }

  /**
   * The prefix and local name of an element name, lower-cased, and whether it looks like
   * one. Remembered per name: a sitemap repeats a handful of names millions of times (the
   * tokenizer hands out the same string for each), and a hostile one with ever new names
   * stops being remembered at NAME_CACHE_SIZE.
   */
  #nameParts(name: string): ElementName {
    const known = this.#names.get(name);
    if (known !== undefined) return known;
    const colon = name.indexOf(':');
    const local = (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
    const parts: ElementName = {
      prefix: colon < 0 ? '' : name.slice(0, colon).toLowerCase(),
      local,
      wellFormed: ELEMENT_NAME.test(local),
    };
    if (this.#names.size < NAME_CACHE_SIZE) this.#names.set(name, parts);
    return parts;
  }

  #root(local: string, prefix: string): void {
    const kind = ROOT_KINDS[local];
    if (kind === undefined) {
      this.kind = 'unknown';
      const what = local === 'html' ? 'an HTML page' : `a <${local}> document`;
      this.#log.report(
        'error',
        'not-a-sitemap',
        `this is ${what}, not a sitemap; no entries read`,
        this.#offset,
      );
      return;
    }
    this.kind = kind;
    if (kind !== 'urlset' && kind !== 'index') return;
    // Entries read at once only where their unprefixed children are sitemaps.org's own
    // elements (no default namespace, or sitemaps.org's), as the general way reads them.
    const unprefixed = this.#scope.resolve('');
    if (kind === 'urlset' && (unprefixed === undefined || unprefixed === SITEMAP_NS)) {
      this.#parser.shortcut = {
        after: U,
        take: (buf, at, offset) => this.#usualUrl(buf, at, offset),
      };
    }
    const ns = this.#scope.resolve(prefix);
    if (ns === undefined) {
      this.#log.report(
        'warning',
        'missing-namespace',
        `<${local}> does not declare xmlns="${SITEMAP_NS}"`,
        this.#offset,
      );
    } else if (ns !== SITEMAP_NS) {
      this.#log.report(
        'warning',
        'wrong-namespace',
        `<${local}> is in namespace "${ns}", not "${SITEMAP_NS}"; read anyway`,
        this.#offset,
      );
    }
  }

  #urlChild(
    local: string,
    prefix: string,
    attributes: Record<string, string>,
    depth: number,
  ): void {
    const extension = this.#extensionOf(prefix);
    if (extension === null) {
      if (CORE_ORDER[local] !== undefined) this.#coreChild(local, depth);
      else if (this.#isSitemapElement(prefix)) this.#unknownElement(local);
      return;
    }
    // Extensions come after the core elements (`xsd:any` ends the schema's sequence).
    this.#lastOrder = CORE_ORDER['priority'] as number;
    if (extension === 'xhtml') {
      if (local === 'link') this.#alternate(attributes);
      return;
    }
    if (local === extension) {
      this.#extension = extensionDraft(extension, this.#offset);
      this.#extensionDepth = depth;
    }
  }

  /** `loc`, `lastmod`, `changefreq`, `priority`: captured, and checked for the schema's order. */
  #coreChild(local: string, depth: number): void {
    const order = CORE_ORDER[local] as number;
    if (order <= this.#lastOrder) {
      const what = order === this.#lastOrder ? `a second <${local}>` : `<${local}> out of order`;
      this.#log.report(
        'warning',
        'element-order',
        `${what}: the schema wants loc, lastmod, changefreq, priority, then extensions, once each`,
        this.#offset,
      );
    }
    this.#lastOrder = Math.max(this.#lastOrder, order);
    this.#startCapture(local, depth);
  }

  /** An unprefixed element in the sitemaps.org namespace (or in none). */
  #isSitemapElement(prefix: string): boolean {
    if (prefix !== '') return false;
    const ns = this.#scope.resolve('');
    return ns === undefined || ns === SITEMAP_NS;
  }

  #unknownElement(local: string): void {
    this.#log.report(
      'warning',
      'unknown-element',
      `<${local}> is not a sitemaps.org element here; ignored (the schema rejects it)`,
      this.#offset,
    );
  }

  /** Which extension a prefixed element belongs to, by its namespace or its usual prefix. */
  #extensionOf(prefix: string): 'image' | 'video' | 'news' | 'xhtml' | null {
    if (prefix === '') {
      const ns = this.#scope.resolve('');
      return ns === undefined ? null : (EXTENSIONS[ns] ?? null);
    }
    const ns = this.#scope.resolve(prefix);
    if (ns !== undefined) return EXTENSIONS[ns] ?? null;
    if (!CONVENTIONAL_PREFIXES.has(prefix)) return null;
    if (!this.#reportedPrefixes.has(prefix)) {
      this.#reportedPrefixes.add(prefix);
      this.#log.report(
        'warning',
        'undeclared-prefix',
        `prefix "${prefix}:" is used without an xmlns:${prefix} declaration; read as the usual ${prefix} extension`,
        this.#offset,
      );
    }
    return prefix as 'image' | 'video' | 'news' | 'xhtml';
  }

  #alternate(attributes: Record<string, string>): void {
    const draft = this.#url as UrlDraft;
    const rel = attributes['rel']?.toLowerCase();
    const hreflang = attributes['hreflang'];
    const href = attributes['href'];
    if (rel !== 'alternate' || !hreflang || !href) {
      this.#log.report(
        'warning',
        'incomplete-alternate',
        '<xhtml:link> needs rel="alternate", hreflang and href; ignored',
        this.#offset,
      );
      return;
    }
    draft.alternates ??= [];
    draft.alternates.push({ hreflang: ownCopy(trimXml(hreflang)), href: ownCopy(trimXml(href)) });
  }

  #extensionChild(
    local: string,
    prefix: string,
    attributes: Record<string, string>,
    depth: number,
  ): void {
    const draft = this.#extension as ExtensionDraft;
    // An extension's children are in its own namespace; a bare one falls into sitemaps.org's.
    if (this.#isSitemapElement(prefix)) this.#unknownElement(local);
    const attribute = attributes['relationship'] ?? attributes['info'];
    // Copied: an attribute value is a slice of the document, and it ends up in the entry.
    if (attribute !== undefined) draft.attributes.set(local, ownCopy(attribute));
    this.#startCapture(local, depth);
  }

  #atomChild(local: string, attributes: Record<string, string>, depth: number): void {
    const draft = this.#url as UrlDraft;
    if (local === 'link') {
      const rel = attributes['rel']?.toLowerCase();
      const href = attributes['href'];
      if (draft.loc === null && href && (rel === undefined || rel === 'alternate'))
        draft.loc = href;
    } else if (local === 'updated' || local === 'modified') {
      this.#startCapture('lastmod', depth);
    } else if ((local === 'published' || local === 'issued') && draft.lastmod === undefined) {
      this.#startCapture('lastmod', depth);
    }
  }

  /**
   * Reads a {@link USUAL_URL} entry at `at`, between entries of the root, as the events it
   * stands for would: the entry opened at `<url>`, each value as its element closes, the
   * entry finished. Returns where it ends, or -1 (the tokenizer reads on).
   */
  #usualUrl(buf: string, at: number, offset: number): number {
    if (this.#stack.length !== 1 || this.#url !== null || this.#out.stopped) return -1;
    USUAL_URL.lastIndex = at;
    const match = USUAL_URL.exec(buf);
    if (match === null) return -1;
    const loc = match[1] as string;
    const lastmod = match[2];
    const changefreq = match[3];
    const priority = match[4];
    if (
      loc.length > MAX_VALUE_CHARS ||
      (lastmod?.length ?? 0) > MAX_VALUE_CHARS ||
      (changefreq?.length ?? 0) > MAX_VALUE_CHARS ||
      (priority?.length ?? 0) > MAX_VALUE_CHARS
    ) {
      return -1;
    }
    // Where the general way's open event would put the entry: the tokenizer's offset as it
    // stands (after `?>` or `</x >` that is not the `<` itself; htmlparser2's offsets).
    const draft = resetDraft(this.#draft, this.#parser.startIndex);
    this.#url = draft;
    this.#justOpened = false;
    draft.loc = loc;
    // Each optional element starts at the first `<` after the one before it ends.
    let from = buf.indexOf('<', at + 5) + 11 + loc.length;
    if (lastmod !== undefined) from = this.#usualValue(buf, from, offset, 'lastmod', lastmod);
    if (changefreq !== undefined)
      from = this.#usualValue(buf, from, offset, 'changefreq', changefreq);
    if (priority !== undefined) this.#usualValue(buf, from, offset, 'priority', priority);
    this.#finishEntry();
    return USUAL_URL.lastIndex;
  }

  /** One value of {@link #usualUrl}, as its element's close gives it; returns where it ends. */
  #usualValue(buf: string, from: number, offset: number, field: string, text: string): number {
    const start = buf.indexOf('<', from);
    const capture = this.#captured;
    capture.field = field;
    capture.depth = 3;
    capture.offset = offset + start;
    capture.text = text;
    capture.tooLong = false;
    this.#field(capture);
    capture.text = '';
    // `<field>`, the text, `</field>`.
    return start + 2 * field.length + 5 + text.length;
  }

  #startCapture(field: string, depth: number): void {
    const capture = this.#captured;
    capture.field = field;
    capture.depth = depth;
    capture.offset = this.#offset;
    capture.text = '';
    capture.tooLong = false;
    this.#capture = capture;
  }

  #close(_name: string, implied: boolean): void {
    const depth = this.#stack.length;
    const local = this.#stack.pop();
    this.#scope.close();
    // htmlparser2 reports a self-closing tag as an implied close right after its open tag.
    const selfClosing = implied && this.#justOpened && !this.#ending;
    this.#justOpened = false;
    const cut = implied && this.#ending;
    if (implied && !selfClosing && !cut && ELEMENT_NAME.test(local ?? '')) {
      this.#log.report(
        'warning',
        'unclosed-element',
        `<${local}> is not closed before its parent's end tag`,
        this.#offset,
      );
    }
    if (depth === 1 && !cut) this.#rootClosed = true;
    // A second root (not well-formed, but read) may bind another default namespace.
    if (depth === 1) this.#parser.shortcut = null;
    if (this.#capture !== null && depth <= this.#capture.depth) {
      const capture = this.#capture;
      this.#capture = null;
      if (depth === capture.depth && !cut) this.#field(capture);
      // Let go of the value (it may be a slice that keeps a piece of the document alive).
      capture.text = '';
    }
    if (this.#extension !== null && depth === this.#extensionDepth) {
      if (cut) this.#extension = null;
      else this.#finishExtension();
    }
    if (this.#url !== null && depth === this.#entryDepth) {
      if (cut) this.#cutEntry(local ?? '');
      else this.#finishEntry();
    }
  }

  /**
   * The document ends inside an entry. Its `loc` (or link, or permalink guid) is kept when
   * that element closed before the end, with the other fields that closed; a value whose own
   * element was cut is never read, as it may be only part of one.
   */
  #cutEntry(local: string): void {
    const draft = this.#url as UrlDraft;
    this.#truncated = true;
    const kept = draft.loc !== null || (draft.guid !== undefined && this.kind === 'rss');
    this.#log.report(
      'error',
      'truncated',
      kept
        ? `the document ends inside <${local}>; the entry is kept, as its address was complete (what was cut is left out)`
        : `the document ends inside <${local}> before its address was complete; that entry is dropped`,
      draft.offset,
    );
    if (kept) this.#finishEntry();
    else this.#url = null;
  }

  #field(capture: Capture): void {
    if (capture.tooLong) {
      this.#valueTooLong(capture);
      return;
    }
    if (this.#extension !== null) {
      // Copied (a date by `date`): an extension's values end up in the entry, and a slice
      // would keep its chunk.
      const value = trimXml(capture.text);
      if (capture.field === 'tag') this.#extension.tags.push(ownCopy(value));
      else if (!this.#extension.fields.has(capture.field)) {
        const date = capture.field === 'publication_date' || capture.field === 'expiration_date';
        this.#extension.fields.set(
          capture.field,
          date ? this.#out.date(value, capture.offset) : ownCopy(value),
        );
      }
      return;
    }
    const draft = this.#url as UrlDraft;
    if (capture.field === 'guid') {
      draft.guid = capture.text;
      return;
    }
    if (capture.field !== 'loc' && trimXml(capture.text).length === 0) {
      this.#log.report(
        'info',
        'empty-element',
        `empty <${capture.field}>; left out (the schema rejects it)`,
        capture.offset,
      );
      return;
    }
    switch (capture.field) {
      case 'loc':
        draft.loc = capture.text;
        return;
      case 'lastmod':
        this.#out.lastmod(draft, capture.text, capture.offset);
        return;
      case 'changefreq':
        this.#out.changefreq(draft, capture.text, capture.offset);
        return;
      case 'priority':
        this.#out.priority(draft, capture.text, capture.offset);
        return;
      default:
        return;
    }
  }

  #valueTooLong(capture: Capture): void {
    const isLoc = capture.field === 'loc' && this.#extension === null;
    this.#log.report(
      'error',
      'value-too-long',
      `<${capture.field}> is over ${MAX_VALUE_CHARS} characters; ${isLoc ? 'entry' : 'value'} skipped`,
      capture.offset,
    );
    if (isLoc) (this.#url as UrlDraft).skip = true;
  }

  #finishExtension(): void {
    const extension = this.#extension as ExtensionDraft;
    const draft = this.#url as UrlDraft;
    this.#extension = null;
    if (extension.kind === 'image') {
      const image = finishImage(extension);
      if ('value' in image) draft.images = [...(draft.images ?? []), image.value];
      else this.#log.report('warning', 'incomplete-image', image.problem, extension.offset);
    } else if (extension.kind === 'video') {
      const video = finishVideo(extension);
      if ('value' in video) draft.videos = [...(draft.videos ?? []), video.value];
      else this.#log.report('warning', 'incomplete-video', video.problem, extension.offset);
    } else {
      const news = finishNews(extension);
      if ('value' in news) draft.news = news.value;
      else this.#log.report('warning', 'incomplete-news', news.problem, extension.offset);
    }
  }

  #finishEntry(): void {
    const draft = this.#url as UrlDraft;
    this.#url = null;
    this.#extension = null;
    this.#capture = null;
    if (draft.skip === true) return;
    // An RSS item without <link>: its guid is the address when it is a permalink URL.
    if (draft.loc === null && draft.guid !== undefined && readLoc(draft.guid).ok) {
      draft.loc = draft.guid;
    }
    if (this.kind === 'index') this.#out.index(draft);
    else
      this.#out.url(draft, this.kind === 'urlset' ? 'url' : this.kind === 'rss' ? 'item' : 'entry');
  }
}

/** `<guid>` is a permalink unless `isPermaLink` says "false" (RSS 2.0; the name in any case). */
function isPermaLink(attributes: Record<string, string>): boolean {
  for (const name in attributes) {
    if (name.toLowerCase() === 'ispermalink') {
      return trimXml(attributes[name] as string).toLowerCase() !== 'false';
    }
  }
  return true;
}
