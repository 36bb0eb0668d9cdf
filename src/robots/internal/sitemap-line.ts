import { plainHref } from '../../url/internal/plain-http-url.ts';

/** The robots.txt URL as Sitemap lines are read against it. */
export interface RobotsBase {
  /** The URL parses: relative sitemaps can be resolved against it. */
  readonly valid: boolean;
  /** Its origin when it is a plain http(s) URL (see plainHref), for `/path` sitemaps. */
  readonly origin: string | null;
}

/** The last robots.txt URL given: a crawler parses many files of one host, or one each. */
let lastBase: string | undefined;
let lastRead: RobotsBase = { valid: false, origin: null };

export function readBase(base: string): RobotsBase {
  if (base === lastBase) return lastRead;
  const plain = plainHref(base);
  lastBase = base;
  lastRead = {
    valid: plain !== null || URL.canParse(base),
    // A plain href always has a path, from the first `/` after `://`.
    origin: plain === null ? null : plain.href.slice(0, plain.href.indexOf('/', 8)),
  };
  return lastRead;
}

/** Where a Sitemap line's URL points, or why it points nowhere. */
export type SitemapUrl =
  | { readonly href: string; readonly relative: boolean }
  | { readonly problem: 'not-absolute' | 'not-http' };

/**
 * The sitemap URL of a non-empty Sitemap value: absolute, or relative to `base` (a valid
 * robots.txt URL, with `origin` as {@link readBase} gives it), as `URL.parse` reads it.
 */
export function sitemapUrl(
  value: string,
  base: string | undefined,
  origin: string | null,
): SitemapUrl {
  // Nearly every Sitemap line is already written as the URL parser would write it.
  if (plainHref(value)?.href === value) return { href: value, relative: false };
  if (value.charCodeAt(0) === 0x2f && value.charCodeAt(1) !== 0x2f && origin !== null) {
    // A path from the root: read against a plain base, it is the origin and the path when
    // that is already an href as the parser writes it.
    const href = origin + value;
    if (plainHref(href)?.href === href) return { href, relative: true };
  }
  // A value starting with `/` has no scheme: it can only be relative.
  const absolute = value.charCodeAt(0) === 0x2f ? null : URL.parse(value);
  const url = absolute ?? (base === undefined ? null : URL.parse(value, base));
  if (url === null) return { problem: 'not-absolute' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'not-http' };
  return { href: url.href, relative: absolute === null };
}
