import { normalizePath, parseHttpUrl } from './internal/http-url.ts';
import { normalizePercent } from './internal/percent.ts';
import { plainHttpUrl } from './internal/plain-http-url.ts';
import { isTrackingParam } from './tracking-params.ts';

/**
 * How {@link normalizeUrl} reads and trims a URL. The query options have the same names as
 * the crawler's, so crawl options can be passed as they are.
 */
export interface NormalizeOptions {
  /** Resolve a relative `href` against this URL (the page it was found on). */
  readonly base?: string | URL;
  /** Keep `utm_*`, `gclid`, `fbclid` and `msclkid` (default false: they are dropped). */
  readonly keepTracking?: boolean;
  /**
   * More parameter names to drop, case-insensitive, compared with the name as written in the
   * URL after escape normalisation. Applies even with `keepTracking`.
   */
  readonly stripParams?: readonly string[];
  /** Drop the whole query (default false). */
  readonly stripQuery?: boolean;
}

/**
 * One canonical string per URL, for deduplicating and storing what a crawler finds. Returns
 * null unless the input (resolved against `base`) is an absolute http: or https: URL, so
 * `javascript:`, `mailto:`, `tel:` and unparseable hrefs all come back as null. Never throws.
 *
 * The URL is parsed by the WHATWG URL parser, as a browser parses an `href`: surrounding
 * whitespace and inner tabs and newlines are removed, `\` is read as `/`, scheme and host are
 * lower-cased, international hosts become punycode, IPv4 forms become dotted decimal, IPv6
 * hosts are compressed, default ports (`:80` for http, `:443` for https) and an empty port
 * are dropped, `.` and `..` segments (also written `%2e`) are resolved, an empty path
 * becomes `/`, and spaces and non-ASCII characters are percent-encoded as UTF-8. Then:
 *
 * - the fragment is dropped (a `?` inside it stays out of the query);
 * - repeated slashes in the path collapse to one (after `..` is resolved, as a server sees
 *   the path); a trailing slash stays as given;
 * - in user info, path and query, escapes of unreserved characters are decoded (`%7e` is
 *   `~`), other escapes keep their meaning with upper-case hex (`%2f` is `%2F`), and a `%`
 *   that starts no escape becomes `%25`;
 * - the query keeps its parameters in order and byte for byte (`+` stays `+`, `%20` stays
 *   `%20`: it is never re-serialised through URLSearchParams), minus tracking parameters
 *   ({@link isTrackingParam}) and `stripParams`. Empty pieces (`&&`, a leading or trailing
 *   `&`) are dropped; a name without `=` (`?print`) and an empty value (`?q=`) stay as
 *   written, since servers may tell `a`, `a=` and no `a` apart. A query left empty, or a
 *   bare `?`, gives no `?` at all;
 * - user info (`user:pass@`) is kept, not dropped: it is part of what the link names.
 *   A crawler that will not fetch such URLs should check for `@` in the authority itself.
 *
 * Not changed: a trailing dot on a host (`example.com.` is a distinct origin), `;` inside a
 * query (not a separator), and escapes that only differ by meaning once decoded (`%2F`).
 * The result is stable: normalizing it again returns the same string.
 *
 * @param input - An absolute URL, or an `href` relative to `options.base`.
 * @returns The normalised URL, or null when it is not an http(s) URL.
 *
 * @example
 * ```ts
 * normalizeUrl('HTTPS://Example.COM:443//a/%7euser/?utm_source=x&id=1#top');
 * // 'https://example.com/a/~user/?id=1'
 * normalizeUrl('../b?', { base: 'https://example.com/a/c' }); // 'https://example.com/b'
 * normalizeUrl('mailto:someone@example.com'); // null
 * ```
 */
export function normalizeUrl(input: string, options: NormalizeOptions = {}): string | null {
  // Most URLs are already plain (lower-case host, nothing to escape or resolve): their
  // pieces are slices of the input, found without the parser.
  const plain = plainHttpUrl(input, options.base);
  if (plain === null) return normalizeUrlByParser(input, options);
  const query = options.stripQuery === true ? '' : normalizeQuery(plain.search, options);
  return `${plain.origin}${normalizePath(plain.pathname)}${query}`;
}

/**
 * {@link normalizeUrl} without the shortcut for plain URLs: every input through the WHATWG
 * parser. Not public; the differential property test holds the shortcut to it.
 */
export function normalizeUrlByParser(input: string, options: NormalizeOptions = {}): string | null {
  const url = parseHttpUrl(input, options.base);
  if (url === null) return null;
  let authority = url.host;
  if (url.username !== '' || url.password !== '') {
    const password = url.password === '' ? '' : `:${normalizePercent(url.password)}`;
    authority = `${normalizePercent(url.username)}${password}@${authority}`;
  }
  const path = normalizePath(url.pathname);
  // The parts are joined by hand rather than through `url.href` setters, which would
  // re-encode them; each part is already in the form the WHATWG parser leaves alone.
  const query = options.stripQuery === true ? '' : normalizeQuery(url.search, options);
  return `${url.protocol}//${authority}${path}${query}`;
}

/** `search` (`''` or `?...` from WHATWG) with escapes normalised and unwanted pieces dropped. */
function normalizeQuery(search: string, options: NormalizeOptions): string {
  // WHATWG gives '' both for no query and for a bare '?'.
  if (search === '') return '';
  const keepTracking = options.keepTracking === true;
  const strip = options.stripParams;
  let out = '';
  // Escapes are normalised before splitting: `%26` is reserved, so stays encoded and is
  // never taken for a separator.
  for (const param of normalizePercent(search.slice(1)).split('&')) {
    if (param === '') continue;
    const equals = param.indexOf('=');
    const name = equals < 0 ? param : param.slice(0, equals);
    if (!keepTracking && isTrackingParam(name)) continue;
    if (strip !== undefined && strip.length > 0 && isListed(name, strip)) continue;
    out += out === '' ? `?${param}` : `&${param}`;
  }
  return out;
}

/** True when `name` equals one of `names`, ignoring case. */
function isListed(name: string, names: readonly string[]): boolean {
  const lower = name.toLowerCase();
  for (const listed of names) {
    if (listed.length === name.length && listed.toLowerCase() === lower) return true;
  }
  return false;
}
