/**
 * A path pattern compiled once at parse time. `*` matches any run of characters and a final
 * `$` anchors the end; every other character, `$` elsewhere included, is literal. Matching
 * is anchored at the start of the path and is a prefix match otherwise.
 *
 * Written by hand rather than as a RegExp: a pattern is a chain of literal segments, and
 * taking each segment's leftmost occurrence is always enough for such a chain (a later
 * occurrence never leaves more room for the segments after it). That makes a match a few
 * native `indexOf` calls, linear in the path, with no backtracking however many `*` a
 * hostile file stacks up, and no allocation per check.
 */
export interface CompiledPattern {
  /** Literal text before the first `*` (the whole pattern when it has none). */
  readonly head: string;
  /** Literal segments between `*`s, empty ones dropped. */
  readonly middle: readonly string[];
  /** Literal text after the last `*`; null when the pattern has no `*`. */
  readonly tail: string | null;
  /** The pattern ended with `$`. */
  readonly anchored: boolean;
}

const NONE: readonly string[] = [];

export function compilePattern(pattern: string): CompiledPattern {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  if (!body.includes('*')) return { head: body, middle: NONE, tail: null, anchored };
  const parts = body.split('*');
  const head = parts[0] as string;
  if (parts.length === 1) return { head, middle: [], tail: null, anchored };
  const tail = parts[parts.length - 1] as string;
  const middle = parts.slice(1, -1).filter((part) => part.length > 0);
  return { head, middle, tail, anchored };
}

export function matchesPattern(p: CompiledPattern, path: string): boolean {
  if (p.tail === null) return p.anchored ? path === p.head : path.startsWith(p.head);
  if (!path.startsWith(p.head)) return false;
  let cursor = p.head.length;
  for (const segment of p.middle) {
    const at = path.indexOf(segment, cursor);
    if (at < 0) return false;
    cursor = at + segment.length;
  }
  if (p.anchored) return path.length - p.tail.length >= cursor && path.endsWith(p.tail);
  return p.tail.length === 0 || path.indexOf(p.tail, cursor) >= 0;
}
