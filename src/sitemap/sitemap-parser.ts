import { concatBytes } from '../shared/bytes.ts';
import type { Diagnostic } from '../shared/diagnostic.ts';
import {
  checkedAgainstBytes,
  chooseEncoding,
  SNIFF_BYTES,
  StreamDecoder,
} from '../shared/xml/text-decoding.ts';
import { DiagnosticLog } from './internal/diagnostic-log.ts';
import { EntryCollector } from './internal/entry-collector.ts';
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS } from './internal/protocol-limits.ts';
import { TextLines } from './internal/text-lines.ts';
import { utf8Fit } from './internal/utf8-budget.ts';
import { XmlSitemapReader } from './internal/xml-sitemap-reader.ts';
import type { SitemapEntry, SitemapKind } from './types.ts';

/** Default cap on entries read from one document: twenty times the protocol's limit. */
export const DEFAULT_MAX_ENTRIES = 1_000_000;

/** Default cap on the bytes read from one document, after decompression: 100 MiB. */
export const DEFAULT_MAX_SITEMAP_BYTES = 100 * 1024 * 1024;

/**
 * Where the first character that is not whitespace stands in `text`, or -1. `trimStart`
 * skips exactly what `\s` matches (the BOM included), and runs at memory speed over a
 * megabyte-long run of leading whitespace.
 */
function firstContent(text: string): number {
  const at = text.length - text.trimStart().length;
  return at === text.length ? -1 : at;
}

export interface SitemapParserOptions {
  /** The sitemap's own URL: its host is the one `loc` values are expected on. */
  readonly url?: string;
  /** The HTTP `Content-Type`, whose charset counts after a BOM and before the XML declaration. */
  readonly contentType?: string;
  /** Entries read before reading stops with an error diagnostic. Default 1,000,000. */
  readonly maxEntries?: number;
  /**
   * Bytes read, after gzip decompression, before reading stops with a `size-limit` error
   * (a gzip bomb expands a few kilobytes into gigabytes). The document is cut at exactly
   * this byte, however the input is chunked; text given as a string counts in UTF-8 bytes.
   * Default 100 MiB.
   */
  readonly maxBytes?: number;
}

/** How the input ended, for {@link SitemapParser.end}. */
export interface SitemapEndOptions {
  /**
   * The input was cut short (a time limit, a failed read) rather than ending: a last line
   * of a plain-text sitemap is then not read as a URL, as it may be half of one.
   */
  readonly cut?: boolean;
  /**
   * The consumer stopped taking entries (a `break`): as `cut`, and the entry or line the
   * input was left inside is not reported as truncated either, since the reader, not the
   * document, ended there.
   */
  readonly abandoned?: boolean;
}

/**
 * The push-parser core every sitemap reader runs: `write()` decompressed bytes (or text) as
 * they arrive, `end()` once, and entries come out through `onEntry` as soon as each one is
 * complete. Pure and synchronous; it keeps nothing but the entry being read, so memory does
 * not grow with the document, and each write costs time in proportion to its own length.
 * It keeps nothing of the bytes it is given, so a caller may reuse its buffer as soon as
 * `write()` returns. The kind (`urlset`, `index`, `text`, `rss`, `atom` or `unknown`) is decided from the
 * content, never from a file name.
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
  readonly #maxBytes: number;
  #head: Uint8Array[] = [];
  #headLength = 0;
  #decoder: StreamDecoder | null = null;
  /** `pending` until the first character that is not whitespace decides the kind. */
  #mode: 'pending' | 'xml' | 'text' = 'pending';
  /** Fed from the first character on, so XML offsets count leading whitespace too. */
  #xml: XmlSitemapReader | null = null;
  #text: TextLines;
  #bytes = 0;
  /** Set once `maxBytes` cut the input. */
  #capped = false;
  /** Set once the reading came to bytes that are not valid in the encoding (not if it stopped first). */
  #invalidRead = false;
  #ended = false;
  #diagnostics: Diagnostic[] | null = null;

  constructor(options: SitemapParserOptions, onEntry: (entry: SitemapEntry) => void) {
    this.#options = options;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_SITEMAP_BYTES;
    const host = options.url === undefined ? null : (URL.parse(options.url)?.host ?? null);
    this.#collector = new EntryCollector(this.#log, {
      host,
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      emit: onEntry,
    });
    this.#text = new TextLines(this.#collector, this.#log);
  }

  /** What the document is; `unknown` until the first element or line is seen. */
  get kind(): SitemapKind {
    if (this.#mode === 'text') return 'text';
    return this.#mode === 'xml' ? (this.#xml?.kind ?? 'unknown') : 'unknown';
  }

  /** True once a cap (entries or bytes) was reached: feeding more input changes nothing. */
  get stopped(): boolean {
    return this.#collector.stopped || this.#capped;
  }

  /** Entries emitted so far. */
  get count(): number {
    return this.#collector.count;
  }

  /** Bytes written so far (text given as a string: its UTF-8 bytes), at most `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Problems found, complete after `end()`. */
  get diagnostics(): readonly Diagnostic[] {
    return this.#diagnostics ?? [];
  }

  write(chunk: Uint8Array | string): void {
    if (this.#ended || this.stopped || chunk.length === 0) return;
    const room = this.#maxBytes - this.#bytes;
    if (typeof chunk === 'string') {
      const fit = utf8Fit(chunk, room);
      let text = fit.units === chunk.length ? chunk : chunk.slice(0, fit.units);
      // A BOM at the very start is not text; its three bytes count all the same.
      const bom = this.#bytes === 0 && text.charCodeAt(0) === 0xfeff ? 3 : 0;
      if (bom > 0) text = text.slice(1);
      // Cut by maxBytes, the bytes up to the cap count, as they do for bytes: a character
      // the cap splits is counted in part, though it is not read.
      const limit = this.#count(fit.units < chunk.length ? room : fit.bytes);
      if (limit < 0) {
        this.#feed(text);
      } else {
        const units = utf8Fit(text, limit - bom).units;
        this.#feed(text.slice(0, units));
        if (this.#pastProtocolLimit()) this.#feed(text.slice(units));
      }
      if (fit.units < chunk.length && !this.#collector.stopped) this.#cap();
      return;
    }
    const bytes = chunk.length <= room ? chunk : chunk.subarray(0, room);
    const limit = this.#count(bytes.length);
    if (limit < 0) {
      if (bytes.length > 0) this.#decode(bytes);
    } else {
      this.#decode(bytes.subarray(0, limit));
      if (this.#pastProtocolLimit()) this.#decode(bytes.subarray(limit));
    }
    if (bytes.length < chunk.length) {
      // Nothing more will be read: what is held to find the encoding is read now, so that a
      // stop by maxEntries inside it comes first, as it would have in smaller writes.
      if (this.#decoder === null && this.#headLength > 0) this.#startDecoding();
      // Stopped by maxEntries, the reading never came to the byte cap.
      if (!this.#collector.stopped) this.#cap();
    }
  }

  end(options: SitemapEndOptions = {}): void {
    if (this.#ended) return;
    this.#ended = true;
    // The bytes held to find the encoding are read first: maxEntries may stop in them.
    if (this.#decoder === null && this.#headLength > 0) this.#startDecoding();
    // Stopped by a cap (bytes or entries), what follows was never read: a character split
    // there is not an encoding error, and a text sitemap's last line is not read.
    const abandoned = options.abandoned === true;
    const cut = abandoned || options.cut === true || this.#capped || this.#collector.stopped;
    // A character split by a cut is not an encoding error: its bytes are left unread.
    if (this.#decoder !== null && !cut)
      this.#feedDecoded(this.#decoder.decode(new Uint8Array(0), true));
    if (this.#invalidRead && this.#decoder !== null) {
      this.#log.report(
        'warning',
        'invalid-encoding',
        `bytes that are not valid ${this.#decoder.encoding} were replaced with U+FFFD`,
        0,
      );
    }
    if (this.#mode === 'pending') {
      // Cut before anything but whitespace came (a stalled input, a failed read): whatever
      // cut it is reported, and the document is not known to be empty.
      if (!cut) this.#log.reportAt('error', 'empty-document', 'the document is empty', 1);
    } else if (abandoned) {
      // Nothing to say of the entry or line the reader left in the middle of.
    } else if (this.#mode === 'xml') {
      this.#xml?.end(cut);
    } else {
      this.#text.end(cut);
      // Lines, and not one of them a URL: an error page or any other text saved as a
      // sitemap, not an empty sitemap (read as one, it would make every URL look removed).
      if (!cut && this.count === 0) {
        this.#log.reportAt(
          'error',
          'not-a-sitemap',
          'no line is a URL: not a text sitemap; no entries',
          1,
        );
      }
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

  /**
   * Counts a write of `length` bytes. Returns where in it the protocol's 50 MiB limit is
   * passed (the bytes before that point), or -1 when it is not passed in this write: the
   * caller reads up to that point first, as maxEntries may stop the reading before it.
   */
  #count(length: number): number {
    const toLimit = MAX_SITEMAP_BYTES - this.#bytes;
    this.#bytes += length;
    return toLimit >= 0 && length > toLimit ? toLimit : -1;
  }

  /** The reading goes past the protocol's limit, unless it stopped before: whether it does. */
  #pastProtocolLimit(): boolean {
    if (this.#collector.stopped) return false;
    this.#log.reportAt(
      'warning',
      'over-protocol-size',
      'the sitemap is over 50 MiB uncompressed, the protocol’s limit',
      1,
    );
    return true;
  }

  /** maxBytes was reached with more input to come: nothing after this byte is read. */
  #cap(): void {
    this.#capped = true;
    this.#log.reportAt(
      'error',
      'size-limit',
      `more than ${this.#maxBytes} bytes; reading stopped at that byte (maxBytes; for gzip, counted after decompression)`,
      1,
    );
  }

  #decode(chunk: Uint8Array): void {
    if (this.#decoder !== null) {
      this.#feedDecoded(this.#decoder.decode(chunk));
      return;
    }
    // A copy (a Buffer's slice() would be a view): the caller may reuse its buffer once
    // write() returns, as the file reader does.
    this.#head.push(new Uint8Array(chunk));
    this.#headLength += chunk.length;
    if (this.#headLength >= SNIFF_BYTES) this.#startDecoding();
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
    // A label the bytes cannot match (an HTTP charset of UTF-16 on a document that starts
    // with `<?xml` in single bytes) would read the whole document as garbage: the bytes decide.
    const checked = checkedAgainstBytes(choice, head.subarray(choice.bomLength));
    if (checked.mismatch !== null) {
      this.#log.reportAt('warning', 'encoding-mismatch', checked.mismatch, 1);
    }
    this.#decoder = new StreamDecoder(checked.encoding);
    this.#feedDecoded(this.#decoder.decode(head.subarray(choice.bomLength)));
  }

  /**
   * Text just decoded, to {@link #feed}. When it holds the first U+FFFD for bytes that are
   * not valid, the text before it is read first: if maxEntries stops the reading there, the
   * bad bytes were never read and are not reported, as with smaller writes.
   */
  #feedDecoded(text: string): void {
    const decoder = this.#decoder as StreamDecoder;
    if (this.#invalidRead || !decoder.invalid) {
      this.#feed(text);
      return;
    }
    this.#feed(text.slice(0, decoder.invalidAt));
    if (this.#collector.stopped) return;
    this.#invalidRead = true;
    this.#feed(text.slice(decoder.invalidAt));
  }

  /**
   * Decoded text to the XML reader or the line splitter. Until the first character that is
   * not whitespace, text goes to the XML reader (for its offsets) and its line breaks are
   * counted for the line splitter; that character then decides which one reads on.
   */
  #feed(text: string): void {
    if (text.length === 0) return;
    if (this.#mode === 'text') {
      this.#text.write(text);
      return;
    }
    if (this.#mode === 'pending') {
      this.#xml ??= new XmlSitemapReader(this.#log, this.#collector);
      const first = firstContent(text);
      if (first < 0) {
        this.#text.skip(text);
      } else if (text.charCodeAt(first) === 0x3c) {
        this.#mode = 'xml';
      } else {
        this.#mode = 'text';
        this.#xml = null;
        this.#text.skip(text.slice(0, first));
        this.#text.write(text.slice(first));
        return;
      }
    }
    // In pieces: the log remembers line breaks only so far back (64 Ki characters), so one
    // large write handed to it at once would leave the reader's early positions unknown.
    const xml = this.#xml as XmlSitemapReader;
    for (let at = 0; at < text.length; at += FEED_PIECE) {
      const piece = text.length <= FEED_PIECE ? text : text.slice(at, at + FEED_PIECE);
      this.#log.addText(piece);
      xml.write(piece);
    }
  }
}

/** Most characters the XML reader is given at once (well inside the log's memory of lines). */
const FEED_PIECE = 16 * 1024;
