import type { SitemapVideo } from '../types.ts';
import {
  checkDatetime,
  checkDecimal,
  checkInteger,
  checkList,
  checkObject,
  checkOneOf,
  checkText,
  checkUrl,
  checkYesNo,
  type Fail,
} from './write-values.ts';
import { leaf, type XmlElement } from './xml-element.ts';

// The video schema allows 32 tags per video; Google caps the uploader name at 255 characters.
const MAX_VIDEO_TAGS = 32;
const MAX_UPLOADER_CHARS = 255;

/**
 * `<video:video>`. The video schema is a strict sequence: the order below is the schema's,
 * not a choice, and `xmllint` rejects any other.
 */
export function videoElement(given: SitemapVideo, field: string, fail: Fail): XmlElement {
  const video = checkObject(given, field, fail);
  if (video.contentLoc === undefined && video.playerLoc === undefined) {
    fail(`${field} has neither contentLoc nor playerLoc; the protocol needs one`);
  }
  const children: XmlElement[] = [];
  const add = <T>(
    element: string,
    property: string,
    value: T | undefined,
    check: (value: T, name: string) => string,
  ): void => {
    if (value !== undefined) {
      children.push(leaf(`video:${element}`, check(value, `${field}.${property}`)));
    }
  };
  const url = (value: string, name: string): string => checkUrl(value, name, fail);
  const date = (value: string, name: string): string => checkDatetime(value, name, fail);
  const yesNo = (value: boolean, name: string): string => checkYesNo(value, name, fail);

  // Required: checked even when missing, so a gap is refused rather than skipped.
  children.push(
    leaf('video:thumbnail_loc', url(video.thumbnailLoc, `${field}.thumbnailLoc`)),
    leaf('video:title', checkText(video.title, `${field}.title`, fail, 100)),
    leaf('video:description', checkText(video.description, `${field}.description`, fail, 2048)),
  );
  add('content_loc', 'contentLoc', video.contentLoc, url);
  add('player_loc', 'playerLoc', video.playerLoc, url);
  add('duration', 'duration', video.duration, (v, name) => checkInteger(v, name, 1, 28_800, fail));
  add('expiration_date', 'expirationDate', video.expirationDate, date);
  add('rating', 'rating', video.rating, (v, name) => checkDecimal(v, name, 0, 5, fail));
  add('view_count', 'viewCount', video.viewCount, (v, name) =>
    checkInteger(v, name, 0, Number.MAX_SAFE_INTEGER, fail),
  );
  add('publication_date', 'publicationDate', video.publicationDate, date);
  const tags = checkList(video.tags, `${field}.tags`, fail);
  if (tags.length > MAX_VIDEO_TAGS) {
    fail(`${field} has ${tags.length} tags, more than ${MAX_VIDEO_TAGS}`);
  }
  tags.forEach((tag, i) => {
    add('tag', `tags[${i}]`, tag, (v, name) => checkText(v, name, fail));
  });
  add('family_friendly', 'familyFriendly', video.familyFriendly, yesNo);
  if (video.restriction !== undefined) {
    children.push(
      listElement('video:restriction', video.restriction, {
        field: `${field}.restriction`,
        items: 'countries',
        item: /^[A-Z]{2}$/,
        what: 'a two-letter upper-case country code',
        fail,
      }),
    );
  }
  add('requires_subscription', 'requiresSubscription', video.requiresSubscription, yesNo);
  if (video.uploader !== undefined) {
    const uploader = checkObject(video.uploader, `${field}.uploader`, fail);
    const info = uploader.info;
    children.push({
      name: 'video:uploader',
      attributes: info === undefined ? [] : [['info', url(info, `${field}.uploader.info`)]],
      text: checkText(uploader.name, `${field}.uploader.name`, fail, MAX_UPLOADER_CHARS),
    });
  }
  if (video.platform !== undefined) {
    children.push(
      listElement('video:platform', video.platform, {
        field: `${field}.platform`,
        items: 'platforms',
        item: /^(?:web|mobile|tv)$/,
        what: 'web, mobile or tv',
        fail,
      }),
    );
  }
  add('live', 'live', video.live, yesNo);
  return { name: 'video:video', children };
}

/** `<video:restriction>` and `<video:platform>`: a relationship and a space-separated list. */
function listElement<K extends 'countries' | 'platforms'>(
  name: string,
  given: { readonly relationship: 'allow' | 'deny' } & { readonly [key in K]: readonly string[] },
  check: {
    readonly field: string;
    /** The field that holds the list. */
    readonly items: K;
    readonly item: RegExp;
    readonly what: string;
    readonly fail: Fail;
  },
): XmlElement {
  const { field, item, what, fail } = check;
  const value = checkObject(given, field, fail);
  const relationship = checkOneOf(
    value.relationship,
    ['allow', 'deny'],
    `${field}.relationship`,
    fail,
  );
  const items = value[check.items] as readonly string[];
  if (!Array.isArray(items)) fail(`${field}.${check.items} is not a list`);
  items.forEach((text, i) => {
    if (typeof text !== 'string' || !item.test(text)) {
      fail(`${field}.${check.items}[${i}] ${JSON.stringify(text)} is not ${what}`);
    }
  });
  return { name, attributes: [['relationship', relationship]], text: items.join(' ') };
}
