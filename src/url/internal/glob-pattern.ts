import { normalizePercent } from './percent.ts';

// Characters WHATWG percent-encodes in a path that mean nothing to picomatch: C0 controls,
// space, `"`, `#`, `<`, `>`, `` ` ``, DEL and everything non-ASCII. `?`, `{`, `}` and `^`
// are also encoded in paths but are glob syntax, so a pattern writes them as `%3F` etc.
const ENCODED_IN_PATHS = /[\0-\x20"#<>`\x7f-\uffff]+/g;
const utf8 = new TextEncoder();

/**
 * A path glob rewritten to match paths as {@link normalizePath} leaves them: `/café/**`
 * becomes `/caf%C3%A9/**` and escapes take their normal form. Anchoring follows
 * `.gitignore`: a pattern without any `/` (`*.pdf`) matches the last segment at any depth
 * (picomatch's own `basename` option would do this but, in v4, also breaks patterns that
 * have slashes); one with a `/` is anchored at the root, whether or not it starts with one
 * (`docs/*` is `/docs/*`); one starting with `**` is left as it is.
 *
 * @example
 * ```ts
 * pathPattern('/café/**'); // '/caf%C3%A9/**'
 * pathPattern('docs/*'); // '/docs/*'
 * pathPattern('*.pdf'); // '** /*.pdf' (without the space)
 * ```
 */
export function pathPattern(glob: string): string {
  const pattern = normalizePercent(glob.replace(ENCODED_IN_PATHS, encodeUtf8));
  if (pattern.startsWith('/') || pattern.startsWith('**')) return pattern;
  return pattern.includes('/') ? `/${pattern}` : `**/${pattern}`;
}

/** `%XX` for each UTF-8 byte; TextEncoder turns a lone surrogate into U+FFFD as WHATWG does. */
function encodeUtf8(text: string): string {
  let out = '';
  for (const byte of utf8.encode(text)) {
    out += `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
  }
  return out;
}
