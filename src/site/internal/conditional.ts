import type { HeaderReader } from './light-request.ts';

/**
 * True when a conditional GET or HEAD may be answered 304. `If-None-Match` decides when
 * present (weak comparison, `*` matches, a list matches when any tag does); otherwise
 * `If-Modified-Since`, through `validatesSince` (see `LastModified`).
 */
export function notModified(
  headers: HeaderReader,
  etag: string,
  validatesSince: (since: number) => boolean,
): boolean {
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const wanted = opaque(etag);
    return ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || opaque(t) === wanted;
    });
  }
  const ifModifiedSince = headers.get('if-modified-since');
  if (ifModifiedSince === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && validatesSince(since);
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** FNV-1a, 32 bits, as 8 hex digits: a cheap fingerprint for ETags. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
