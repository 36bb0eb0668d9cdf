import type { RobotsGroup, RobotsRule, UsagePreference } from '../types.ts';
import { type CompiledPattern, compilePattern, matchesPattern } from './compiled-pattern.ts';
import { isGlobalUserAgent, productToken } from './user-agent.ts';

/** A rule ready to match: its priority is its pattern's length, as in Google's matcher. */
export interface CompiledRule {
  readonly rule: RobotsRule;
  readonly group: number;
  readonly allow: boolean;
  readonly priority: number;
  readonly compiled: CompiledPattern;
}

/**
 * The rules that apply to one product token, best first: longest pattern, then Allow before
 * Disallow (ties go to Allow), then earliest line. The first rule that matches decides.
 */
export interface RuleSelection {
  /** Rules of every group naming the token (duplicate groups are merged). */
  readonly specific: RuleList;
  /** Rules of the `*` groups; used only when no group names the token. */
  readonly global: RuleList;
  /** First group naming the token, or -1. */
  readonly specificGroup: number;
  /** First `*` group, or -1. */
  readonly globalGroup: number;
  /** First `Crawl-delay` of the groups that apply, or null. */
  readonly crawlDelay: number | null;
  /** Usage lines of the groups naming the token, then of the `*` groups. */
  readonly specificUsage: readonly CompiledUsage[];
  readonly globalUsage: readonly CompiledUsage[];
}

/** A usage line ready to match: priority is its path's length (0 without a path). */
export interface CompiledUsage {
  readonly usage: UsagePreference;
  readonly priority: number;
  /** Null when the line has no path and covers every path. */
  readonly compiled: CompiledPattern | null;
}

export interface CompiledGroup {
  readonly tokens: readonly string[];
  readonly global: boolean;
  readonly rules: readonly CompiledRule[];
  readonly crawlDelay: number | null;
  readonly usage: readonly CompiledUsage[];
}

export function compileGroups(groups: readonly RobotsGroup[]): CompiledGroup[] {
  return groups.map((group, index) => {
    const rules: CompiledRule[] = [];
    for (const rule of group.rules) {
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
    return {
      tokens: group.userAgents
        .filter((ua) => !isGlobalUserAgent(ua))
        .map((ua) => productToken(ua).toLowerCase()),
      global: group.userAgents.some(isGlobalUserAgent),
      rules,
      crawlDelay: group.crawlDelay,
      usage: group.usage.map((usage) => ({
        usage,
        priority: usage.path?.length ?? 0,
        compiled: usage.path === null ? null : compilePattern(usage.path),
      })),
    };
  });
}

/**
 * Google treats `Allow: /dir/index.html` (or `.htm`) as also allowing `/dir/` itself: when
 * the pattern does not match, it retries with `/dir/$`. A separate rule with that pattern's
 * own priority has the same effect, because the original always outranks it.
 */
function indexHtmlAlternate(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return null;
  return `${pattern.slice(0, slash + 1)}$`;
}

/**
 * `userAgent` is compared whole, case-insensitively, with each group's product tokens, as
 * Google compares it: `Foo Bar` or `AB42bot` do not select a `Foo` or `AB42bot` group
 * (whose token reads as `Foo` and `AB`). Google's spec tests pin this.
 */
export function selectRules(groups: readonly CompiledGroup[], userAgent: string): RuleSelection {
  const wanted = userAgent.toLowerCase();
  const specific: CompiledRule[] = [];
  const global: CompiledRule[] = [];
  let specificGroup = -1;
  let globalGroup = -1;
  let specificDelay: number | null = null;
  let globalDelay: number | null = null;
  const specificUsage: CompiledUsage[] = [];
  const globalUsage: CompiledUsage[] = [];
  groups.forEach((group, index) => {
    if (group.tokens.includes(wanted)) {
      if (specificGroup < 0) specificGroup = index;
      specificDelay ??= group.crawlDelay;
      specific.push(...group.rules);
      specificUsage.push(...group.usage);
    } else if (group.global) {
      if (globalGroup < 0) globalGroup = index;
      globalDelay ??= group.crawlDelay;
      global.push(...group.rules);
      globalUsage.push(...group.usage);
    }
  });
  const crawlDelay = specificGroup >= 0 ? specificDelay : globalDelay;
  return {
    specific: ruleList(specific),
    global: ruleList(global),
    specificGroup,
    globalGroup,
    crawlDelay,
    specificUsage,
    globalUsage,
  };
}

/**
 * The usage lines that apply to `path`, per field: those whose path matches with the
 * greatest length (draft-ietf-aipref-attach-05 section 3.1: the same longest-match rule as
 * Allow and Disallow); lines that tie all apply. In file order.
 */
export function matchingUsage(lines: readonly CompiledUsage[], path: string): UsagePreference[] {
  const best = new Map<string, number>();
  for (const line of lines) {
    if (line.compiled !== null && !matchesPattern(line.compiled, path)) continue;
    const field = line.usage.field;
    if (line.priority > (best.get(field) ?? -1)) best.set(field, line.priority);
  }
  if (best.size === 0) return [];
  const result: UsagePreference[] = [];
  for (const line of lines) {
    if (best.get(line.usage.field) !== line.priority) continue;
    if (line.compiled !== null && !matchesPattern(line.compiled, path)) continue;
    result.push(line.usage);
  }
  return result.sort((a, b) => a.line - b.line);
}

function byPrecedence(a: CompiledRule, b: CompiledRule): number {
  return b.priority - a.priority || Number(b.allow) - Number(a.allow) || a.rule.line - b.rule.line;
}

/** A trie node with fewer rules than this is a plain list: scanning a few rules is cheapest. */
const SPLIT_FROM = 8;
/** How far one node may skip or the trie go; heads alike for longer share one list. */
const MAX_DEPTH = 64;

/**
 * Rules in precedence order, arranged as a trie on their literal heads: a rule can only
 * match a path that starts with its head, so a check walks the path's characters down the
 * trie and tries only the rules it passes. Real files have tens of thousands of rules
 * (docs.oracle.com: 31,843); a check then costs a short walk, not a match per rule.
 * Chains with one branch are skipped (a node branches at the first character where its
 * heads differ); that is safe because every rule still checks its whole head itself.
 */
export interface RuleList {
  /** Rules whose head ends before `depth` (or all of them, in a small node). */
  readonly here: readonly CompiledRule[];
  /** The character position this node branches on. */
  readonly depth: number;
  /** Rules whose head continues, by the head's (ASCII) character at `depth`. */
  readonly next: readonly (RuleList | undefined)[] | null;
}

function ruleList(rules: CompiledRule[], depth = 0): RuleList {
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
