// Attribute values and text as HTML reads them: ASCII whitespace only (not U+00A0 or other
// Unicode spaces), ASCII case-insensitive keywords, space-separated token lists.

const ASCII_SPACE = /[\t\n\f\r ]+/g;
const EDGE_SPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/**
 * The value without leading and trailing ASCII whitespace.
 *
 * @example
 * ```ts
 * trimAscii('\n /a \t'); // '/a'
 * ```
 */
export function trimAscii(value: string): string {
  // Most values (every href of a crawl) have no space at either end: no regex run then.
  const last = value.length - 1;
  if (last < 0 || (!isAsciiSpace(value.charCodeAt(0)) && !isAsciiSpace(value.charCodeAt(last)))) {
    return value;
  }
  return value.replace(EDGE_SPACE, '');
}

/** Tab, line feed, form feed, carriage return, space. */
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/**
 * Runs of ASCII whitespace as one space, trimmed: how `document.title` reads a title.
 *
 * @example
 * ```ts
 * collapseAscii('  Hello\n  world '); // 'Hello world'
 * ```
 */
export function collapseAscii(value: string): string {
  return trimAscii(value).replace(ASCII_SPACE, ' ');
}

/**
 * The lowercased tokens of a space-separated list such as `rel`.
 *
 * @example
 * ```ts
 * tokens(' Alternate  NOFOLLOW'); // ['alternate', 'nofollow']
 * ```
 */
export function tokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  const trimmed = trimAscii(value);
  return trimmed === '' ? [] : trimmed.toLowerCase().split(ASCII_SPACE);
}

/** `<meta name>` values whose `content` is read as robots directives. */
const ROBOTS_NAMES: ReadonlySet<string> = new Set(['robots', 'googlebot']);

/**
 * True when a `<meta name>` carries robots directives (`robots` or `googlebot`, any case).
 *
 * @example
 * ```ts
 * isRobotsMetaName(' GoogleBot '); // true
 * ```
 */
export function isRobotsMetaName(name: string | undefined): boolean {
  return name !== undefined && ROBOTS_NAMES.has(trimAscii(name).toLowerCase());
}

/**
 * The directives of a robots `<meta content>` that matter to a crawler: `noindex`,
 * `nofollow`, and `none` for both. Tokens are separated by commas and/or whitespace and
 * compared case-insensitively; others (`index`, `max-snippet:20`...) are ignored.
 *
 * @example
 * ```ts
 * robotsDirectives('NOINDEX, follow'); // { noindex: true, nofollow: false }
 * ```
 */
export function robotsDirectives(content: string | undefined): {
  noindex: boolean;
  nofollow: boolean;
} {
  let noindex = false;
  let nofollow = false;
  for (const token of (content ?? '').toLowerCase().split(/[\s,]+/)) {
    if (token === 'noindex' || token === 'none') noindex = true;
    if (token === 'nofollow' || token === 'none') nofollow = true;
  }
  return { noindex, nofollow };
}

/**
 * The feed kind a `<link type>` names: RSS or Atom, by MIME essence (parameters ignored,
 * any case), or null for anything else.
 *
 * @example
 * ```ts
 * feedType('Application/RSS+XML; charset=utf-8'); // 'rss'
 * ```
 */
export function feedType(type: string | undefined): 'rss' | 'atom' | null {
  const essence = trimAscii((type ?? '').split(';')[0] ?? '').toLowerCase();
  if (essence === 'application/rss+xml') return 'rss';
  if (essence === 'application/atom+xml') return 'atom';
  return null;
}
