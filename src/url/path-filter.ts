import picomatch from 'picomatch/posix.js';
import { errorMessage } from '../shared/error-message.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { pathPattern } from './internal/glob-pattern.ts';
import { normalizePath, parseHttpUrl } from './internal/http-url.ts';

/** Which paths {@link pathFilter} lets through. Named as in the crawler's options. */
export interface PathFilterOptions {
  /** Globs a URL's path must match, any one of them; none (or `[]`) means every path. */
  readonly include?: readonly string[];
  /** Globs a URL's path must not match; an exclude wins over an include. */
  readonly exclude?: readonly string[];
}

// `dot`: a path like `/.well-known/x` is as crawlable as any; globs are not shell globs.
// `strictBrackets`: an unclosed `[`, `{` or `(` is a typo to report, not a literal.
// The posix build: matching must not depend on the OS the crawler runs on.
const GLOB_OPTIONS = { dot: true, strictBrackets: true } as const;

/**
 * A predicate over URLs from picomatch globs on the URL's path. Only the path is matched:
 * never the query, fragment or host. The path is the one {@link normalizeUrl} produces
 * (dot segments resolved, slashes collapsed, escapes normalised, non-ASCII percent-encoded),
 * and patterns are rewritten the same way, so `/café/**` matches `/caf%C3%A9/menu`.
 * Matching is case-sensitive, as paths are. Patterns anchor as in `.gitignore`: one with no
 * `/` (`*.pdf`) matches the last path segment at any depth; one with a `/` matches the whole
 * path from the root (`docs/*` is `/docs/*`); one starting with `**` matches as written.
 * An exclude wins over an include; no include (or `[]`) means every path. Anything that is
 * not an http(s) URL is rejected.
 *
 * @throws WaymarkError `invalid-argument` for a pattern that is empty or not a string,
 *   starts with `!` (use `exclude`), or that picomatch cannot compile (an unclosed bracket,
 *   brace or parenthesis), naming the pattern; and for a list that is not an array.
 *
 * @example
 * ```ts
 * const allowed = pathFilter({ include: ['/blog/**'], exclude: ['/blog/drafts/**', '*.pdf'] });
 * allowed('https://example.com/blog/2024/hello'); // true
 * allowed('https://example.com/blog/drafts/x'); // false
 * allowed('https://example.com/blog/guide.pdf?v=2'); // false
 * allowed('https://example.com/about'); // false
 * ```
 */
export function pathFilter(options: PathFilterOptions = {}): (url: string) => boolean {
  const include = compile(options.include, 'include');
  const exclude = compile(options.exclude, 'exclude');
  return (url) => {
    const parsed = parseHttpUrl(url);
    if (parsed === null) return false;
    const path = normalizePath(parsed.pathname);
    if (exclude?.(path) === true) return false;
    return include === null || include(path);
  };
}

/** One matcher for all of `globs`, or null when there are none. */
function compile(
  globs: readonly string[] | undefined,
  field: 'include' | 'exclude',
): ((path: string) => boolean) | null {
  if (globs === undefined) return null;
  if (!Array.isArray(globs)) {
    throw new WaymarkError('invalid-argument', `pathFilter ${field} must be an array of globs`);
  }
  if (globs.length === 0) return null;
  // Each glob is compiled on its own so that an error names the pattern at fault.
  const matchers = globs.map((glob: unknown) => {
    try {
      if (typeof glob !== 'string' || glob === '') throw new TypeError('not a non-empty string');
      // picomatch would read a leading `!` as "everything but"; in a list where any one
      // pattern matching is enough, that is never what was meant.
      if (glob.startsWith('!')) throw new TypeError('negated globs are not supported: use exclude');
      return picomatch(pathPattern(glob), GLOB_OPTIONS);
    } catch (error) {
      const reason = errorMessage(error);
      throw new WaymarkError(
        'invalid-argument',
        `invalid ${field} glob ${JSON.stringify(glob)}: ${reason}`,
        { cause: error },
      );
    }
  });
  const [only] = matchers;
  if (matchers.length === 1 && only !== undefined) return only;
  return (path) => matchers.some((matches) => matches(path));
}
