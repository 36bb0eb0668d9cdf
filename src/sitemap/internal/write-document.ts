import { WaymarkError } from '../../shared/waymark-error.ts';
import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS } from './protocol-limits.ts';
import { checkInteger, type Fail, quote } from './write-values.ts';

/** sitemaps.org: at most 50,000 URLs (or child sitemaps) per file. */
/** sitemaps.org and Google: at most 50 MiB per file, uncompressed. */
export { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS };

/** What `write` did: the markup to send, or why the entry belongs in the next document. */
export type SitemapWriteResult =
  | { readonly written: true; readonly xml: string }
  | { readonly written: false; readonly full: 'max-urls' | 'max-bytes' };

export interface DocumentShape<E> {
  /** `urlset` or `sitemapindex`. */
  readonly root: string;
  /** Attributes of the root element, namespace declarations included. */
  readonly rootAttributes: readonly (readonly [string, string])[];
  /** `url` or `sitemap`, for messages. */
  readonly noun: string;
  /**
   * The entry's element as markup, validated, ending in a line break; nested `indent` deep
   * per level when pretty (`null`: the element on one line).
   */
  readonly markup: (entry: E, fail: Fail, indent: string | null) => string;
}

export interface DocumentLimits {
  readonly maxUrls?: number;
  readonly maxBytes?: number;
  readonly pretty?: boolean;
}

type State = 'new' | 'open' | 'closed';

/**
 * The one streaming core behind every sitemap writer: it hands out markup piece by piece
 * (`open`, `write` per entry, `close`) and counts entries and UTF-8 bytes, so a caller can
 * stream to a response or a file and split before a document passes its limits. The
 * closing tag is counted in advance: a document is full when the next entry plus
 * `</urlset>` would not fit.
 */
export class DocumentWriter<E> {
  readonly maxUrls: number;
  readonly maxBytes: number;
  readonly #shape: DocumentShape<E>;
  readonly #indent: string | null;
  readonly #head: string;
  readonly #tail: string;
  /** UTF-8 bytes of `#tail`, which every write reserves. */
  readonly #tailBytes: number;
  #state: State = 'new';
  /** The entry being written, named in a failure's message only when there is one. */
  #entry: unknown;
  readonly #fail: Fail;
  #urls = 0;
  #bytes = 0;

  constructor(shape: DocumentShape<E>, limits: DocumentLimits) {
    const fail: Fail = (message) => {
      throw new WaymarkError('invalid-argument', `cannot write ${shape.root}: ${message}`);
    };
    this.#shape = shape;
    this.#fail = (message) => {
      throw new WaymarkError(
        'invalid-argument',
        `cannot write sitemap ${shape.noun} ${describe(this.#entry)}: ${message}`,
      );
    };
    this.maxUrls = Number(
      checkInteger(limits.maxUrls ?? MAX_SITEMAP_URLS, 'maxUrls', 1, MAX_SITEMAP_URLS, fail),
    );
    this.maxBytes = Number(
      checkInteger(limits.maxBytes ?? MAX_SITEMAP_BYTES, 'maxBytes', 1, MAX_SITEMAP_BYTES, fail),
    );
    this.#indent = limits.pretty === true ? '  ' : null;
    const attributes = shape.rootAttributes.map(([name, value]) => ` ${name}="${value}"`).join('');
    this.#head = `<?xml version="1.0" encoding="UTF-8"?>\n<${shape.root}${attributes}>\n`;
    this.#tail = `</${shape.root}>\n`;
    this.#tailBytes = utf8Length(this.#tail);
  }

  /** Entries written so far. */
  get count(): number {
    return this.#urls;
  }

  /** UTF-8 bytes of everything handed out so far. */
  get byteLength(): number {
    return this.#bytes;
  }

  open(): string {
    this.#expect('new', 'open');
    this.#state = 'open';
    this.#bytes = utf8Length(this.#head);
    return this.#head;
  }

  write(entry: E): SitemapWriteResult {
    this.#expect('open', 'write');
    if (this.#urls >= this.maxUrls) return { written: false, full: 'max-urls' };
    this.#entry = entry;
    const xml = this.#shape.markup(entry, this.#fail, this.#indent);
    const bytes = utf8Length(xml);
    if (this.#bytes + bytes + this.#tailBytes > this.maxBytes) {
      if (this.#urls === 0) {
        this.#fail(
          `needs ${bytes} bytes, so no document of at most ${this.maxBytes} bytes can hold it`,
        );
      }
      return { written: false, full: 'max-bytes' };
    }
    this.#urls++;
    this.#bytes += bytes;
    return { written: true, xml };
  }

  close(): string {
    this.#expect('open', 'close');
    this.#state = 'closed';
    this.#bytes += this.#tailBytes;
    return this.#tail;
  }

  #expect(state: State, action: string): void {
    if (this.#state !== state) {
      throw new WaymarkError(
        'usage',
        `cannot ${action} a ${this.#shape.root} writer that is ${this.#state === 'new' ? 'not open yet' : this.#state}`,
      );
    }
  }
}

/** An entry named for a message: by its loc when it has one. */
function describe(entry: unknown): string {
  const loc =
    typeof entry === 'object' && entry !== null ? (entry as { loc?: unknown }).loc : entry;
  return quote(loc);
}
