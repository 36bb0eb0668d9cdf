import { concatBytes } from '../shared/bytes.ts';
import type { Diagnostic } from '../shared/diagnostic.ts';
import { chooseEncoding, SNIFF_BYTES, StreamDecoder } from '../shared/xml/text-decoding.ts';
import { DiagnosticLog } from './internal/diagnostic-log.ts';
import { EntryCollector } from './internal/entry-collector.ts';
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS } from './internal/protocol-limits.ts';
import { XmlSitemapReader } from './internal/xml-sitemap-reader.ts';
import type { SitemapEntry, SitemapKind } from './types.ts';

/** Default cap on entries read from one document: twenty times the protocol's limit. */
export const DEFAULT_MAX_ENTRIES = 1_000_000;

export interface SitemapParserOptions {
  /** The sitemap's own URL: its host is the one `loc` values are expected on. */
  readonly url?: string;
  /** The HTTP `Content-Type`, whose charset counts after a BOM and before the XML declaration. */
  readonly contentType?: string;
  /** Entries read before reading stops with an error diagnostic. Default 1,000,000. */
  readonly maxEntries?: number;
}

/**
 * The push-parser core every sitemap reader runs: `write()` decompressed bytes (or text) as
 * they arrive, `end()` once, and entries come out through `onEntry` as soon as each one is
 * complete. Pure and synchronous; it keeps nothing but the entry being read, so memory does
 * not grow with the document. The kind (`urlset`, `index`, `text`, `rss`, `atom` or
 * `unknown`) is decided from the content, never from a file name.
 *
 * @example
 * ```ts
 * const parser = new SitemapParser({ url: 'https://example.com/sitemap.xml' }, (entry) => urls.push(entry.loc));
 * for (const chunk of chunks) parser.write(chunk);
 * parser.end();
 * parser.kind; // 'urlset'
 * ```
 */
export class SitemapParser {
  readonly #options: SitemapParserOptions;
  readonly #log = new DiagnosticLog();
  readonly #collector: EntryCollector;
  #head: Uint8Array[] = [];
  #headLength = 0;
  #decoder: StreamDecoder | null = null;
  #mode: 'pending' | 'xml' | 'text' = 'pending';
  #pendingText = '';
  #xml: XmlSitemapReader | null = null;
  #textCarry = '';
  #textLine = 0;
  #bytes = 0;
  #ended = false;
  #diagnostics: Diagnostic[] | null = null;

  constructor(options: SitemapParserOptions, onEntry: (entry: SitemapEntry) => void) {
    this.#options = options;
    const host = options.url === undefined ? null : (URL.parse(options.url)?.host ?? null);
    this.#collector = new EntryCollector(this.#log, {
      host,
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      emit: onEntry,
    });
  }

  /** What the document is; `unknown` until the first element or line is seen. */
  get kind(): SitemapKind {
    if (this.#mode === 'text') return 'text';
    return this.#xml?.kind ?? 'unknown';
  }

  /** True once the entry cap was reached: feeding more input changes nothing. */
  get stopped(): boolean {
    return this.#collector.stopped;
  }

  /** Entries emitted so far. */
  get count(): number {
    return this.#collector.count;
  }

  /** Problems found, complete after `end()`. */
  get diagnostics(): readonly Diagnostic[] {
    return this.#diagnostics ?? [];
  }

  write(chunk: Uint8Array | string): void {
    if (this.#ended || this.stopped) return;
    if (typeof chunk === 'string') {
      this.#text(this.#bytes === 0 && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk);
      this.#bytes += chunk.length;
      return;
    }
    this.#countBytes(chunk.length);
    if (this.#decoder === null) {
      this.#head.push(chunk);
      this.#headLength += chunk.length;
      if (this.#headLength < SNIFF_BYTES) return;
      this.#startDecoding();
      return;
    }
    this.#text(this.#decoder.decode(chunk));
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#decoder === null && this.#headLength > 0) this.#startDecoding();
    if (this.#decoder !== null) this.#text(this.#decoder.decode(new Uint8Array(0), true));
    if (this.#decoder?.invalid) {
      this.#log.report(
        'warning',
        'invalid-encoding',
        `bytes that are not valid ${this.#decoder.encoding} were replaced with U+FFFD`,
        0,
      );
    }
    if (this.#mode === 'pending') {
      this.#log.reportAt('error', 'empty-document', 'the document is empty', 1);
    } else if (this.#mode === 'xml') {
      this.#xml?.end();
    } else {
      this.#lines('');
      this.#collector.textLine(this.#textCarry, ++this.#textLine);
    }
    if (this.count > MAX_SITEMAP_URLS) {
      this.#log.reportAt(
        'warning',
        'over-protocol-urls',
        `${this.count} entries: the protocol allows ${MAX_SITEMAP_URLS} per sitemap`,
        1,
      );
    }
    this.#diagnostics = this.#log.finish();
  }

  #countBytes(length: number): void {
    const before = this.#bytes;
    this.#bytes += length;
    if (before <= MAX_SITEMAP_BYTES && this.#bytes > MAX_SITEMAP_BYTES) {
      this.#log.reportAt(
        'warning',
        'over-protocol-size',
        'the sitemap is over 50 MiB uncompressed, the protocol’s limit',
        1,
      );
    }
  }

  #startDecoding(): void {
    const head = concatBytes(this.#head, this.#headLength);
    this.#head = [];
    const choice = chooseEncoding(head, this.#options.contentType);
    if (choice.unsupported !== null) {
      this.#log.reportAt(
        'warning',
        'unsupported-encoding',
        `encoding "${choice.unsupported}" is not supported; read as UTF-8`,
        1,
      );
    }
    this.#decoder = new StreamDecoder(choice.encoding);
    this.#text(this.#decoder.decode(head.subarray(choice.bomLength)));
  }

  #text(text: string): void {
    if (text.length === 0) return;
    if (this.#mode === 'pending') {
      this.#pendingText += text;
      const first = this.#pendingText.search(/[^\s\uFEFF]/);
      if (first < 0) return;
      this.#mode = this.#pendingText[first] === '<' ? 'xml' : 'text';
      text = this.#pendingText;
      this.#pendingText = '';
      if (this.#mode === 'xml') this.#xml = new XmlSitemapReader(this.#log, this.#collector);
    }
    if (this.#xml !== null) {
      this.#log.addText(text);
      this.#xml.write(text);
      return;
    }
    this.#lines(text);
  }

  /** Plain-text sitemaps: one URL a line, any line ending. */
  #lines(text: string): void {
    const all = this.#textCarry + text;
    let start = 0;
    for (let i = 0; i < all.length; i++) {
      const c = all.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      // A CR at the very end may be half of a CRLF split across chunks: wait for the next one.
      if (c === 0x0d && i === all.length - 1 && !this.#ended) break;
      this.#collector.textLine(all.slice(start, i), ++this.#textLine);
      if (c === 0x0d && all.charCodeAt(i + 1) === 0x0a) i++;
      start = i + 1;
      if (this.stopped) return;
    }
    this.#textCarry = all.slice(start);
  }
}
