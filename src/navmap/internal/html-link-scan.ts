// The HTML half of discovery: one streaming pass with htmlparser2 (no DOM) that keeps the
// <link> and <meta> elements discovery looks at and the first <base href>. Nothing inside
// <template> counts (inert until a script uses it), and neither do <link>, <meta> or <base>
// inside <svg> or <math>, which are not HTML elements there.

import { Parser } from 'htmlparser2';
import { HtmlDecoder } from '../../shared/html/html-decoder.ts';
import { trimAscii } from '../../shared/html/html-values.ts';

/** Most `<link>` and `<meta>` elements kept: a page with more is hostile or generated. */
export const MAX_HTML_ELEMENTS = 10_000;

export interface HtmlLink {
  /** `rel` tokens, ASCII lower-cased. */
  readonly rel: readonly string[];
  /** `href` as written, or null when absent. */
  readonly href: string | null;
}

export interface HtmlMeta {
  /** `name`, trimmed and ASCII lower-cased. */
  readonly name: string;
  readonly content: string | null;
}

export interface HtmlLinkScan {
  readonly links: readonly HtmlLink[];
  readonly metas: readonly HtmlMeta[];
  /** The first `<base>` with an `href`, as written. */
  readonly baseHref: string | null;
  /** True when the page had more `<link>` and `<meta>` elements than are kept. */
  readonly truncated: boolean;
}

/**
 * Reads the links, metas and base of an HTML page. Bytes are decoded as browsers do (BOM,
 * Content-Type charset, `<meta charset>`, else UTF-8).
 *
 * @example
 * ```ts
 * scanHtmlLinks(bytes, 'text/html').links; // [{ rel: ['schema.nav'], href: 'http://...' }]
 * ```
 */
export function scanHtmlLinks(body: Uint8Array | string, contentType?: string): HtmlLinkScan {
  const links: HtmlLink[] = [];
  const metas: HtmlMeta[] = [];
  let baseHref: string | null = null;
  let truncated = false;
  let inert = 0;
  let foreign = 0;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'template') inert++;
      if (inert > 0) return;
      if (name === 'svg' || name === 'math') foreign++;
      if (foreign > 0) return;
      if (
        (name === 'link' || name === 'meta') &&
        links.length + metas.length >= MAX_HTML_ELEMENTS
      ) {
        truncated = true;
        return;
      }
      if (name === 'link') {
        links.push({ rel: asciiTokens(attributes['rel']), href: attributes['href'] ?? null });
      } else if (name === 'meta' && attributes['name'] !== undefined) {
        metas.push({
          name: asciiLower(trimAscii(attributes['name'])),
          content: attributes['content'] ?? null,
        });
      } else if (name === 'base' && baseHref === null && attributes['href'] !== undefined) {
        baseHref = attributes['href'];
      }
    },
    onclosetag(name) {
      if (name === 'template') inert = Math.max(0, inert - 1);
      else if (inert === 0 && (name === 'svg' || name === 'math'))
        foreign = Math.max(0, foreign - 1);
    },
  });
  if (typeof body === 'string') {
    parser.end(body);
  } else {
    const decoder = new HtmlDecoder(contentType);
    const text = decoder.write(body);
    parser.end(text + decoder.end());
  }
  return { links, metas, baseHref, truncated };
}

/**
 * ASCII lower case only, as HTML compares keywords: `toLowerCase` would also fold the Kelvin
 * sign to `k` or `İ` to `i̇`, making tokens equal that HTML keeps apart.
 */
function asciiLower(value: string): string {
  return value.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/** The tokens of a space-separated list such as `rel`, ASCII lower-cased. */
function asciiTokens(value: string | undefined): string[] {
  const trimmed = trimAscii(value ?? '');
  return trimmed === '' ? [] : asciiLower(trimmed).split(/[\t\n\f\r ]+/);
}
