// The slow twin of ../html-extract.ts: the extractor as it was, on htmlparser2's Parser
// (an attribute object per tag). Used only by the differential test
// (../html-extract-differential.test.ts), which holds the fast extractor to it exactly; in
// test-support/ so that the build leaves it out of dist/.
import { Parser } from 'htmlparser2';
import { HtmlDecoder } from '../../../shared/html/html-decoder.ts';
import {
  collapseAscii,
  feedType,
  isRobotsMetaName,
  robotsDirectives,
  tokens,
  trimAscii,
} from '../../../shared/html/html-values.ts';
import { WaymarkError } from '../../../shared/waymark-error.ts';
import {
  type HtmlExtractorOptions,
  MAX_LIST_ITEMS,
  MAX_PAGE_EXTRAS,
  MAX_TITLE_CHARS,
  type PageFacts,
} from '../html-extract.ts';
import { memoizedResolver, type UrlOutcome } from '../html-urls.ts';

type Attributes = Readonly<Record<string, string>>;

/** The Parser-based extractor: same contract as `HtmlExtractor`. */
export class ReferenceHtmlExtractor {
  readonly #decoder: HtmlDecoder;
  readonly #parser: Parser;
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
    this.#parser = new Parser({
      onopentag: (name, attributes) => this.#open(name, attributes),
      onclosetag: (name) => this.#close(name),
      ontext: (text) => this.#text(text),
    });
  }

  /** Feeds the next bytes of the body. */
  write(chunk: Uint8Array): void {
    if (this.#facts !== null) throw new WaymarkError('usage', 'HtmlExtractor.write() after end()');
    const text = this.#decoder.write(chunk);
    if (text !== '') this.#parser.write(text);
  }

  /** Ends the input and returns the facts (the same object when called again). */
  end(): PageFacts {
    if (this.#facts !== null) return this.#facts;
    this.#parser.end(this.#decoder.end());
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

  #open(name: string, attributes: Attributes): void {
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

  #link(attributes: Attributes): void {
    const href = this.#resolve(attributes['href'], 'skip');
    if (href === null) return;
    const followed = !tokens(attributes['rel']).includes('nofollow');
    const known = this.#links.get(href);
    if (known === undefined) {
      if (this.#room(this.#links.size)) this.#links.set(href, followed);
    } else if (followed && !known) {
      this.#links.set(href, true);
    }
  }

  #image(attributes: Attributes): void {
    const loc = this.#resolve(attributes['src'], 'skip');
    if (loc === null || this.#images.has(loc) || !this.#room(this.#images.size, MAX_PAGE_EXTRAS))
      return;
    const title =
      collapseAscii(attributes['alt'] ?? '') || collapseAscii(attributes['title'] ?? '');
    this.#images.set(loc, title === '' ? { loc } : { loc, title });
  }

  #linkElement(attributes: Attributes): void {
    const rel = tokens(attributes['rel']);
    if (rel.includes('canonical') && !this.#canonicalSeen && attributes['href'] !== undefined) {
      this.#canonicalSeen = true;
      this.#canonical = this.#resolve(attributes['href'], 'keep');
    }
    if (!rel.includes('alternate')) return;
    const type = feedType(attributes['type']);
    const hreflang = trimAscii(attributes['hreflang'] ?? '');
    if (type === null && hreflang === '') return;
    const href = this.#resolve(attributes['href'], 'keep');
    if (href === null) return;
    if (type !== null) {
      if (!this.#room(this.#feeds.length, MAX_PAGE_EXTRAS)) return;
      const title = collapseAscii(attributes['title'] ?? '');
      this.#feeds.push(title === '' ? { href, type } : { href, type, title });
    } else if (this.#room(this.#alternates.length, MAX_PAGE_EXTRAS)) {
      this.#alternates.push({ hreflang, href });
    }
  }

  #meta(attributes: Attributes): void {
    if (!isRobotsMetaName(attributes['name'])) return;
    const { noindex, nofollow } = robotsDirectives(attributes['content']);
    this.#robots.noindex ||= noindex;
    this.#robots.nofollow ||= nofollow;
  }

  /** The first `<base href>` decides; it is used when it resolves to an http(s) URL. */
  #baseElement(attributes: Attributes): void {
    const href = attributes['href'];
    if (this.#baseSeen || href === undefined) return;
    this.#baseSeen = true;
    const url = URL.parse(trimAscii(href), this.#pageUrl);
    if (url !== null && (url.protocol === 'http:' || url.protocol === 'https:')) {
      this.#resolveAgainstBase = memoizedResolver(url);
    }
  }
}
