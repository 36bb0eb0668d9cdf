// URL attribute values (href, src) to absolute URLs the crawler can fetch. WHATWG URL does
// the resolving; only http: and https: results are kept.

import { trimAscii } from '../../shared/html/html-values.ts';
import { ownCopy } from '../../shared/own-copy.ts';

/** What became of one URL attribute value. */
export type UrlOutcome =
  | { readonly kind: 'url'; readonly href: string }
  /** Nothing to follow: empty, fragment-only (for links) or not http(s). Not a problem. */
  | { readonly kind: 'skipped' }
  /** The URL parser rejected it (`http://exa mple.com/`, `https://[::1`). */
  | { readonly kind: 'invalid' };

const SKIPPED: UrlOutcome = { kind: 'skipped' };
const INVALID: UrlOutcome = { kind: 'invalid' };

/**
 * Resolves an `href` or `src` value against `base`. The value is trimmed of ASCII
 * whitespace; empty values are skipped, and so are fragment-only ones (`#top`) when
 * `fragmentOnly` is `'skip'` (for `<a>` and `<area>`: a jump within the page). Results that
 * are not http: or https: (`javascript:`, `mailto:`, `tel:`, `data:`, `ftp:`...) are
 * skipped too: a crawler cannot fetch them. The href is WHATWG URL's serialisation, not
 * normalised further. Unlike a browser, the query is percent-encoded as UTF-8 even on a
 * page in a legacy encoding (JavaScript has no encoders for those).
 *
 * @example
 * ```ts
 * resolveUrl(' ../b?x=1 ', new URL('https://example.com/a/c'), 'skip'); // { kind: 'url', href: 'https://example.com/b?x=1' }
 * resolveUrl('mailto:me@example.com', base, 'skip'); // { kind: 'skipped' }
 * ```
 */
export function resolveUrl(
  value: string | undefined,
  base: URL,
  fragmentOnly: 'skip' | 'keep',
): UrlOutcome {
  if (value === undefined) return SKIPPED;
  const trimmed = trimAscii(value);
  if (trimmed === '' || (fragmentOnly === 'skip' && trimmed.startsWith('#'))) return SKIPPED;
  const url = URL.parse(trimmed, base);
  if (url === null) return INVALID;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return SKIPPED;
  return { kind: 'url', href: url.href };
}

/** Most values remembered per base authority, and most authorities remembered. */
const MEMO_VALUES = 256;
const MEMO_AUTHORITIES = 64;
/** Outcomes of absolute `http(s)://` values: the same whatever the base. */
const absoluteOutcomes = new Map<string, UrlOutcome>();
/** Outcomes of path-absolute values (`/a/b`), by the base's `scheme://userinfo@host:port`. */
const outcomesByAuthority = new Map<string, Map<string, UrlOutcome>>();

/**
 * {@link resolveUrl} against one base, remembering the outcomes that do not depend on the
 * base's path: values written `http://...` or `https://...`, and values written `/...`
 * (resolved against the base's scheme and authority alone). The links a site repeats on every
 * page (menus, footers) then cost a map lookup instead of a WHATWG parse. Other values (and
 * any value with a tab or line break, which the URL parser deletes anywhere, so that `/\t/x`
 * is `//x`) are resolved in full. A differential test holds it to {@link resolveUrl}.
 */
export function memoizedResolver(
  base: URL,
): (value: string | undefined, fragmentOnly: 'skip' | 'keep') => UrlOutcome {
  const authority = authorityOf(base);
  const local = authority === null ? null : authorityOutcomes(authority);
  return (value, fragmentOnly) => {
    if (value === undefined) return SKIPPED;
    const trimmed = trimAscii(value);
    const memo = memoFor(trimmed, local);
    if (memo === null) return resolveUrl(trimmed, base, fragmentOnly);
    const known = memo.get(trimmed);
    if (known !== undefined) return known;
    const outcome: UrlOutcome =
      memo === local && authority !== null && isPlainPath(trimmed)
        ? { kind: 'url', href: ownCopy(authority + trimmed) }
        : resolveUrl(trimmed, base, fragmentOnly);
    if (memo.size >= MEMO_VALUES) memo.clear();
    memo.set(ownCopy(trimmed), outcome);
    return outcome;
  };
}

/** The memo a trimmed value's outcome belongs in, or null when it is resolved in full. */
function memoFor(
  value: string,
  local: Map<string, UrlOutcome> | null,
): Map<string, UrlOutcome> | null {
  if (value.includes('\t') || value.includes('\n') || value.includes('\r')) return null;
  if (value.startsWith('/')) {
    const second = value.charCodeAt(1);
    // `//host` and `/\host` name another authority: relative to the base's scheme only.
    return second === 0x2f || second === 0x5c ? null : local;
  }
  return value.startsWith('https://') || value.startsWith('http://') ? absoluteOutcomes : null;
}

/** `base`'s `scheme://userinfo@host:port` for an http(s) base, else null. */
function authorityOf(base: URL): string | null {
  const { href, protocol } = base;
  if (protocol !== 'http:' && protocol !== 'https:') return null;
  // A special URL's href is `scheme://[userinfo@]host[:port]/path...`: the authority ends at
  // the first `/` after the `//`.
  const end = href.indexOf('/', protocol.length + 2);
  return end < 0 ? null : href.slice(0, end);
}

/** The memo of path-absolute values against one base authority. */
function authorityOutcomes(authority: string): Map<string, UrlOutcome> {
  let memo = outcomesByAuthority.get(authority);
  if (memo === undefined) {
    if (outcomesByAuthority.size >= MEMO_AUTHORITIES) outcomesByAuthority.clear();
    memo = new Map();
    outcomesByAuthority.set(authority, memo);
  }
  return memo;
}

/**
 * Characters a WHATWG parser copies as they are into a special URL's path and query:
 * letters, digits and `-._~!$&()*+,;=:@/` (`?` too, which starts the query). Not `%`, `\`,
 * `'` (percent-encoded in a special query), `#`, spaces, controls or non-ASCII.
 */
const PLAIN = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&()*+,;=:@/?') {
  PLAIN[c.charCodeAt(0)] = 1;
}

/**
 * True for a path-absolute value (`/a/b?c=d`, not `//` or `/\`: the caller checked) that
 * resolves to the base's authority followed by the value itself: only {@link PLAIN}
 * characters, and no `/.` anywhere (a `.` or `..` segment would be removed).
 */
function isPlainPath(value: string): boolean {
  return isPlainPathAt(value, 0);
}

/**
 * {@link isPlainPath} for the part of `text` from `from` (a `/`) on: what a special URL
 * whose path and query are written that way keeps exactly as written.
 */
export function isPlainPathAt(text: string, from: number): boolean {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || PLAIN[c] === 0) return false;
  }
  return !text.includes('/.', from);
}
