import type { RobotsGroup } from '../types.ts';
import { type CompiledPattern, compilePattern, matchesPattern } from './compiled-pattern.ts';
import { indexHtmlAlternate, type RuleMatch } from './rule-match.ts';

/** A rule ready to match: its priority is its pattern's length, as in Google's matcher. */
export interface CompiledRule extends RuleMatch {
  readonly priority: number;
  readonly compiled: CompiledPattern;
}

/** The rules of `groups[indices]`, compiled, each `Allow: .../index.html` with its alternate. */
export function compileRules(
  groups: readonly RobotsGroup[],
  indices: readonly number[],
): CompiledRule[] {
  const rules: CompiledRule[] = [];
  for (const index of indices) {
    for (const rule of (groups[index] as RobotsGroup).rules) {
      // An empty pattern matches with priority 0, which never decides anything.
      if (rule.pattern.length === 0) continue;
      const allow = rule.directive === 'allow';
      rules.push({
        rule,
        group: index,
        allow,
        priority: rule.pattern.length,
        compiled: compilePattern(rule.pattern),
      });
      const alternate = allow ? indexHtmlAlternate(rule.pattern) : null;
      if (alternate !== null) {
        rules.push({
          rule,
          group: index,
          allow,
          priority: alternate.length,
          compiled: compilePattern(alternate),
        });
      }
    }
  }
  return rules;
}

function byPrecedence(a: CompiledRule, b: CompiledRule): number {
  return b.priority - a.priority || Number(b.allow) - Number(a.allow) || a.rule.line - b.rule.line;
}

/** A trie node with fewer rules than this is a plain list: scanning a few rules is cheapest. */
const SPLIT_FROM = 8;
/** How far one node may skip or the trie go; heads alike for longer share one list. */
const MAX_DEPTH = 64;

/**
 * Rules in precedence order (longest pattern, then Allow before Disallow, then earliest
 * line), arranged as a trie on their literal heads: a rule can only match a path that starts
 * with its head, so a check walks the path's characters down the trie and tries only the
 * rules it passes. Real files have tens of thousands of rules (docs.oracle.com: 31,843); a
 * check then costs a short walk, not a match per rule. Chains with one branch are skipped (a
 * node branches at the first character where its heads differ); that is safe because every
 * rule still checks its whole head itself.
 */
export interface RuleList {
  /** Rules whose head ends before `depth` (or all of them, in a small node). */
  readonly here: readonly CompiledRule[];
  /** The character position this node branches on. */
  readonly depth: number;
  /** Rules whose head continues, by the head's (ASCII) character at `depth`. */
  readonly next: readonly (RuleList | undefined)[] | null;
}

export function ruleList(rules: CompiledRule[], depth = 0): RuleList {
  rules.sort(byPrecedence);
  if (rules.length < SPLIT_FROM || depth >= MAX_DEPTH) return { here: rules, depth, next: null };
  const here: CompiledRule[] = [];
  const groups = new Map<number, CompiledRule[]>();
  for (const rule of rules) {
    const head = rule.compiled.head;
    if (head.length <= depth) {
      here.push(rule);
      continue;
    }
    const c = head.charCodeAt(depth);
    const group = groups.get(c);
    if (group === undefined) groups.set(c, [rule]);
    else group.push(rule);
  }
  // Heads are percent-normalised, so pure ASCII: 128 slots index every branch.
  const next: (RuleList | undefined)[] = new Array(128);
  for (const [c, group] of groups) next[c] = ruleList(group, sharedPrefixLength(group, depth + 1));
  return { here, depth, next };
}

/** Where the heads of `rules`, equal before `from`, first differ (or the shortest ends). */
function sharedPrefixLength(rules: readonly CompiledRule[], from: number): number {
  const first = (rules[0] as CompiledRule).compiled.head;
  let end = Math.min(first.length, from + MAX_DEPTH);
  for (const rule of rules) {
    const head = rule.compiled.head;
    let i = from;
    const limit = Math.min(end, head.length);
    while (i < limit && head.charCodeAt(i) === first.charCodeAt(i)) i++;
    end = i;
    if (end === from) break;
  }
  return end;
}

/** The first rule of `list` in precedence order that matches `path`, or null. */
export function firstMatch(list: RuleList, path: string): CompiledRule | null {
  let best: CompiledRule | null = null;
  let node: RuleList | undefined = list;
  while (node !== undefined) {
    for (const rule of node.here) {
      // Each list is in precedence order: once a rule ranks below the best, so do the rest.
      if (best !== null && byPrecedence(rule, best) > 0) break;
      if (matchesPattern(rule.compiled, path)) {
        best = rule;
        break;
      }
    }
    if (node.next === null || node.depth >= path.length) break;
    node = node.next[path.charCodeAt(node.depth)];
  }
  return best;
}
