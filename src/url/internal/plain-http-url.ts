// A shortcut past the WHATWG URL parser for the URLs nearly every sitemap and page holds:
// http(s), a lower-case host name or dotted-quad IPv4 address, an optional port that is not
// the default, and path, query and fragment in characters the parser leaves as they are.
// For such a URL the parser's pieces are plain slices of the input, so they are taken
// without parsing. Anything else (upper case, user info, IPv6, `xn--` labels, a host ending
// in a number, `.` and `..` segments or `%2e`, `\`, whitespace, controls, non-ASCII, ...)
// gets null, and the caller asks the parser. A differential property test holds every
// answer given here to the parser's. Regular expressions, not a loop over characters: V8
// runs them as native code, several times as fast as charCodeAt per character here.

import { ownCopy } from '../../shared/own-copy.ts';

/** One IPv4 number in the parser's form: 0-255, no leading zero. */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/**
 * A host the parser keeps as written: lower-case labels, none empty, the last starting with
 * a letter (else it reads an IPv4 number), or a dotted quad. Then a port without a leading
 * zero (its value is checked after).
 */
const AUTHORITY = `(?:(?:(?!xn--)[a-z0-9-]+\\.)*(?!xn--)[a-z][a-z0-9-]*|(?:${OCTET}\\.){3}${OCTET})(?::[1-9]\\d{0,4})?`;
/** Not a `.` or `..` segment, which the parser would resolve. */
const NOT_DOTS = '(?!\\.\\.?(?:[/?#]|$))';
/** A segment's characters: RFC 3986 pchar (escapes of dots are ruled out by {@link noEscapedDot}). */
const SEGMENT = "[\\w\\-.~!$&'()*+,;=:@%]*";
const PATH = `(?:/${NOT_DOTS}${SEGMENT})*`;
/** The query: as a path, less `'` (escaped in a special URL's query), plus `?`. */
const QUERY = '(?:\\?[\\w\\-.~!$&()*+,;=:@%/?]*)?';
const PLAIN_FRAGMENT = "(?:#[\\w\\-.~!$&'()*+,;=:@%/?]*)?";
/** Nothing after `#` changes the other pieces, and nothing there fails the parse. */
const ANY_FRAGMENT = '(?:#[^]*)?';

const PLAIN_HREF = new RegExp(`^https?://${AUTHORITY}${PATH}${QUERY}${PLAIN_FRAGMENT}$`);
const PLAIN_URL = new RegExp(`^https?://${AUTHORITY}${PATH}${QUERY}${ANY_FRAGMENT}$`);
/** A relative path (not from `/`, not starting with a scheme), query and fragment. */
const PLAIN_RELATIVE = new RegExp(
  `^(?![^/?#]*:)${NOT_DOTS}${SEGMENT}${PATH}${QUERY}${ANY_FRAGMENT}$`,
);
const PLAIN_QUERY = new RegExp(`^${QUERY}${ANY_FRAGMENT}$`);
/** A path from `/` (not `//`), query and fragment. */
const PLAIN_RELATIVE_FROM_ROOT = new RegExp(`^(?!//)${PATH}${QUERY}${ANY_FRAGMENT}$`);
/**
 * True unless `s` holds `%2e` (in any case), which the parser would take for a dot in a
 * segment. Anywhere in the URL: one in the query just costs a parse.
 */
function noEscapedDot(s: string): boolean {
  return !s.includes('%2') || !/%2e/i.test(s);
}

/** The pieces of an http(s) URL as the WHATWG parser gives them, without the fragment. */
export interface PlainHttpUrl {
  /** `url.protocol + '//' + url.host`. */
  readonly origin: string;
  /** `url.host`: the host and a port that is not the default. */
  readonly host: string;
  /** `url.pathname`, never empty. */
  readonly pathname: string;
  /** `url.search`: `''` for no query and for a bare `?`. */
  readonly search: string;
}

/** Offsets into the input found by the last {@link findPieces}. */
let schemeEnd = 0;
let authorityEnd = 0;
let pathEnd = 0;
let queryEnd = 0;

/**
 * Where the pieces of `s` (already matched by one of the expressions above) end, from
 * `from` (past `scheme://`, or 0 for a relative reference); false for a port the parser
 * would drop (the default) or refuse (over 65535).
 */
function findPieces(s: string, from: number, https: boolean): boolean {
  const hash = s.indexOf('#', from);
  queryEnd = hash < 0 ? s.length : hash;
  const question = s.indexOf('?', from);
  pathEnd = question < 0 || question > queryEnd ? queryEnd : question;
  if (from === 0) return true;
  schemeEnd = from;
  const slash = s.indexOf('/', from);
  authorityEnd = slash < 0 || slash > pathEnd ? pathEnd : slash;
  const colon = s.indexOf(':', from);
  if (colon < 0 || colon > authorityEnd) return true;
  let port = 0;
  for (let i = colon + 1; i < authorityEnd; i++) port = port * 10 + s.charCodeAt(i) - 0x30;
  return port <= 65535 && port !== (https ? 443 : 80);
}

/** True when `s` matched an absolute expression and its pieces are found. */
function absolute(s: string): boolean {
  const https = s.charCodeAt(4) === 0x73; /* s */
  return findPieces(s, https ? 8 : 7, https);
}

/**
 * `new URL(text).href` and `.host` when `text` is a plain absolute http(s) URL (see the top
 * of this file), else null: the caller then asks the parser.
 *
 * @example
 * ```ts
 * plainHref('https://example.com'); // { href: 'https://example.com/', host: 'example.com' }
 * plainHref('HTTPS://example.com/'); // null (the parser would lower-case it)
 * ```
 */
export function plainHref(text: string): { href: string; host: string } | null {
  if (!PLAIN_HREF.test(text) || !noEscapedDot(text) || !absolute(text)) return null;
  const host = text.slice(schemeEnd, authorityEnd);
  if (pathEnd > authorityEnd) return { href: text, host };
  return { href: `${text.slice(0, authorityEnd)}/${text.slice(authorityEnd)}`, host };
}

/**
 * {@link plainHref}'s href alone, without the pair object (a sitemap reader checks millions);
 * {@link lastPlainHost} gives its host, until the next call of anything in this module.
 * Kept apart from plainHref (not built on it or it on this) so that plainHref, which the
 * robots engine bundles for the report page, stays as it was; the differential test holds
 * both to the parser.
 */
export function plainHrefOnly(text: string): string | null {
  const known = current.expression.test(text) ? current : otherMatching(text);
  if (known !== null) {
    if (!noEscapedDot(text)) return null;
    schemeEnd = known.schemeEnd;
    authorityEnd = known.authorityEnd;
    return text;
  }
  if (!PLAIN_HREF.test(text) || !noEscapedDot(text) || !absolute(text)) return null;
  if (pathEnd > authorityEnd) {
    rememberAuthority(text);
    return text;
  }
  return `${text.slice(0, authorityEnd)}/${text.slice(authorityEnd)}`;
}

/**
 * {@link PLAIN_HREF} for one authority spelled out (`^https://example\.com(?=/)...`), and
 * where that authority ends: the URLs of a sitemap are nearly all on one authority, and a
 * literal prefix is matched at memory speed where the host's expression steps through its
 * labels.
 */
interface AuthorityHref {
  readonly expression: RegExp;
  readonly schemeEnd: number;
  readonly authorityEnd: number;
}

const NEVER: AuthorityHref = { expression: /(?!)/, schemeEnd: 0, authorityEnd: 0 };
/** The authority tried first: the last one a URL matched. */
let current = NEVER;
/** Other authorities compiled before, most recent first (a sitemap of a few hosts). */
const others: AuthorityHref[] = [];
const MAX_OTHERS = 3;
/**
 * Plain URLs read the long way in a row on one authority before it gets an expression of its
 * own. Compiling one costs about as much as checking a few hundred URLs the long way, so an
 * authority must show it is not a passing one: URLs whose hosts keep changing never compile.
 */
export const COMPILE_AFTER = 256;
/** The authority of the last plain URL read the long way, and how many in a row were on it. */
let candidate = '';
let candidateRun = 0;

/** The other compiled authority that `text` is on, made current; null when none is. */
function otherMatching(text: string): AuthorityHref | null {
  for (let i = 0; i < others.length; i++) {
    const other = others[i] as AuthorityHref;
    if (!other.expression.test(text)) continue;
    others.splice(i, 1);
    if (current !== NEVER) others.unshift(current);
    current = other;
    return other;
  }
  return null;
}

/** After `text` passed {@link PLAIN_HREF} with a path (its pieces just found). */
function rememberAuthority(text: string): void {
  if (authorityEnd !== candidate.length || !text.startsWith(candidate)) {
    candidate = ownCopy(text.slice(0, authorityEnd));
    candidateRun = 1;
    return;
  }
  if (++candidateRun < COMPILE_AFTER) return;
  if (current !== NEVER) {
    others.unshift(current);
    if (others.length > MAX_OTHERS) others.pop();
  }
  current = {
    expression: new RegExp(
      `^${candidate.replaceAll('.', '\\.')}(?=/)${PATH}${QUERY}${PLAIN_FRAGMENT}$`,
    ),
    schemeEnd,
    authorityEnd,
  };
  candidate = '';
  candidateRun = 0;
}

/**
 * The host of the URL {@link plainHrefOnly} just accepted (`new URL(text).host`), sliced
 * from `href`: its result, or any string that starts the same (a copy of it). Only offsets
 * are remembered, so no input string is kept alive here.
 */
export function lastPlainHost(href: string): string {
  return href.slice(schemeEnd, authorityEnd);
}

/** The last base read, and its pieces: a page's links all share one. */
let lastBase: string | null = null;
let lastBaseUrl: PlainHttpUrl | null = null;

/**
 * The WHATWG parser's pieces of `input` (resolved against `base`) when both are plain, else
 * null: the caller then asks the parser. Relative forms: `''`, `#...`, `?...`, `//host...`,
 * `/path...` and `path...`, without `.` or `..` segments.
 *
 * @example
 * ```ts
 * plainHttpUrl('b?x=1#top', 'https://example.com/a/c');
 * // { origin: 'https://example.com', host: 'example.com', pathname: '/a/b', search: '?x=1' }
 * plainHttpUrl('../b', 'https://example.com/a/c'); // null (a dot segment: the parser resolves it)
 * ```
 */
export function plainHttpUrl(input: string, base?: string | URL): PlainHttpUrl | null {
  if (base === undefined) return absolutePieces(input);
  const baseText = typeof base === 'string' ? base : base.href;
  if (baseText !== lastBase) {
    lastBase = baseText;
    lastBaseUrl = absolutePieces(baseText);
  }
  const baseUrl = lastBaseUrl;
  // A base that does not parse fails the parse whatever the input.
  if (baseUrl === null) return null;
  const first = input.length === 0 ? 0x23 : input.charCodeAt(0);
  if (first === 0x23 /* # */) return baseUrl;
  if (first === 0x3f /* ? */) {
    if (!PLAIN_QUERY.test(input)) return null;
    findPieces(input, 0, false);
    return { ...baseUrl, search: queryEnd > 1 ? input.slice(0, queryEnd) : '' };
  }
  if (first === 0x2f /* / */) {
    if (input.charCodeAt(1) === 0x2f) {
      return absolutePieces(baseUrl.origin.slice(0, baseUrl.origin.indexOf(':') + 1) + input);
    }
    if (!PLAIN_RELATIVE_FROM_ROOT.test(input) || !noEscapedDot(input)) return null;
    findPieces(input, 0, false);
    return withPath(baseUrl, input, '');
  }
  if (input.startsWith('http://') || input.startsWith('https://')) return absolutePieces(input);
  if (!PLAIN_RELATIVE.test(input) || !noEscapedDot(input)) return null;
  findPieces(input, 0, false);
  return withPath(baseUrl, input, baseUrl.pathname.slice(0, baseUrl.pathname.lastIndexOf('/') + 1));
}

/** `base` with the path and query of `input` (just read by {@link findPieces}) after `directory`. */
function withPath(base: PlainHttpUrl, input: string, directory: string): PlainHttpUrl {
  return {
    origin: base.origin,
    host: base.host,
    pathname: directory + input.slice(0, pathEnd),
    search: queryEnd - pathEnd > 1 ? input.slice(pathEnd, queryEnd) : '',
  };
}

/** The pieces of a plain absolute URL, or null. */
function absolutePieces(s: string): PlainHttpUrl | null {
  if (!PLAIN_URL.test(s) || !noEscapedDot(s) || !absolute(s)) return null;
  return {
    origin: s.slice(0, authorityEnd),
    host: s.slice(schemeEnd, authorityEnd),
    pathname: pathEnd > authorityEnd ? s.slice(authorityEnd, pathEnd) : '/',
    search: queryEnd - pathEnd > 1 ? s.slice(pathEnd, queryEnd) : '',
  };
}
