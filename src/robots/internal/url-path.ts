/**
 * The part of a URL that robots.txt rules are matched against: path, parameters and query,
 * without scheme, authority or fragment, always starting with `/`. Follows Google's
 * GetPathParamsQuery, so a bare path (`/a?b`), a scheme-less URL (`example.com/a`) and a
 * full URL all work, and anything without a path gives `/`. Nothing is decoded or encoded:
 * callers pass URLs already percent-encoded, as `new URL(x).href` produces. Like Google's
 * C strings, the URL ends at a NUL character (an encoded URL has none; `%00` is kept).
 *
 * @example
 * ```ts
 * pathForMatching('https://example.com/a/b?c=d#top'); // '/a/b?c=d'
 * pathForMatching('example.com'); // '/'
 * ```
 */
export function pathForMatching(url: string): string {
  const scheme = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : 0;
  return scheme > 0 ? pathOfHttpUrl(url, scheme) : pathOfAnyUrl(url);
}

/**
 * {@link pathForMatching} for a URL known to start `http://` or `https://` (almost every
 * check), in one pass over its short authority and two native searches of the rest, where the
 * general case searches the whole URL about nine times. `authorityStart` is just after `//`.
 */
function pathOfHttpUrl(url: string, authorityStart: number): string {
  let pathStart = authorityStart;
  for (; pathStart < url.length; pathStart++) {
    const c = url.charCodeAt(pathStart);
    if (c === 0x2f || c === 0x3f || c === 0x3b) break; // `/`, `?`, `;`: the path begins
    if (c === 0x23 || c === 0) return '/'; // a fragment or the end (NUL) before any path
  }
  if (pathStart === url.length) return '/';
  let pathEnd = url.indexOf('#', pathStart);
  if (pathEnd < 0) pathEnd = url.length;
  const nul = url.indexOf('\0', pathStart);
  if (nul >= 0 && nul < pathEnd) pathEnd = nul;
  const path = url.slice(pathStart, pathEnd);
  return url.charCodeAt(pathStart) === 0x2f ? path : `/${path}`;
}

/** {@link pathForMatching} for any other URL or path, step by step as Google's does it. */
export function pathOfAnyUrl(url: string): string {
  const nul = url.indexOf('\0');
  if (nul >= 0) url = url.slice(0, nul);
  const searchStart = url.startsWith('//') ? 2 : 0;
  const earlyPath = indexOfAny(url, searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  if (earlyPath >= 0 && earlyPath < protocolEnd) protocolEnd = -1;
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3;

  const pathStart = indexOfAny(url, protocolEnd);
  if (pathStart < 0) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash >= 0 && hash < pathStart) return '/';
  const pathEnd = hash < 0 ? url.length : hash;
  const path = url.slice(pathStart, pathEnd);
  return url.charCodeAt(pathStart) === 0x2f ? path : `/${path}`;
}

/** First index of `/`, `?` or `;` at or after `from`, or -1 (native searches beat a char loop). */
function indexOfAny(url: string, from: number): number {
  let first = url.indexOf('/', from);
  const query = url.indexOf('?', from);
  if (query >= 0 && (first < 0 || query < first)) first = query;
  const params = url.indexOf(';', from);
  if (params >= 0 && (first < 0 || params < first)) first = params;
  return first;
}
