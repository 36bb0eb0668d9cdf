// Mutable drafts of entries while their elements are open. A draft becomes a frozen entry
// only when its element closes, so a truncated or broken entry never leaks half its data
// (nor its `lastmod`) into the next one.
import type { SitemapAlternate, SitemapImage, SitemapNews, SitemapVideo } from '../types.ts';

/**
 * Every field is present from the start (undefined until read): one object shape for every
 * draft, and no property storage added to it per entry as fields arrive.
 */
export interface UrlDraft {
  loc: string | null;
  /** Offset of the draft's start tag, for diagnostics. */
  offset: number;
  /** An RSS item's permalink `<guid>`: its address when it has no `<link>`. */
  guid: string | undefined;
  /** The entry is dropped when it closes (its `loc` was already reported). */
  skip: boolean;
  lastmod: string | undefined;
  changefreq: string | undefined;
  priority: number | undefined;
  alternates: SitemapAlternate[] | undefined;
  images: SitemapImage[] | undefined;
  videos: SitemapVideo[] | undefined;
  news: SitemapNews | undefined;
}

export function urlDraft(offset: number): UrlDraft {
  return {
    loc: null,
    offset,
    guid: undefined,
    skip: false,
    lastmod: undefined,
    changefreq: undefined,
    priority: undefined,
    alternates: undefined,
    images: undefined,
    videos: undefined,
    news: undefined,
  };
}

/**
 * `draft` emptied for the next entry, as {@link urlDraft} makes one: a reader reuses one
 * draft for all its entries (an entry never keeps its draft, only the values in it), which
 * spares an object of eleven fields per URL.
 */
export function resetDraft(draft: UrlDraft, offset: number): UrlDraft {
  draft.loc = null;
  draft.offset = offset;
  draft.guid = undefined;
  draft.skip = false;
  draft.lastmod = undefined;
  draft.changefreq = undefined;
  draft.priority = undefined;
  draft.alternates = undefined;
  draft.images = undefined;
  draft.videos = undefined;
  draft.news = undefined;
  return draft;
}

/** Fields of an extension element, by child name (`thumbnail_loc`, `title`, ...). */
export interface ExtensionDraft {
  readonly kind: 'image' | 'video' | 'news';
  readonly offset: number;
  readonly fields: Map<string, string>;
  /** `relationship` attributes of `restriction` and `platform`, `info` of `uploader`. */
  readonly attributes: Map<string, string>;
  readonly tags: string[];
}

export function extensionDraft(kind: ExtensionDraft['kind'], offset: number): ExtensionDraft {
  return { kind, offset, fields: new Map(), attributes: new Map(), tags: [] };
}

/** What went wrong finishing an extension, or the finished value. */
export type Finished<T> = { readonly value: T } | { readonly problem: string };

export function finishImage(draft: ExtensionDraft): Finished<SitemapImage> {
  const loc = draft.fields.get('loc');
  if (!loc) return { problem: '<image:image> without <image:loc>; image skipped' };
  return {
    value: {
      loc,
      ...optional('caption', draft.fields.get('caption')),
      ...optional('title', draft.fields.get('title')),
      ...optional('geoLocation', draft.fields.get('geo_location')),
      ...optional('license', draft.fields.get('license')),
    },
  };
}

export function finishVideo(draft: ExtensionDraft): Finished<SitemapVideo> {
  const f = draft.fields;
  const thumbnailLoc = f.get('thumbnail_loc');
  const title = f.get('title');
  const description = f.get('description');
  if (!thumbnailLoc || title === undefined || description === undefined) {
    return { problem: '<video:video> needs thumbnail_loc, title and description; video skipped' };
  }
  if (!f.get('content_loc') && !f.get('player_loc')) {
    return { problem: '<video:video> needs content_loc or player_loc; video skipped' };
  }
  const restriction = f.get('restriction');
  const platform = f.get('platform');
  const uploader = f.get('uploader');
  return {
    value: {
      thumbnailLoc,
      title,
      description,
      ...optional('contentLoc', f.get('content_loc')),
      ...optional('playerLoc', f.get('player_loc')),
      ...optional('duration', integer(f.get('duration'))),
      ...optional('expirationDate', f.get('expiration_date')),
      ...optional('rating', decimal(f.get('rating'))),
      ...optional('viewCount', integer(f.get('view_count'))),
      ...optional('publicationDate', f.get('publication_date')),
      ...optional('familyFriendly', yesNo(f.get('family_friendly'))),
      ...(restriction === undefined
        ? {}
        : {
            restriction: {
              relationship: relationship(draft, 'restriction'),
              countries: words(restriction),
            },
          }),
      ...(platform === undefined
        ? {}
        : {
            platform: { relationship: relationship(draft, 'platform'), platforms: words(platform) },
          }),
      ...optional('requiresSubscription', yesNo(f.get('requires_subscription'))),
      ...(uploader === undefined
        ? {}
        : { uploader: { name: uploader, ...optional('info', draft.attributes.get('uploader')) } }),
      ...optional('live', yesNo(f.get('live'))),
      ...(draft.tags.length > 0 ? { tags: [...draft.tags] } : {}),
    },
  };
}

export function finishNews(draft: ExtensionDraft): Finished<SitemapNews> {
  const f = draft.fields;
  const name = f.get('name');
  const language = f.get('language');
  const publicationDate = f.get('publication_date');
  const title = f.get('title');
  if (
    name === undefined ||
    language === undefined ||
    publicationDate === undefined ||
    title === undefined
  ) {
    return {
      problem:
        '<news:news> needs publication name and language, publication_date and title; news skipped',
    };
  }
  return { value: { publication: { name, language }, publicationDate, title } };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function integer(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

function decimal(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

function yesNo(text: string | undefined): boolean | undefined {
  const lower = text?.toLowerCase();
  return lower === 'yes' ? true : lower === 'no' ? false : undefined;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

function relationship(draft: ExtensionDraft, element: string): 'allow' | 'deny' {
  return draft.attributes.get(element)?.toLowerCase() === 'deny' ? 'deny' : 'allow';
}
