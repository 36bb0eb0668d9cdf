// The crawler's look at an HTML page: bytes in, PageFacts out, in one pass and without a
// DOM. HtmlDecoder turns bytes into text (html-decoder.ts); HtmlTagScanner (htmlparser2's
// Tokenizer, driven as its Parser drives it) turns text into tags, reading only the
// attributes asked for below; this file keeps what the crawler needs from them. The
// Parser-based extractor it replaced is kept as a slow twin in test-support/ and a
// differential test holds the two to the same facts.
//
// What counts, as a browser with scripting off would see the page (the crawler runs no
// scripts):
// - <script>, <style>, <textarea>, <title>, <iframe>, <xmp>, <noembed>, <noframes> hold
//   text, not tags (the parser knows this), so a link written inside them is not a link.
// - Nothing inside <template> counts: its content is inert until a script uses it.
// - <noscript> content counts: with scripting off it is ordinary markup, and it is often
//   where a page puts the plain links and images meant for clients like this one.
// - <title>, <base>, <meta> and <link> inside <svg> or <math> are not HTML elements and are
//   ignored; <a href> there is a link.

import { type CharsetSource, HtmlDecoder } from '../../shared/html/html-decoder.ts';
import { type HtmlTagHandler, HtmlTagScanner } from '../../shared/html/html-tag-scanner.ts';
import {
  collapseAscii,
  feedType,
  isRobotsMetaName,
  robotsDirectives,
  tokens,
  trimAscii,
} from '../../shared/html/html-values.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { memoizedResolver, type UrlOutcome } from './html-urls.ts';

/** Most distinct links kept per page. */
export const MAX_LIST_ITEMS = 10_000;

/**
 * Most images, hreflang alternates and feeds kept per page: Google reads up to 1,000 images
 * per page of an image sitemap, and no site has that many languages. Kept with the page's
 * result and read back for the sitemap, 10,000 alternates of 2 KB each made a crawl of a
 * hostile site hold gigabytes.
 */
export const MAX_PAGE_EXTRAS = 1_000;

/** Most characters of title text read; the rest of a longer (or unclosed) title is dropped. */
export const MAX_TITLE_CHARS = 4_096;

export interface HtmlExtractorOptions {
  /** The page's URL (after redirects): the base for relative URLs until a `<base href>`. */
  readonly url: string;
  /** The response's Content-Type; its charset is used unless the page starts with a BOM. */
  readonly contentType?: string;
}

/** What the crawler needs to know about one HTML page. Every URL is absolute, http(s). */
export interface PageFacts {
  /**
   * `<a href>` and `<area href>` targets in document order, each once (exact-string
   * duplicates removed, first place kept; the caller normalises and dedupes further).
   * Links with `rel="nofollow"` are here too: Google treats it as a hint, not a rule. At
   * most {@link MAX_LIST_ITEMS}.
   */
  links: string[];
  /** The links every occurrence of which has `rel="nofollow"`, in the order of `links`. */
  nofollowLinks: string[];
  /** `<link rel="alternate" hreflang="..." href>` as written (hreflang trimmed), in order. */
  alternates: { hreflang: string; href: string }[];
  /** `<link rel="alternate" type="application/rss+xml|application/atom+xml" href>`. */
  feeds: { href: string; type: 'rss' | 'atom'; title?: string }[];
  /**
   * The first `<link rel="canonical">` with an href, resolved; null when there is none or
   * its href is empty, invalid or not http(s). Later ones are never consulted.
   */
  canonical: string | null;
  /** From `<meta name="robots|googlebot" content>`: `noindex`, `nofollow`, `none` (both). */
  robots: { noindex: boolean; nofollow: boolean };
  /** `<img src>`, each loc once; `title` is the alt text, else the title attribute. */
  images: { loc: string; title?: string }[];
  /** The encoding the page was decoded with, as TextDecoder names it (`'windows-1252'`). */
  charset: string;
  charsetSource: CharsetSource;
  /** The first `<title>`'s text, whitespace collapsed; null when there is no title. */
  title: string | null;
  /** URL values (of a, area, link, img) that WHATWG URL rejected: dropped, counted here. */
  invalidLinks: number;
  /** True when a list reached {@link MAX_LIST_ITEMS} and further entries were dropped. */
  truncated: boolean;
}

type Values = readonly (string | undefined)[];

// The attributes read per element, and their places in the values HtmlTagScanner passes.
const LINK_ATTRIBUTES = ['href', 'rel'] as const;
const IMG_ATTRIBUTES = ['src', 'alt', 'title'] as const;
const LINK_ELEMENT_ATTRIBUTES = ['rel', 'href', 'type', 'hreflang', 'title'] as const;
const META_ATTRIBUTES = ['name', 'content'] as const;
const BASE_ATTRIBUTES = ['href'] as const;
const ATTRIBUTES_OF = new Map<string, readonly string[]>([
  ['a', LINK_ATTRIBUTES],
  ['area', LINK_ATTRIBUTES],
  ['img', IMG_ATTRIBUTES],
  ['link', LINK_ELEMENT_ATTRIBUTES],
  ['meta', META_ATTRIBUTES],
  ['base', BASE_ATTRIBUTES],
]);

/**
 * A push extractor for one HTML page: `write()` the body's bytes as they arrive, then
 * `end()` for the facts. Pure and synchronous; broken markup and undecodable bytes never
 * throw. Memory is the capped lists plus what htmlparser2 holds of an unfinished tag, so a
 * large page is not accumulated (the caller's body-size cap bounds a single giant tag).
 *
 * A `<base href>` applies to the URLs after it (the first base with an http(s) href is the
 * only one used; links before it stay resolved against the page URL, where a browser would
 * re-resolve them: base belongs at the top of <head>).
 *
 * @example
 * ```ts
 * const extractor = new HtmlExtractor({ url: 'https://example.com/a/', contentType: 'text/html' });
 * extractor.write(new TextEncoder().encode('<a href="b">B</a>'));
 * extractor.end().links; // ['https://example.com/a/b']
 * ```
 */
export class HtmlExtractor {
  readonly #decoder: HtmlDecoder;
  readonly #scanner: HtmlTagScanner;
  readonly #pageUrl: URL;
  /** Resolves URL values against the current base (the page's URL until a `<base href>`). */
  #resolveAgainstBase: (value: string | undefined, fragmentOnly: 'skip' | 'keep') => UrlOutcome;
  #baseSeen = false;
  #canonicalSeen = false;
  /** Depth of open <template> elements: inside one, nothing counts. */
  #inert = 0;
  /** Depth of open <svg> and <math> elements. */
  #foreign = 0;
  /** Each link, and whether it was seen at least once without rel=nofollow. */
  readonly #links = new Map<string, boolean>();
  readonly #images = new Map<string, { loc: string; title?: string }>();
  readonly #alternates: PageFacts['alternates'] = [];
  readonly #feeds: PageFacts['feeds'] = [];
  #canonical: string | null = null;
  readonly #robots = { noindex: false, nofollow: false };
  #titleText: string | null = null;
  #title: string | null = null;
  #invalid = 0;
  #truncated = false;
  #facts: PageFacts | null = null;

  constructor(options: HtmlExtractorOptions) {
    const pageUrl = URL.parse(options.url);
    if (pageUrl === null) {
      throw new WaymarkError('invalid-argument', `not an absolute URL: ${options.url}`);
    }
    this.#pageUrl = pageUrl;
    this.#resolveAgainstBase = memoizedResolver(pageUrl);
    this.#decoder = new HtmlDecoder(options.contentType);
    const handler: HtmlTagHandler = {
      attributesOf: (name) => (this.#inert > 0 ? undefined : ATTRIBUTES_OF.get(name)),
      open: (name, values) => this.#open(name, values),
      close: (name) => this.#close(name),
      wantsText: () => this.#titleText !== null && this.#titleText.length < MAX_TITLE_CHARS,
      text: (text) => this.#text(text),
    };
    this.#scanner = new HtmlTagScanner(handler);
  }

  /** Feeds the next bytes of the body. */
  write(chunk: Uint8Array): void {
    if (this.#facts !== null) throw new WaymarkError('usage', 'HtmlExtractor.write() after end()');
    const text = this.#decoder.write(chunk);
    if (text !== '') this.#scanner.write(text);
  }

  /** Ends the input and returns the facts (the same object when called again). */
  end(): PageFacts {
    if (this.#facts !== null) return this.#facts;
    this.#scanner.end(this.#decoder.end());
    const links = [...this.#links.keys()];
    const choice = this.#decoder.choice;
    this.#facts = {
      links,
      nofollowLinks: links.filter((href) => this.#links.get(href) === false),
      alternates: this.#alternates,
      feeds: this.#feeds,
      canonical: this.#canonical,
      robots: this.#robots,
      images: [...this.#images.values()],
      charset: choice?.charset ?? 'utf-8',
      charsetSource: choice?.source ?? 'default',
      title: this.#title,
      invalidLinks: this.#invalid,
      truncated: this.#truncated,
    };
    return this.#facts;
  }

  #open(name: string, attributes: Values): void {
    if (name === 'template') this.#inert++;
    if (this.#inert > 0) return;
    if (name === 'svg' || name === 'math') this.#foreign++;
    if (name === 'a' || name === 'area') this.#link(attributes);
    else if (name === 'img') this.#image(attributes);
    else if (this.#foreign > 0) return;
    else if (name === 'link') this.#linkElement(attributes);
    else if (name === 'meta') this.#meta(attributes);
    else if (name === 'base') this.#baseElement(attributes);
    else if (name === 'title' && this.#title === null) this.#titleText = '';
  }

  #close(name: string): void {
    if (name === 'template') {
      this.#inert = Math.max(0, this.#inert - 1);
      return;
    }
    if (this.#inert > 0) return;
    if (name === 'svg' || name === 'math') this.#foreign = Math.max(0, this.#foreign - 1);
    if (name === 'title' && this.#titleText !== null) {
      this.#title = collapseAscii(this.#titleText);
      this.#titleText = null;
    }
  }

  #text(text: string): void {
    if (this.#titleText === null || this.#titleText.length >= MAX_TITLE_CHARS) return;
    this.#titleText = (this.#titleText + text).slice(0, MAX_TITLE_CHARS);
  }

  /** Resolves a URL value against the current base; counts it when invalid. */
  #resolve(value: string | undefined, fragmentOnly: 'skip' | 'keep'): string | null {
    const outcome = this.#resolveAgainstBase(value, fragmentOnly);
    if (outcome.kind === 'invalid') this.#invalid++;
    return outcome.kind === 'url' ? outcome.href : null;
  }

  /** Room for one more entry in a list of `size`; notes the truncation when there is none. */
  #room(size: number, max = MAX_LIST_ITEMS): boolean {
    if (size < max) return true;
    this.#truncated = true;
    return false;
  }

  /** `attributes`: LINK_ATTRIBUTES, i.e. [href, rel]. */
  #link(attributes: Values): void {
    const href = this.#resolve(attributes[0], 'skip');
    if (href === null) return;
    const rel = attributes[1];
    const followed = rel === undefined || !tokens(rel).includes('nofollow');
    const known = this.#links.get(href);
    if (known === undefined) {
      if (this.#room(this.#links.size)) this.#links.set(href, followed);
    } else if (followed && !known) {
      this.#links.set(href, true);
    }
  }

  /** `attributes`: IMG_ATTRIBUTES, i.e. [src, alt, title]. */
  #image(attributes: Values): void {
    const loc = this.#resolve(attributes[0], 'skip');
    if (loc === null || this.#images.has(loc) || !this.#room(this.#images.size, MAX_PAGE_EXTRAS))
      return;
    const title = collapseAscii(attributes[1] ?? '') || collapseAscii(attributes[2] ?? '');
    this.#images.set(loc, title === '' ? { loc } : { loc, title });
  }

  /** `attributes`: LINK_ELEMENT_ATTRIBUTES, i.e. [rel, href, type, hreflang, title]. */
  #linkElement(attributes: Values): void {
    const rel = tokens(attributes[0]);
    if (rel.includes('canonical') && !this.#canonicalSeen && attributes[1] !== undefined) {
      this.#canonicalSeen = true;
      this.#canonical = this.#resolve(attributes[1], 'keep');
    }
    if (!rel.includes('alternate')) return;
    const type = feedType(attributes[2]);
    const hreflang = trimAscii(attributes[3] ?? '');
    if (type === null && hreflang === '') return;
    const href = this.#resolve(attributes[1], 'keep');
    if (href === null) return;
    if (type !== null) {
      if (!this.#room(this.#feeds.length, MAX_PAGE_EXTRAS)) return;
      const title = collapseAscii(attributes[4] ?? '');
      this.#feeds.push(title === '' ? { href, type } : { href, type, title });
    } else if (this.#room(this.#alternates.length, MAX_PAGE_EXTRAS)) {
      this.#alternates.push({ hreflang, href });
    }
  }

  /** `attributes`: META_ATTRIBUTES, i.e. [name, content]. */
  #meta(attributes: Values): void {
    if (!isRobotsMetaName(attributes[0])) return;
    const { noindex, nofollow } = robotsDirectives(attributes[1]);
    this.#robots.noindex ||= noindex;
    this.#robots.nofollow ||= nofollow;
  }

  /**
   * The first `<base href>` decides; it is used when it resolves to an http(s) URL.
   * `attributes`: BASE_ATTRIBUTES, i.e. [href].
   */
  #baseElement(attributes: Values): void {
    const href = attributes[0];
    if (this.#baseSeen || href === undefined) return;
    this.#baseSeen = true;
    const url = URL.parse(trimAscii(href), this.#pageUrl);
    if (url !== null && (url.protocol === 'http:' || url.protocol === 'https:')) {
      this.#resolveAgainstBase = memoizedResolver(url);
    }
  }
}
