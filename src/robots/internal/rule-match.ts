import type { RobotsGroup, RobotsRule } from '../types.ts';

/** The rule that decides a check, and the group it was written in. */
export interface RuleMatch {
  readonly rule: RobotsRule;
  readonly group: number;
  readonly allow: boolean;
}

/**
 * Google treats `Allow: /dir/index.html` (or `.htm`) as also allowing `/dir/` itself: when
 * the pattern does not match, it retries with `/dir/$`. A separate rule with that pattern's
 * own priority has the same effect, because the original always outranks it.
 */
export function indexHtmlAlternate(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return null;
  return `${pattern.slice(0, slash + 1)}$`;
}

/**
 * The rule of `groups[indices]` that decides `path`, found by trying each rule once, with no
 * set-up: what a file asked only a few questions should cost. The winner is the matching rule
 * with the longest pattern, Allow before Disallow on a tie, then the earliest line; rules come
 * in line order, so a later rule wins only when strictly better. A rule that cannot beat the
 * best so far is not matched at all, and no pattern is compiled.
 */
export function scanForMatch(
  groups: readonly RobotsGroup[],
  indices: readonly number[],
  path: string,
): RuleMatch | null {
  let best: RobotsRule | null = null;
  let bestGroup = -1;
  let bestPriority = 0;
  let bestAllow = false;
  for (const index of indices) {
    const rules = (groups[index] as RobotsGroup).rules;
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r] as RobotsRule;
      const pattern = rule.pattern;
      const priority = pattern.length;
      const allow = rule.directive === 'allow';
      // An empty pattern has priority 0, which never decides anything.
      if (priority === 0) continue;
      if (priority < bestPriority || (priority === bestPriority && (bestAllow || !allow))) continue;
      if (matchesRaw(pattern, path)) {
        best = rule;
        bestGroup = index;
        bestPriority = priority;
        bestAllow = allow;
        continue;
      }
      if (!allow) continue;
      const slash = pattern.lastIndexOf('/');
      if (slash < 0 || !pattern.startsWith('/index.htm', slash)) continue;
      const alternatePriority = slash + 2;
      if (alternatePriority < bestPriority || (alternatePriority === bestPriority && bestAllow)) {
        continue;
      }
      if (matchesRaw(`${pattern.slice(0, slash + 1)}$`, path)) {
        best = rule;
        bestGroup = index;
        bestPriority = alternatePriority;
        bestAllow = true;
      }
    }
  }
  return best === null ? null : { rule: best, group: bestGroup, allow: bestAllow };
}

/**
 * `matchesPattern(compilePattern(pattern), path)`, without compiling: the literal head is
 * compared char by char (which rejects nearly every rule of a check), then each literal
 * segment between `*`s is found with a native `indexOf`, leftmost first, as the compiled
 * matcher does (see compiled-pattern.ts for why leftmost is enough). Linear in the path.
 */
export function matchesRaw(pattern: string, path: string): boolean {
  const length = pattern.length;
  const anchored = pattern.charCodeAt(length - 1) === 0x24;
  const bodyEnd = anchored ? length - 1 : length;
  for (let i = 0; i < bodyEnd; i++) {
    if (i === CHARS_COMPARED) return matchesLongHead(pattern, bodyEnd, anchored, path);
    const c = pattern.charCodeAt(i);
    if (c === 0x2a) return matchesAfterStar(pattern, bodyEnd, anchored, path, i);
    if (path.charCodeAt(i) !== c) return false;
  }
  return !anchored || path.length === bodyEnd;
}

/** Head chars compared one by one; a head that still fits after them is compared natively. */
const CHARS_COMPARED = 16;

/** {@link matchesRaw} once the first {@link CHARS_COMPARED} chars have matched. */
function matchesLongHead(
  pattern: string,
  bodyEnd: number,
  anchored: boolean,
  path: string,
): boolean {
  const star = pattern.indexOf('*', CHARS_COMPARED);
  if (star < 0 || star >= bodyEnd) {
    if (anchored) return path.length === bodyEnd && pattern.startsWith(path);
    return path.startsWith(pattern);
  }
  if (!path.startsWith(pattern.slice(CHARS_COMPARED, star), CHARS_COMPARED)) return false;
  return matchesAfterStar(pattern, bodyEnd, anchored, path, star);
}

/** The rest of a wildcard pattern, from its first `*` (at `star`), whose head has matched. */
function matchesAfterStar(
  pattern: string,
  bodyEnd: number,
  anchored: boolean,
  path: string,
  star: number,
): boolean {
  let cursor = star;
  let from = star + 1;
  for (;;) {
    const next = pattern.indexOf('*', from);
    if (next < 0 || next >= bodyEnd) {
      const tail = pattern.slice(from, bodyEnd);
      if (anchored) return path.length - tail.length >= cursor && path.endsWith(tail);
      return tail.length === 0 || path.indexOf(tail, cursor) >= 0;
    }
    if (next > from) {
      const segment = pattern.slice(from, next);
      const at = path.indexOf(segment, cursor);
      if (at < 0) return false;
      cursor = at + segment.length;
    }
    from = next + 1;
  }
}
