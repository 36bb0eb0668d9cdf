// Values from someone else's sitemap, made safe to show. Labels and URLs can carry any
// character XML allows through a character reference, and a few it does not (the tokenizer
// is forgiving): an ESC or a C1 CSI in a label printed raw would drive the user's terminal,
// and bidi controls can make a line read differently from what it is.

import { codePointHex, UNSAFE_TO_SHOW } from '../../shared/printable.ts';

/** The unsafe characters without C0: `JSON.stringify` escapes those itself, and its own line breaks stay. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Schemes whose URLs may become a link in HTML output. */
const LINKABLE = /^(?:https?|mailto):/i;

const HTML_SPECIALS = /[&<>"']/g;
const HTML_REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * JSON text with the controls `JSON.stringify` leaves raw (DEL, C1, bidi, U+2028/9) written
 * as `\u` escapes. They can only occur inside strings, so the JSON means the same.
 *
 * @example
 * ```ts
 * quietJson(JSON.stringify('\u009b')); // '"\\u009b"'
 * ```
 */
export function quietJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${codePointHex(c, 4)}`);
}

/**
 * Text or a double-quoted attribute value for HTML: the five specials as references, and
 * control characters as numeric references (so they never reach a terminal raw either).
 *
 * @example
 * ```ts
 * escapeHtml('<a href="x">'); // '&lt;a href=&quot;x&quot;&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text
    .replace(HTML_SPECIALS, (c) => HTML_REFERENCES[c] ?? c)
    .replace(UNSAFE_TO_SHOW, (c) => `&#x${codePointHex(c, 2).toUpperCase()};`);
}

/**
 * True for a URL that may be an `href` in generated HTML: `http:`, `https:` or `mailto:`.
 *
 * @example
 * ```ts
 * isLinkable('javascript:alert(1)'); // false
 * ```
 */
export function isLinkable(url: string): boolean {
  return LINKABLE.test(url);
}
