import { WaymarkError } from '../shared/waymark-error.ts';
import { IMAGE_NS, NEWS_NS, SITEMAP_NS, VIDEO_NS, XHTML_NS } from './internal/namespaces.ts';
import {
  DocumentWriter,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
  type SitemapWriteResult,
} from './internal/write-document.ts';
import {
  elementMarkup,
  extensionsUsed,
  indexElement,
  type SitemapExtension,
  urlMarkup,
} from './internal/write-url.ts';
import { checkOrigin, type Fail } from './internal/write-values.ts';
import type { SitemapIndexEntryInput, SitemapUrlInput } from './types.ts';

export type { SitemapExtension, SitemapWriteResult };
export { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS };

/** Options shared by every sitemap writer. */
export interface SitemapWriterOptions {
  /**
   * When set, every `loc` must be on this origin (`https://example.com`, or any URL on it):
   * search engines ignore a sitemap's URLs on other hosts unless the host proves ownership.
   */
  readonly origin?: string;
  /** At most this many entries per document (default and maximum 50,000). */
  readonly maxUrls?: number;
  /** At most this many bytes per document, uncompressed (default and maximum 50 MiB). */
  readonly maxBytes?: number;
  /** Indent nested elements; otherwise each entry is one line. */
  readonly pretty?: boolean;
}

/** Options for URL sets. */
export interface UrlsetOptions extends SitemapWriterOptions {
  /** Write `<changefreq>` (default false: Google and Bing ignore it). */
  readonly includeChangefreq?: boolean;
  /** Write `<priority>` (default false: Google and Bing ignore it). */
  readonly includePriority?: boolean;
  /**
   * The extensions whose namespaces `<urlset>` declares. A streaming writer has to write
   * the root element before it sees any entry, so the caller names what may appear, and
   * an entry using anything else is refused (its markup would not be namespace-valid).
   * {@link formatUrlset} has all entries at hand, so it declares exactly the extensions
   * they use when this is left out; {@link UrlsetWriter} then declares none.
   */
  readonly extensions?: readonly SitemapExtension[];
}

const NAMESPACES: Readonly<Record<SitemapExtension, string>> = {
  image: IMAGE_NS,
  video: VIDEO_NS,
  news: NEWS_NS,
  xhtml: XHTML_NS,
};
const EXTENSION_ORDER: readonly SitemapExtension[] = ['image', 'video', 'news', 'xhtml'];

/**
 * A `<urlset>` written piece by piece, for streaming a sitemap to a response or a file
 * without holding it: `open()`, then `write(entry)` per entry, then `close()`, each
 * returning markup. `write` validates the entry (a `WaymarkError` `invalid-argument`
 * naming it) and reports `{ written: false, full }` when the entry would take the
 * document past `maxUrls` or `maxBytes`, closing tag included; that entry then starts
 * the next document. The string and file writers are built on this class.
 *
 * Every value is XML-escaped. Characters XML 1.0 forbids (most C0 controls, lone
 * surrogates, U+FFFE, U+FFFF) are refused, not dropped. URLs are written as
 * `new URL(x).href` spells them; dates as W3C Datetime (see {@link formatUrlset}).
 *
 * @example
 * ```ts
 * const writer = new UrlsetWriter({ extensions: ['image'] });
 * let xml = writer.open();
 * const result = writer.write({ loc: 'https://example.com/', images: [{ loc: 'https://example.com/a.png' }] });
 * if (result.written) xml += result.xml;
 * xml += writer.close();
 * ```
 */
export class UrlsetWriter extends DocumentWriter<SitemapUrlInput> {
  constructor(options: UrlsetOptions = {}) {
    const fail: Fail = (message) => {
      throw new WaymarkError('invalid-argument', `cannot write urlset: ${message}`);
    };
    const origin = options.origin === undefined ? undefined : checkOrigin(options.origin, fail);
    const extensions = new Set<SitemapExtension>();
    for (const name of options.extensions ?? []) {
      if (!EXTENSION_ORDER.includes(name)) {
        fail(`unknown extension ${JSON.stringify(name)} (known: ${EXTENSION_ORDER.join(', ')})`);
      }
      extensions.add(name);
    }
    const rootAttributes: [string, string][] = [['xmlns', SITEMAP_NS]];
    for (const name of EXTENSION_ORDER) {
      if (extensions.has(name)) rootAttributes.push([`xmlns:${name}`, NAMESPACES[name]]);
    }
    const elementOptions = {
      ...(origin === undefined ? {} : { origin }),
      includeChangefreq: options.includeChangefreq === true,
      includePriority: options.includePriority === true,
      extensions,
    };
    super(
      {
        root: 'urlset',
        rootAttributes,
        noun: 'url',
        markup: (entry, fail, indent) => urlMarkup(entry, elementOptions, fail, indent),
      },
      options,
    );
  }
}

/**
 * A `<sitemapindex>` written piece by piece, like {@link UrlsetWriter}.
 *
 * @example
 * ```ts
 * const writer = new SitemapIndexWriter();
 * let xml = writer.open();
 * const result = writer.write({ loc: 'https://example.com/sitemaps/sitemap-0001.xml' });
 * if (result.written) xml += result.xml;
 * xml += writer.close();
 * ```
 */
export class SitemapIndexWriter extends DocumentWriter<SitemapIndexEntryInput> {
  constructor(options: SitemapWriterOptions = {}) {
    const fail: Fail = (message) => {
      throw new WaymarkError('invalid-argument', `cannot write sitemapindex: ${message}`);
    };
    const origin = options.origin === undefined ? undefined : checkOrigin(options.origin, fail);
    super(
      {
        root: 'sitemapindex',
        rootAttributes: [['xmlns', SITEMAP_NS]],
        noun: 'sitemap',
        markup: (entry, fail, indent) => elementMarkup(indexElement(entry, origin, fail), indent),
      },
      options,
    );
  }
}

/**
 * One `<urlset>` document as a string, for a server that renders its sitemap on request.
 * `loc` must be an absolute http(s) URL of at most 2,048 characters once encoded (and on
 * `origin` when given); `lastmod` a W3C Datetime with a full date (`2024-05-01`,
 * `2024-05-01T10:00:00Z`, `Date#toISOString()`), normalised to what the official schema
 * accepts, or a `Date`, written as a full timestamp to the second in UTC
 * (`2024-05-01T10:00:00Z`): a time with its zone is what engines can use, so a `Date` never
 * becomes a date alone, while a date given as text is kept as given. `changefreq` and
 * `priority` are written only when asked for (Google and Bing ignore both). Namespaces are
 * declared for exactly the extensions the entries use, unless `extensions` says otherwise.
 * More entries or bytes than one sitemap may hold throw `invalid-argument`: write several
 * files and an index with `writeSitemaps` instead.
 *
 * @example
 * ```ts
 * formatUrlset([{ loc: 'https://example.com/', lastmod: '2024-05-01' }]);
 * // '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
 * // + '<url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod></url>\n</urlset>\n'
 * ```
 */
export function formatUrlset(
  entries: Iterable<SitemapUrlInput>,
  options: UrlsetOptions = {},
): string {
  let list: Iterable<SitemapUrlInput> = entries;
  let extensions = options.extensions;
  if (extensions === undefined) {
    // One document is held whole anyway, so a first pass to find the extensions is free.
    const all = [...entries];
    const used = new Set<SitemapExtension>();
    for (const entry of all)
      if (typeof entry === 'object' && entry !== null) extensionsUsed(entry, used);
    list = all;
    extensions = [...used];
  }
  return formatWhole(new UrlsetWriter({ ...options, extensions }), list);
}

/**
 * One `<sitemapindex>` document as a string. Each `loc` must be an absolute http(s) URL
 * (on `origin` when given); `lastmod` is checked like a URL set's.
 *
 * @example
 * ```ts
 * formatSitemapIndex([{ loc: 'https://example.com/sitemap-1.xml', lastmod: '2024-05-01' }]);
 * ```
 */
export function formatSitemapIndex(
  entries: Iterable<SitemapIndexEntryInput>,
  options: SitemapWriterOptions = {},
): string {
  return formatWhole(new SitemapIndexWriter(options), entries);
}

function formatWhole<E>(writer: DocumentWriter<E>, entries: Iterable<E>): string {
  let xml = writer.open();
  for (const entry of entries) {
    const result = writer.write(entry);
    if (!result.written) {
      const limit =
        result.full === 'max-urls' ? `${writer.maxUrls} entries` : `${writer.maxBytes} bytes`;
      throw new WaymarkError(
        'invalid-argument',
        `cannot write sitemap: the entries do not fit in one document of at most ${limit}; ` +
          'use writeSitemaps to split them over several files and an index',
      );
    }
    xml += result.xml;
  }
  return xml + writer.close();
}
