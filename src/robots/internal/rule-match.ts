import type { RobotsRule } from '../types.ts';
import { type GroupHead, RULE_FIELDS, type RuleStore } from './rule-store.ts';

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
 * The rule of `store`'s groups `indices` that decides `path` (its index in the store), or -1,
 * found by trying each rule once, with no set-up: what a file asked only a few questions
 * should cost. The winner is the matching rule with the longest pattern, Allow before
 * Disallow on a tie, then the earliest line; rules come in line order, so a later rule wins
 * only when strictly better. A rule that cannot beat the best so far is not matched at all;
 * a pattern kept as offsets into the file is compared there, char by char, and made a string
 * only when its head fits the path. Nothing is compiled.
 */
export function scanStore(store: RuleStore, indices: readonly number[], path: string): number {
  const { data, text, patterns, heads } = store;
  let best = -1;
  let bestPriority = 0;
  let bestAllow = false;
  for (const index of indices) {
    const head = heads[index] as GroupHead;
    for (let rule = head.ruleFrom; rule < head.ruleTo; rule++) {
      const at = rule * RULE_FIELDS;
      if ((data[at + 1] as number) < -1) {
        // A value still to be percent-normalised: most are told apart from the path by
        // their literal head, which normalising leaves as it is.
        const from = data[at] as number;
        if (headRejects(text, from, -2 - (data[at + 1] as number), path, data[at + 3] === 1)) {
          continue;
        }
        store.normalise(rule);
      }
      const start = data[at] as number;
      const end = data[at + 1] as number;
      const allow = data[at + 3] === 1;
      const inText = end >= 0;
      const priority = inText ? end - start : (patterns[start] as string).length;
      // An empty pattern has priority 0, which never decides anything.
      if (priority === 0) continue;
      if (priority < bestPriority || (priority === bestPriority && (bestAllow || !allow))) continue;
      if (
        inText ? matchesInText(text, start, end, path) : matchesRaw(patterns[start] as string, path)
      ) {
        best = rule;
        bestPriority = priority;
        bestAllow = allow;
        continue;
      }
      if (!allow) continue;
      const pattern = inText ? null : (patterns[start] as string);
      const slash = pattern === null ? text.lastIndexOf('/', end - 1) : pattern.lastIndexOf('/');
      const from = pattern === null ? start : 0;
      // `/index.htm` must lie within the pattern.
      if (slash < from || slash + 10 > from + priority) continue;
      if (!(pattern ?? text).startsWith('/index.htm', slash)) continue;
      const alternatePriority = slash - from + 2;
      if (alternatePriority < bestPriority || (alternatePriority === bestPriority && bestAllow)) {
        continue;
      }
      if (matchesRaw(`${(pattern ?? text).slice(from, slash + 1)}$`, path)) {
        best = rule;
        bestPriority = alternatePriority;
        bestAllow = true;
      }
    }
  }
  return best;
}

/**
 * True when the rule whose raw value is `text[start, end)` can match `path` neither itself
 * nor, for an Allow rule, through its index.html alternate, decided on the value's literal
 * head: the chars before its first `%`, non-ASCII char (bytes too), `*` or `$`, which
 * percent-normalising keeps in place. A head char that differs from the path's char there
 * rules out the pattern and any prefix of it ending at a later `/`, and the alternate too
 * (the alternate is a prefix of the pattern ending at a `/`, plus `$`: it needs the path to
 * end there, while the path goes on past the head char). A path that ends inside the head
 * rules out the pattern but not an alternate, so only Disallow rules are rejected then.
 */
function headRejects(
  text: string,
  start: number,
  end: number,
  path: string,
  allow: boolean,
): boolean {
  const length = path.length;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 || c >= 0x80 || c === 0x2a || c === 0x24) return false;
    const at = i - start;
    if (at >= length) return !allow;
    if (path.charCodeAt(at) !== c) return true;
  }
  return false;
}

/**
 * {@link matchesRaw} for the pattern `text[start, end)`, read in place: the literal head is
 * compared there, and only a head that fits up to a `*` or past its first
 * {@link CHARS_COMPARED} chars is made a string and matched whole.
 */
function matchesInText(text: string, start: number, end: number, path: string): boolean {
  const anchored = text.charCodeAt(end - 1) === 0x24;
  const bodyEnd = anchored ? end - 1 : end;
  const headEnd = Math.min(bodyEnd, start + CHARS_COMPARED);
  for (let i = start; i < headEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2a) return matchesRaw(text.slice(start, end), path);
    if (path.charCodeAt(i - start) !== c) return false;
  }
  if (headEnd < bodyEnd) return matchesRaw(text.slice(start, end), path);
  return !anchored || path.length === bodyEnd - start;
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
