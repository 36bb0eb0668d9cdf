// One document of a navigational sitemap, read into a small element tree: what the
// assembler walks. XmlTokenizer reads it (no DTD is ever read, only the five XML entities
// and character references are decoded, so external entities and entity expansion cannot
// happen); NamespaceScope gives each element its namespace; element-values resolves xml:base
// and the inherited attributes, as they depend only on the element's place in its own file.
// This file keeps the structure: the root check, depth and size caps, truncation.

import { NamespaceScope } from '../../shared/xml/namespace-scope.ts';
import { XmlTokenizer } from '../../shared/xml/xml-tokenizer.ts';
import {
  MAX_ELEMENTS,
  MAX_EXTRA_TEXT,
  MAX_NAVMAP_BYTES,
  MAX_XML_DEPTH,
  NAVMAP_NS,
} from '../navmap-names.ts';
import type { NavmapDiagnostic } from '../types.ts';
import { decodeXmlText } from './decode-xml-text.ts';
import { DocumentLog } from './document-log.ts';
import { baseOf, declarationsOf, inheritedOf, xlinkHrefOf } from './element-values.ts';
import type { RawDocument, RawElement } from './raw-document.ts';

/** Elements whose text is kept (obsolete forms kept as data). */
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['image', 'style']);

/**
 * Reads one document. Total: any input gives a document, with diagnostics; past `maxBytes`
 * (default {@link MAX_NAVMAP_BYTES}) the rest is left out with a `too-large` error.
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
  maxBytes: number = MAX_NAVMAP_BYTES,
): RawDocument {
  const decoded = decodeXmlText(input, charset, maxBytes);
  const reader = new DocumentReader(url, decoded.text);
  for (const [severity, code, message] of decoded.notes) reader.report(severity, code, message, 0);
  return reader.read();
}

class DocumentReader {
  readonly #url: string;
  readonly #text: string;
  readonly #tokenizer: XmlTokenizer;
  readonly #scope = new NamespaceScope();
  readonly #log: DocumentLog;
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
    this.#log = new DocumentLog(url, text);
    this.#tokenizer = new XmlTokenizer(
      {
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
        ondepthlimit: () =>
          this.#reportOnce(
            'error',
            'too-deep',
            `elements nest deeper than ${MAX_XML_DEPTH} levels; the deeper ones are not read`,
          ),
      },
      { maxDepth: MAX_XML_DEPTH },
    );
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
      diagnostics: this.#log.diagnostics,
    };
  }

  report(severity: NavmapDiagnostic['severity'], code: string, message: string, offset: number) {
    this.#log.report(severity, code, message, offset);
  }

  /** Reports a code once per document (for problems that repeat per element). */
  #reportOnce(severity: NavmapDiagnostic['severity'], code: string, message: string) {
    this.#log.reportOnce(severity, code, message, this.#tokenizer.startIndex);
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
    const parent = this.#open.at(-1) ?? null;
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
    const base = baseOf(attributes, parent?.base ?? this.#url);
    if (base.obsolete) {
      this.#reportOnce('info', 'obsolete-baseurl', 'the obsolete "baseurl" is read as xml:base');
    }
    if (base.invalid !== null) {
      this.report(
        'warning',
        'invalid-base',
        `xml:base "${base.invalid}" is not a URL; the parent's base is used`,
        offset,
      );
    }
    const link = xlinkHrefOf(attributes, this.#scope);
    if (link.undeclared) {
      this.#reportOnce(
        'warning',
        'undeclared-prefix',
        'prefix "xlink:" is used without an xmlns:xlink declaration; read as XLink',
      );
    }
    const { line, column } = this.#log.position(offset);
    const element: RawElement = {
      name,
      ns,
      attributes,
      href: link.href,
      id: attributes['xml:id'] ?? attributes['id'] ?? null,
      base: base.url,
      inherited: inheritedOf(attributes, parent?.inherited ?? {}, ns === NAVMAP_NS),
      parent,
      children: [],
      declares: declarationsOf(attributes),
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
