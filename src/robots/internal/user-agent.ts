/**
 * The product token at the start of a user-agent value: the longest prefix of letters, `-`
 * and `_` (RFC 9309 section 2.2.1). `Googlebot/2.1 (+http://...)` gives `Googlebot`.
 *
 * @example
 * ```ts
 * robots.isAllowed(url, productToken(request.headers.get('user-agent') ?? ''));
 * ```
 */
export function productToken(userAgent: string): string {
  let end = 0;
  while (end < userAgent.length) {
    const c = userAgent.charCodeAt(end);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!letter && c !== 0x2d && c !== 0x5f) break;
    end++;
  }
  return userAgent.slice(0, end);
}

/**
 * True when `userAgent` is a whole, non-empty product token a crawler may obey rules for.
 *
 * @example
 * ```ts
 * isValidUserAgent('Googlebot-Image'); // true
 * isValidUserAgent('Googlebot/2.1'); // false
 * ```
 */
export function isValidUserAgent(userAgent: string): boolean {
  return userAgent.length > 0 && productToken(userAgent) === userAgent;
}

/**
 * True when `userAgent` may be written on a user-agent line: a product token, or a name
 * some operators document although it is not one (`AI2Bot`, `MJ12bot`, `archive.org_bot`):
 * a letter, then letters, digits, `.`, `-` and `_`. Such a line is what the operator asks
 * for; RFC 9309 parsers (and Google's) read it by its token prefix (`AI`), which names no
 * other crawler.
 */
export function isWritableUserAgent(userAgent: string): boolean {
  return isValidUserAgent(userAgent) || /^[A-Za-z][A-Za-z0-9._-]*$/.test(userAgent);
}

/**
 * True when a robots.txt user-agent value names every crawler: `*`, or (as Google reads it)
 * `*` followed by whitespace and anything else.
 */
export function isGlobalUserAgent(value: string): boolean {
  if (value.charCodeAt(0) !== 0x2a) return false;
  if (value.length === 1) return true;
  const c = value.charCodeAt(1);
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
