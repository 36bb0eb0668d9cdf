import { escapeXmlText } from '../../shared/xml/xml-escape.ts';
import type {
  SitemapAlternate,
  SitemapImage,
  SitemapIndexEntryInput,
  SitemapNews,
  SitemapUrlInput,
} from '../types.ts';
import { CHANGEFREQS } from './protocol-limits.ts';
import {
  checkDatetime,
  checkDecimal,
  checkLanguageTag,
  checkList,
  checkObject,
  checkOneOf,
  checkText,
  checkUrl,
  type Fail,
} from './write-values.ts';
import { videoElement } from './write-video.ts';
import { leaf, serializeElement, type XmlElement } from './xml-element.ts';

/** The extension vocabularies a `<urlset>` may declare, by their conventional prefix. */
export type SitemapExtension = 'image' | 'video' | 'news' | 'xhtml';

export { CHANGEFREQS };

// Google's limit per <url>.
const MAX_IMAGES = 1000;

export interface UrlElementOptions {
  /** An origin from `URL#origin`, already checked. */
  readonly origin?: string;
  readonly includeChangefreq: boolean;
  readonly includePriority: boolean;
  readonly extensions: ReadonlySet<SitemapExtension>;
}

/** The extensions an entry uses, so a one-document writer can declare exactly those. */
export function extensionsUsed(entry: SitemapUrlInput, into: Set<SitemapExtension>): void {
  if ((entry.alternates?.length ?? 0) > 0) into.add('xhtml');
  if ((entry.images?.length ?? 0) > 0) into.add('image');
  if ((entry.videos?.length ?? 0) > 0) into.add('video');
  if (entry.news !== undefined) into.add('news');
}

/** An element as one entry's markup: one level deep in its document, ending in a line break. */
export function elementMarkup(element: XmlElement, indent: string | null): string {
  const xml = serializeElement(element, indent, 1);
  return indent === null ? `${xml}\n` : xml;
}

/**
 * `<url>` for one entry as markup (see {@link urlElement} for what is checked). An entry
 * without extensions, which is nearly every entry of nearly every sitemap, is written
 * straight to a string rather than through an element tree: the same markup, built with
 * a third of the work, which is most of the writer's time.
 */
export function urlMarkup(
  entry: SitemapUrlInput,
  options: UrlElementOptions,
  fail: Fail,
  indent: string | null,
): string {
  if (
    typeof entry !== 'object' ||
    entry === null ||
    entry.alternates !== undefined ||
    entry.images !== undefined ||
    entry.videos !== undefined ||
    entry.news !== undefined
  ) {
    return elementMarkup(urlElement(entry, options, fail), indent);
  }
  // Checked values below are ASCII with nothing to escape (a URL's href, a W3C date, a
  // changefreq word, a decimal), except `&`, `'` and such in the loc.
  const loc = escapeXmlText(checkUrl(entry.loc, 'loc', fail, optionalOrigin(options.origin, true)));
  const open = indent === null ? '' : indent.repeat(2);
  const close = indent === null ? '' : '\n';
  let xml = `${open}<loc>${loc}</loc>${close}`;
  if (entry.lastmod !== undefined) {
    xml += `${open}<lastmod>${checkDatetime(entry.lastmod, 'lastmod', fail)}</lastmod>${close}`;
  }
  if (options.includeChangefreq && entry.changefreq !== undefined) {
    const changefreq = checkOneOf(entry.changefreq, CHANGEFREQS, 'changefreq', fail);
    xml += `${open}<changefreq>${changefreq}</changefreq>${close}`;
  }
  if (options.includePriority && entry.priority !== undefined) {
    const priority = checkDecimal(entry.priority, 'priority', 0, 1, fail);
    xml += `${open}<priority>${priority}</priority>${close}`;
  }
  return indent === null ? `<url>${xml}</url>\n` : `${indent}<url>\n${xml}${indent}</url>\n`;
}

/**
 * `<url>` for one entry, children in the order the schemas require: the sitemaps.org
 * elements first, then the extensions (free order among themselves, fixed inside each).
 */
export function urlElement(
  entry: SitemapUrlInput,
  options: UrlElementOptions,
  fail: Fail,
): XmlElement {
  if (typeof entry !== 'object' || entry === null) fail('is not an object');
  const children: XmlElement[] = [
    leaf('loc', checkUrl(entry.loc, 'loc', fail, optionalOrigin(options.origin, true))),
  ];
  if (entry.lastmod !== undefined) {
    children.push(leaf('lastmod', checkDatetime(entry.lastmod, 'lastmod', fail)));
  }
  // Written only when asked: Google and Bing ignore both, and they only add bytes.
  if (options.includeChangefreq && entry.changefreq !== undefined) {
    children.push(
      leaf('changefreq', checkOneOf(entry.changefreq, CHANGEFREQS, 'changefreq', fail)),
    );
  }
  if (options.includePriority && entry.priority !== undefined) {
    children.push(leaf('priority', checkDecimal(entry.priority, 'priority', 0, 1, fail)));
  }
  // Lists checked first: a list given as a string has a length, and would be taken for
  // an extension in use.
  const alternates = checkList(entry.alternates, 'alternates', fail);
  const images = checkList(entry.images, 'images', fail);
  const videos = checkList(entry.videos, 'videos', fail);
  const uses = new Set<SitemapExtension>();
  extensionsUsed(entry, uses);
  for (const extension of uses) {
    if (!options.extensions.has(extension)) {
      fail(
        `uses the ${extension} extension, which this document does not declare; ` +
          `add '${extension}' to the extensions option`,
      );
    }
  }
  alternates.forEach((alternate, i) => {
    children.push(alternateElement(alternate, `alternates[${i}]`, fail));
  });
  if (images.length > MAX_IMAGES) fail(`has ${images.length} images, more than ${MAX_IMAGES}`);
  images.forEach((image, i) => {
    children.push(imageElement(image, `images[${i}]`, fail));
  });
  videos.forEach((video, i) => {
    children.push(videoElement(video, `videos[${i}]`, fail));
  });
  if (entry.news !== undefined) children.push(newsElement(entry.news, 'news', fail));
  return { name: 'url', children };
}

/** `<sitemap>` of a sitemap index. */
export function indexElement(
  entry: SitemapIndexEntryInput,
  origin: string | undefined,
  fail: Fail,
): XmlElement {
  if (typeof entry !== 'object' || entry === null) fail('is not an object');
  const children = [leaf('loc', checkUrl(entry.loc, 'loc', fail, optionalOrigin(origin, true)))];
  if (entry.lastmod !== undefined) {
    children.push(leaf('lastmod', checkDatetime(entry.lastmod, 'lastmod', fail)));
  }
  return { name: 'sitemap', children };
}

function alternateElement(alternate: SitemapAlternate, field: string, fail: Fail): XmlElement {
  return {
    name: 'xhtml:link',
    attributes: [
      ['rel', 'alternate'],
      ['hreflang', checkLanguageTag(alternate?.hreflang, `${field}.hreflang`, fail)],
      ['href', checkUrl(alternate?.href, `${field}.href`, fail)],
    ],
  };
}

function imageElement(image: SitemapImage, field: string, fail: Fail): XmlElement {
  const children = [leaf('image:loc', checkUrl(image?.loc, `${field}.loc`, fail))];
  // Schema order: loc, caption, geo_location, title, license.
  if (image.caption !== undefined) {
    children.push(leaf('image:caption', checkText(image.caption, `${field}.caption`, fail)));
  }
  if (image.geoLocation !== undefined) {
    const text = checkText(image.geoLocation, `${field}.geoLocation`, fail);
    children.push(leaf('image:geo_location', text));
  }
  if (image.title !== undefined) {
    children.push(leaf('image:title', checkText(image.title, `${field}.title`, fail)));
  }
  if (image.license !== undefined) {
    children.push(leaf('image:license', checkUrl(image.license, `${field}.license`, fail)));
  }
  return { name: 'image:image', children };
}

// The news schema's pattern for <news:language>.
const NEWS_LANGUAGE = /^(?:zh-cn|zh-tw|[a-z]{2,3})$/;

function newsElement(given: SitemapNews, field: string, fail: Fail): XmlElement {
  const news = checkObject(given, field, fail);
  const language = news.publication?.language;
  if (typeof language !== 'string' || !NEWS_LANGUAGE.test(language)) {
    fail(
      `${field}.publication.language ${JSON.stringify(language)} is not an ISO 639 code (or zh-cn, zh-tw)`,
    );
  }
  return {
    name: 'news:news',
    children: [
      {
        name: 'news:publication',
        children: [
          leaf('news:name', checkText(news.publication.name, `${field}.publication.name`, fail)),
          leaf('news:language', language),
        ],
      },
      leaf(
        'news:publication_date',
        checkDatetime(news.publicationDate, `${field}.publicationDate`, fail),
      ),
      leaf('news:title', checkText(news.title, `${field}.title`, fail)),
    ],
  };
}

function optionalOrigin(
  origin: string | undefined,
  isLoc: boolean,
): { readonly origin?: string; readonly isLoc: boolean } {
  return origin === undefined ? { isLoc } : { origin, isLoc };
}
