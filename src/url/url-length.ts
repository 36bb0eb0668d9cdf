/**
 * The longest URL waymark reads from a document and requests: 8 KiB (8,192 characters; a
 * serialised URL is ASCII, so characters are bytes). Longer ones are skipped with a reason.
 * Servers commonly refuse request lines past 8 KiB, and the sitemaps.org limit is 2,048, so
 * no real page or sitemap is lost; what is stopped is a document that makes a crawler carry
 * (and store, and request) megabytes per URL.
 *
 * @example
 * ```ts
 * const limit = `at most ${MAX_REQUEST_URL_LENGTH} characters`; // 'at most 8192 characters'
 * ```
 */
export const MAX_REQUEST_URL_LENGTH = 8 * 1024;

/**
 * True when `url` is longer than {@link MAX_REQUEST_URL_LENGTH}, as written or once
 * serialised (percent-encoding can make a URL longer than it was written).
 *
 * @example
 * ```ts
 * isUrlTooLong(`https://example.com/${'a'.repeat(9000)}`); // true
 * isUrlTooLong('https://example.com/'); // false
 * ```
 */
export function isUrlTooLong(url: string): boolean {
  if (url.length > MAX_REQUEST_URL_LENGTH) return true;
  const parsed = URL.parse(url);
  return parsed !== null && parsed.href.length > MAX_REQUEST_URL_LENGTH;
}
