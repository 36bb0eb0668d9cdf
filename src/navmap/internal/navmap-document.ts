// One document of a navigational sitemap, read into a small element tree: what the
// assembler walks. XmlTokenizer reads it (no DTD is ever read, only the five XML entities
// and character references are decoded, so external entities and entity expansion cannot
// happen); NamespaceScope gives each element its namespace; xml:base and the inherited
// attributes are resolved here, as they depend only on the element's place in its own file.

import { NamespaceScope } from '../../shared/xml/namespace-scope.ts';
import { XmlTokenizer } from '../../shared/xml/xml-tokenizer.ts';
import {
  MAX_ELEMENTS,
  MAX_EXTRA_TEXT,
  MAX_XML_DEPTH,
  NAVMAP_NS,
  XLINK_NS,
} from '../navmap-names.ts';
import type { NavmapDiagnostic } from '../types.ts';
import { decodeXmlText } from './decode-xml-text.ts';
import { LineIndex } from './line-index.ts';

/** The attributes that pass down to descendants. */
export const INHERITED_KEYS = ['lang', 'type', 'charset', 'target'] as const;
export type InheritedKey = (typeof INHERITED_KEYS)[number];
export type InheritedValues = Partial<Record<InheritedKey, string | null>>;

/** An element as read: its namespace resolved, its base and inherited values computed. */
export interface RawElement {
  /** Local name, lower-cased (XML is case-sensitive; a wrong case is reported and read). */
  readonly name: string;
  /** Namespace URI, or null when none is bound. */
  readonly ns: string | null;
  /** Attributes as written. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The `xlink:href` value (by namespace, or by the usual prefix when undeclared). */
  readonly href: string | null;
  /** `xml:id` (or, in older documents, `id`). */
  readonly id: string | null;
  /** The element's base URI (its `xml:base` resolved against its parent's). */
  readonly base: string;
  /** Inherited values defined on the element or its ancestors in this document. */
  readonly inherited: InheritedValues;
  readonly parent: RawElement | null;
  readonly children: RawElement[];
  /** Namespace bindings declared on this element (prefix as written, '' for the default). */
  readonly declares: Readonly<Record<string, string>> | null;
  readonly line: number;
  readonly column: number;
  /** Text content, only kept for elements kept as data (capped). */
  text: string;
}

export interface RawDocument {
  /** The URL the document was read from (after redirects): the base of the root. */
  readonly url: string;
  /** The `sitemap` root, or null when the document is not a navigational sitemap. */
  readonly root: RawElement | null;
  /** Why there is no root, for the caller's message. */
  readonly problem: string | null;
  readonly ids: ReadonlyMap<string, RawElement>;
  readonly diagnostics: readonly NavmapDiagnostic[];
}

/** Diagnostics kept per code: a broken file must not make thousands of them. */
const MAX_PER_CODE = 100;

/** Elements whose text is kept (obsolete forms kept as data). */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['image', 'style']);

/**
 * Reads one document. Total: any input gives a document, with diagnostics.
 *
 * @example
 * ```ts
 * const doc = readNavmapDocument(bytes, 'https://ex.org/nav/map.xml');
 * doc.root?.children.length;
 * ```
 */
export function readNavmapDocument(
  input: Uint8Array | string,
  url: string,
  charset?: string,
): RawDocument {
  const decoded = decodeXmlText(input, charset);
  const reader = new DocumentReader(url, decoded.text);
  for (const [severity, code, message] of decoded.notes) reader.report(severity, code, message, 0);
  return reader.read();
}

class DocumentReader {
  readonly #url: string;
  readonly #text: string;
  readonly #lines: LineIndex;
  readonly #tokenizer: XmlTokenizer;
  readonly #scope = new NamespaceScope();
  readonly #diagnostics: NavmapDiagnostic[] = [];
  readonly #reported = new Set<string>();
  readonly #perCode = new Map<string, number>();
  readonly #ids = new Map<string, RawElement>();
  /** Open elements: the element kept for each level, or null when it was not kept. */
  readonly #open: (RawElement | null)[] = [];
  #root: RawElement | null = null;
  #problem: string | null = null;
  #seenRoot = false;
  #count = 0;
  #ending = false;
  #justOpened = false;
  #truncated = false;

  constructor(url: string, text: string) {
    this.#url = url;
    this.#text = text;
    this.#lines = new LineIndex(text);
    this.#tokenizer = new XmlTokenizer({
      onopentag: (name, attributes) => {
        this.#openElement(name, attributes);
        this.#justOpened = true;
      },
      onclosetag: (name, implied) => {
        this.#closeElement(name, implied);
        this.#justOpened = false;
      },
      ontext: (text) => {
        this.#justOpened = false;
        const current = this.#open.at(-1);
        if (current && TEXT_ELEMENTS.has(current.name) && current.text.length < MAX_EXTRA_TEXT) {
          current.text = (current.text + text).slice(0, MAX_EXTRA_TEXT);
        }
      },
      onprocessinginstruction: (name) => this.#instruction(name),
    });
  }

  read(): RawDocument {
    if (this.#text.trim() === '') {
      this.report('error', 'empty-document', 'the document is empty', 0);
    } else {
      this.#tokenizer.write(this.#text);
      this.#ending = true;
      this.#tokenizer.end();
    }
    if (!this.#seenRoot && this.#problem === null) {
      this.#problem = 'the document has no root element';
      if (this.#text.trim() !== '') this.report('error', 'no-root-element', this.#problem, 0);
    }
    return {
      url: this.#url,
      root: this.#root,
      problem: this.#problem,
      ids: this.#ids,
      diagnostics: this.#diagnostics,
    };
  }

  report(severity: NavmapDiagnostic['severity'], code: string, message: string, offset: number) {
    const count = (this.#perCode.get(code) ?? 0) + 1;
    this.#perCode.set(code, count);
    if (count > MAX_PER_CODE) return;
    const { line, column } = this.#lines.position(offset);
    this.#diagnostics.push({ code, severity, message, line, column, url: this.#url });
  }

  /** Reports a code once per document (for problems that repeat per element). */
  #reportOnce(severity: NavmapDiagnostic['severity'], code: string, message: string) {
    if (this.#reported.has(code)) return;
    this.#reported.add(code);
    this.report(severity, code, message, this.#tokenizer.startIndex);
  }

  #instruction(name: string): void {
    const lower = name.toLowerCase();
    const offset = this.#tokenizer.startIndex;
    if (lower === '?xml' && offset > 0) {
      this.report(
        'warning',
        'xml-declaration-not-first',
        'the XML declaration must be the very first thing in the file',
        offset,
      );
    } else if (lower === '!doctype' || lower === '!entity') {
      this.#reportOnce(
        'warning',
        'dtd-ignored',
        'the document has a DTD; it is ignored (no DTD, external entity or entity expansion is ever read)',
      );
    }
  }

  #openElement(written: string, attributes: Record<string, string>): void {
    this.#scope.open(attributes);
    const parent = this.#open.length === 0 ? null : (this.#open.at(-1) ?? null);
    const depth = this.#open.length + 1;
    // Nothing is kept below an element that was not kept, or once the root was refused.
    if ((depth > 1 && parent === null) || (this.#seenRoot && this.#root === null)) {
      this.#open.push(null);
      return;
    }
    if (depth === 1 && this.#seenRoot) {
      this.#reportOnce('warning', 'extra-root', 'content after the root element is ignored');
      this.#open.push(null);
      return;
    }
    if (depth > MAX_XML_DEPTH) {
      this.#reportOnce(
        'error',
        'too-deep',
        `elements nest deeper than ${MAX_XML_DEPTH} levels; the deeper ones are not read`,
      );
      this.#open.push(null);
      return;
    }
    if (this.#count >= MAX_ELEMENTS) {
      this.#reportOnce(
        'error',
        'too-many-elements',
        `the document has more than ${MAX_ELEMENTS} elements; the rest are not read`,
      );
      this.#open.push(null);
      return;
    }
    this.#count++;
    const element = this.#element(written, attributes, parent);
    this.#open.push(element);
    if (parent === null) {
      this.#seenRoot = true;
      this.#rootElement(element, written);
      return;
    }
    parent.children.push(element);
  }

  #element(
    written: string,
    attributes: Record<string, string>,
    parent: RawElement | null,
  ): RawElement {
    const offset = this.#tokenizer.startIndex;
    const colon = written.indexOf(':');
    const prefix = colon < 0 ? '' : written.slice(0, colon);
    const local = colon < 0 ? written : written.slice(colon + 1);
    const ns = this.#scope.resolve(prefix.toLowerCase()) ?? null;
    const name = local.toLowerCase();
    if (ns === NAVMAP_NS && name !== local) {
      this.report(
        'warning',
        'element-case',
        `<${written}> should be written <${name}> (XML names are case-sensitive); read anyway`,
        offset,
      );
    }
    const base = this.#base(attributes, parent, offset);
    const inherited: InheritedValues = { ...parent?.inherited };
    if (ns === NAVMAP_NS) {
      for (const key of INHERITED_KEYS) {
        const value = attributes[key] ?? (key === 'lang' ? attributes['xml:lang'] : undefined);
        if (value !== undefined) inherited[key] = value.trim() === '' ? null : value.trim();
      }
    }
    const { line, column } = this.#lines.position(offset);
    const element: RawElement = {
      name,
      ns,
      attributes,
      href: this.#xlinkHref(attributes),
      id: attributes['xml:id'] ?? attributes['id'] ?? null,
      base,
      inherited,
      parent,
      children: [],
      declares: declarations(attributes),
      line,
      column,
      text: '',
    };
    if (element.id !== null && ns === NAVMAP_NS) {
      if (this.#ids.has(element.id)) {
        this.report(
          'warning',
          'duplicate-id',
          `xml:id "${element.id}" is used twice; references go to the first`,
          offset,
        );
      } else {
        this.#ids.set(element.id, element);
      }
    }
    return element;
  }

  /** `xml:base` (or the obsolete `baseurl`) resolved against the parent's base. */
  #base(attributes: Record<string, string>, parent: RawElement | null, offset: number): string {
    const parentBase = parent?.base ?? this.#url;
    let value = attributes['xml:base'];
    if (value === undefined && attributes['baseurl'] !== undefined) {
      value = attributes['baseurl'];
      this.#reportOnce('info', 'obsolete-baseurl', 'the obsolete "baseurl" is read as xml:base');
    }
    if (value === undefined) return parentBase;
    const resolved = URL.parse(value.trim(), parentBase);
    if (resolved === null) {
      this.report(
        'warning',
        'invalid-base',
        `xml:base "${value}" is not a URL; the parent's base is used`,
        offset,
      );
      return parentBase;
    }
    return resolved.href;
  }

  /** `xlink:href`, found by the XLink namespace whatever the prefix. */
  #xlinkHref(attributes: Record<string, string>): string | null {
    for (const key in attributes) {
      const colon = key.indexOf(':');
      if (colon < 0 || key.slice(colon + 1) !== 'href') continue;
      const prefix = key.slice(0, colon).toLowerCase();
      const ns = this.#scope.resolve(prefix);
      if (ns === XLINK_NS) return attributes[key] as string;
      if (ns === undefined && prefix === 'xlink') {
        this.#reportOnce(
          'warning',
          'undeclared-prefix',
          'prefix "xlink:" is used without an xmlns:xlink declaration; read as XLink',
        );
        return attributes[key] as string;
      }
    }
    return null;
  }

  #rootElement(element: RawElement, written: string): void {
    const offset = this.#tokenizer.startIndex;
    if (element.name !== 'sitemap') {
      const what = element.name === 'html' ? 'an HTML page' : `a <${written}> document`;
      this.#problem = `the root element is <${written}>: this is ${what}, not a navigational sitemap`;
    } else if (element.ns !== NAVMAP_NS) {
      const where = element.ns === null ? 'no namespace' : `namespace "${element.ns}"`;
      this.#problem = `<${written}> is in ${where}, not "${NAVMAP_NS}": not a navigational sitemap (a sitemaps.org file is read with waymark/sitemap)`;
    } else {
      this.#root = element;
      return;
    }
    this.report('error', 'not-a-navmap', this.#problem, offset);
  }

  #closeElement(name: string, implied: boolean): void {
    this.#scope.close();
    const element = this.#open.pop();
    const selfClosing = implied && this.#justOpened && !this.#ending;
    if (!implied || selfClosing || element === null || element === undefined) return;
    if (this.#ending) {
      if (!this.#truncated) {
        this.#truncated = true;
        this.report(
          'error',
          'truncated',
          `the document ends before <${name}> is closed; it may be cut short (what was read is kept)`,
          this.#text.length,
        );
      }
      return;
    }
    this.report(
      'warning',
      'unclosed-element',
      `<${name}> is not closed before its parent's end tag`,
      this.#tokenizer.startIndex,
    );
  }
}

function declarations(attributes: Record<string, string>): Record<string, string> | null {
  let out: Record<string, string> | null = null;
  for (const key in attributes) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) {
      out ??= {};
      out[key === 'xmlns' ? '' : key.slice(6)] = attributes[key] as string;
    }
  }
  return out;
}
