import type { Diagnostic } from '../shared/diagnostic.ts';

/** What a sitemap document turned out to be, from its bytes. */
export type SitemapKind = 'urlset' | 'index' | 'text' | 'rss' | 'atom' | 'unknown';

/** How often a page is said to change (sitemaps.org; major engines ignore it). */
export type Changefreq = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';

/** `<xhtml:link rel="alternate" hreflang="..." href="...">`: the page in another language. */
export interface SitemapAlternate {
  readonly hreflang: string;
  readonly href: string;
}

/** Google image sitemap 1.1 (`<image:image>`). Only `loc` is still used by Google. */
export interface SitemapImage {
  readonly loc: string;
  readonly caption?: string;
  readonly title?: string;
  readonly geoLocation?: string;
  readonly license?: string;
}

/** Google video sitemap 1.1 (`<video:video>`). */
export interface SitemapVideo {
  readonly thumbnailLoc: string;
  readonly title: string;
  readonly description: string;
  /** At least one of `contentLoc` and `playerLoc` is required by the protocol. */
  readonly contentLoc?: string;
  readonly playerLoc?: string;
  /** Seconds, 1 to 28,800. */
  readonly duration?: number;
  readonly expirationDate?: string;
  /** 0.0 to 5.0. */
  readonly rating?: number;
  readonly viewCount?: number;
  readonly publicationDate?: string;
  readonly familyFriendly?: boolean;
  /** `<video:restriction relationship="allow|deny">` country codes. */
  readonly restriction?: {
    readonly relationship: 'allow' | 'deny';
    readonly countries: readonly string[];
  };
  /** `<video:platform relationship="allow|deny">`: web, mobile, tv. */
  readonly platform?: {
    readonly relationship: 'allow' | 'deny';
    readonly platforms: readonly string[];
  };
  readonly requiresSubscription?: boolean;
  readonly uploader?: { readonly name: string; readonly info?: string };
  readonly live?: boolean;
  readonly tags?: readonly string[];
}

/** Google News sitemap 0.9 (`<news:news>`). */
export interface SitemapNews {
  readonly publication: { readonly name: string; readonly language: string };
  /** W3C Datetime, normalised like `lastmod`. */
  readonly publicationDate: string;
  readonly title: string;
}

/** One `<url>` of a URL set (or an item of a text, RSS or Atom sitemap). */
export interface SitemapUrl {
  /** Absolute http(s) URL, as `new URL(x).href` spells it. */
  readonly loc: string;
  /** ISO 8601 (W3C Datetime when the document's value was valid; see the README). */
  readonly lastmod?: string;
  readonly changefreq?: Changefreq;
  /** 0.0 to 1.0. */
  readonly priority?: number;
  readonly alternates?: readonly SitemapAlternate[];
  readonly images?: readonly SitemapImage[];
  readonly videos?: readonly SitemapVideo[];
  readonly news?: SitemapNews;
}

/** One `<sitemap>` of a sitemap index. */
export interface SitemapIndexEntry {
  readonly loc: string;
  readonly lastmod?: string;
}

export type SitemapEntry = SitemapUrl | SitemapIndexEntry;

/**
 * A `lastmod` as the writers take it: W3C Datetime text, kept as given (a date alone stays a
 * date), or a `Date`, written to the second in UTC (`2026-11-24T10:15:00Z`).
 */
export type LastmodInput = string | Date;

/** A {@link SitemapUrl} as the writers take it: `lastmod` may also be a `Date`. */
export interface SitemapUrlInput extends Omit<SitemapUrl, 'lastmod'> {
  readonly lastmod?: LastmodInput;
}

/** A {@link SitemapIndexEntry} as the writers take it: `lastmod` may also be a `Date`. */
export interface SitemapIndexEntryInput extends Omit<SitemapIndexEntry, 'lastmod'> {
  readonly lastmod?: LastmodInput;
}

/** Everything a sitemap held, read at once. */
export interface SitemapDocument {
  readonly kind: SitemapKind;
  /** URL-set entries for `urlset`, `text`, `rss` and `atom`; child sitemaps for `index`. */
  readonly entries: readonly SitemapEntry[];
  readonly diagnostics: readonly Diagnostic[];
}

export type { Diagnostic };
