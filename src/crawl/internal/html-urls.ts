// URL attribute values (href, src) to absolute URLs the crawler can fetch. WHATWG URL does
// the resolving; only http: and https: results are kept.

import { trimAscii } from '../../shared/html/html-values.ts';

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
