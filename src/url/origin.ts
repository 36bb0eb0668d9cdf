import { parseHttpUrl } from './internal/http-url.ts';
import { stripWww } from './internal/www-host.ts';

/** How {@link sameSite} compares hosts. Named as in the crawler's options. */
export interface SameSiteOptions {
  /**
   * Count `www.example.com` and `example.com` as one host (default false). Only a leading
   * `www.` label is ignored; scheme and port must still be equal.
   */
  readonly canonicalHost?: boolean;
}

/**
 * The origin of an http(s) URL, `scheme://host[:port]`, as WHATWG serialises it: lower-case,
 * punycode host, default port left out. Null for anything that is not an http(s) URL (other
 * schemes have no useful origin for a crawler: WHATWG would give the string `'null'`).
 *
 * @example
 * ```ts
 * originOf('HTTPS://Example.com:443/a?b'); // 'https://example.com'
 * originOf('http://[::1]:8080/'); // 'http://[::1]:8080'
 * originOf('mailto:someone@example.com'); // null
 * ```
 */
export function originOf(url: string): string | null {
  return parseHttpUrl(url)?.origin ?? null;
}

/**
 * The host of an http(s) URL (with its port, when not the default) without a leading `www.`
 * label: one key for `www.example.com` and `example.com`. `www.` is kept when it is the
 * whole name (`www.com`). Null for anything that is not an http(s) URL.
 *
 * @example
 * ```ts
 * canonicalHostOf('https://WWW.Example.com/a'); // 'example.com'
 * canonicalHostOf('http://www.example.com:8080/'); // 'example.com:8080'
 * canonicalHostOf('https://www2.example.com/'); // 'www2.example.com'
 * ```
 */
export function canonicalHostOf(url: string): string | null {
  const parsed = parseHttpUrl(url);
  if (parsed === null) return null;
  const host = stripWww(parsed.hostname);
  return parsed.port === '' ? host : `${host}:${parsed.port}`;
}

/**
 * True when `url` has the same origin as `origin`: equal scheme, host and port, after WHATWG
 * normalisation (so `HTTP://Example.com:80` matches `http://example.com`). `origin` may be
 * any URL on the site; only its origin counts. With `canonicalHost`, a leading `www.` label
 * is ignored on both sides. False when either is not an http(s) URL. A subdomain is never
 * the same site, and `http:` and `https:` are different sites.
 *
 * @example
 * ```ts
 * sameSite('https://example.com/a', 'https://example.com'); // true
 * sameSite('https://www.example.com/a', 'https://example.com'); // false
 * sameSite('https://www.example.com/a', 'https://example.com', { canonicalHost: true }); // true
 * sameSite('http://example.com/a', 'https://example.com', { canonicalHost: true }); // false
 * ```
 */
export function sameSite(url: string, origin: string, options: SameSiteOptions = {}): boolean {
  const a = parseHttpUrl(url);
  if (a === null) return false;
  const b = parseHttpUrl(origin);
  if (b === null || a.protocol !== b.protocol || a.port !== b.port) return false;
  return options.canonicalHost === true
    ? stripWww(a.hostname) === stripWww(b.hostname)
    : a.hostname === b.hostname;
}
