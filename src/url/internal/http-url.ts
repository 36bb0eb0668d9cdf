import { normalizePercent } from './percent.ts';

/**
 * `input` parsed by the WHATWG URL parser (as a browser reads an `href`), or null unless the
 * result is an http: or https: URL. Never throws: `URL.parse` returns null where
 * `new URL` would throw, so arbitrary strings cost no exception.
 *
 * @example
 * ```ts
 * parseHttpUrl('../b', 'https://example.com/a/x')?.href; // 'https://example.com/b'
 * parseHttpUrl('mailto:someone@example.com'); // null
 * ```
 */
export function parseHttpUrl(input: string, base?: string | URL): URL | null {
  const url = URL.parse(input, base);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') ? url : null;
}

/**
 * A WHATWG pathname (dot segments already resolved) in waymark's form: escapes normalised
 * and runs of `/` collapsed to one. A trailing slash stays: `/a/` and `/a` can be different
 * resources. Shared by normalizeUrl and pathFilter, so filters see the path that is stored.
 *
 * @example
 * ```ts
 * normalizePath('/a//b/%7euser/'); // '/a/b/~user/'
 * ```
 */
export function normalizePath(pathname: string): string {
  const path = normalizePercent(pathname);
  return path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
}
