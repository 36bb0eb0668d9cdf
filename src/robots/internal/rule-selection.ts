import type { UsagePreference } from '../types.ts';
import { type CompiledPattern, compilePattern, matchesPattern } from './compiled-pattern.ts';
import { type RuleMatch, scanStore } from './rule-match.ts';
import { type GroupHead, RULE_FIELDS, type RuleStore } from './rule-store.ts';
import { compileRules, firstMatch, type RuleList, ruleList } from './rule-trie.ts';
import { isGlobalUserAgent, productToken } from './user-agent.ts';

/** How a group's user-agent lines select it: their product tokens (as written), and `*`. */
export interface GroupAgents {
  readonly tokens: readonly string[];
  readonly global: boolean;
}

export function groupAgents(group: { readonly userAgents: readonly string[] }): GroupAgents {
  const tokens: string[] = [];
  let global = false;
  for (const ua of group.userAgents) {
    if (isGlobalUserAgent(ua)) global = true;
    else tokens.push(productToken(ua));
  }
  return { tokens, global };
}

/**
 * `token.toLowerCase() === wanted`: a product token is ASCII letters, `-` and `_`, so folding
 * its ASCII capitals is all lower-casing does to it, and no string is made.
 */
function isToken(token: string, wanted: string): boolean {
  if (token.length !== wanted.length) return false;
  for (let i = 0; i < token.length; i++) {
    let c = token.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== wanted.charCodeAt(i)) return false;
  }
  return true;
}

function namesToken(agents: GroupAgents, wanted: string): boolean {
  for (const token of agents.tokens) if (isToken(token, wanted)) return true;
  return false;
}

/** A usage line ready to match: priority is its path's length (0 without a path). */
export interface CompiledUsage {
  readonly usage: UsagePreference;
  readonly priority: number;
  /** Null when the line has no path and covers every path. */
  readonly compiled: CompiledPattern | null;
}

/**
 * Checks a selection answers by trying every rule before it builds its trie: a file parsed
 * for one check (a crawler meeting a host) then never pays for sorting and compiling rules.
 */
const SCANS_BEFORE_TRIE = 4;
/** Rules from which a selection builds its trie on the second check already. */
const LONG_LIST = 64;

/**
 * The groups that decide for one product token: every group naming it (duplicate groups are
 * merged), or when none does, every `*` group. Rules are matched in precedence order: longest
 * pattern, then Allow before Disallow (ties go to Allow), then earliest line.
 *
 * `userAgent` is compared whole, case-insensitively, with each group's product tokens, as
 * Google compares it: `Foo Bar` or `AB42bot` do not select a `Foo` or `AB42bot` group
 * (whose token reads as `Foo` and `AB`). Google's spec tests pin this.
 */
export class RuleSelection {
  /** Indices of the deciding groups, in file order. */
  readonly groups: readonly number[];
  /** First deciding group, or -1 when no group applies. */
  readonly group: number;
  /** First `Crawl-delay` of the deciding groups, or null. */
  readonly crawlDelay: number | null;

  readonly #store: RuleStore;
  #scans = 0;
  readonly #scansBeforeTrie: number;
  #trie: RuleList | null = null;
  #usage: CompiledUsage[] | null = null;

  constructor(store: RuleStore, userAgent: string) {
    const agents = store.heads;
    const wanted = userAgent.toLowerCase();
    const specific: number[] = [];
    const global: number[] = [];
    for (let index = 0; index < agents.length; index++) {
      const agent = agents[index] as GroupAgents;
      if (namesToken(agent, wanted)) specific.push(index);
      else if (agent.global) global.push(index);
    }
    this.#store = store;
    this.groups = specific.length > 0 ? specific : global;
    this.group = this.groups[0] ?? -1;
    let crawlDelay: number | null = null;
    let rules = 0;
    for (const index of this.groups) {
      const head = store.heads[index] as GroupHead;
      crawlDelay ??= head.crawlDelay;
      rules += head.ruleTo - head.ruleFrom;
    }
    // A long list costs more to scan again than to sort once: only its first check scans.
    this.#scansBeforeTrie = rules > LONG_LIST ? 1 : SCANS_BEFORE_TRIE;
    this.crawlDelay = crawlDelay;
  }

  /** The built matcher, once there is one: callers on the hot path call firstMatch on it. */
  get trie(): RuleList | null {
    return this.#trie;
  }

  /** The rule that decides `path`, or null when none matches. */
  match(path: string): RuleMatch | null {
    const trie = this.#trie;
    if (trie !== null) return firstMatch(trie, path);
    if (this.#scans >= this.#scansBeforeTrie) return firstMatch(this.#buildTrie(), path);
    this.#scans++;
    const rule = scanStore(this.#store, this.groups, path);
    if (rule < 0) return null;
    const group = this.#store.groupOf(rule, this.groups);
    const allow = this.#store.data[rule * RULE_FIELDS + 3] === 1;
    return { rule: this.#store.rule(rule, group), group, allow };
  }

  /** Whether `path` may be crawled, before the trie is built (then as {@link match}). */
  allows(path: string): boolean {
    if (this.#scans >= this.#scansBeforeTrie) {
      const rule = firstMatch(this.#trie ?? this.#buildTrie(), path);
      return rule === null || rule.allow;
    }
    this.#scans++;
    const rule = scanStore(this.#store, this.groups, path);
    return rule < 0 || this.#store.data[rule * RULE_FIELDS + 3] === 1;
  }

  #buildTrie(): RuleList {
    this.#trie = ruleList(compileRules(this.#store.groups(), this.groups));
    return this.#trie;
  }

  /** The usage lines of the deciding groups that apply to `path` (see {@link matchingUsage}). */
  usage(path: string): UsagePreference[] {
    if (this.#usage === null) {
      const lines: CompiledUsage[] = [];
      for (const index of this.groups) {
        for (const usage of (this.#store.heads[index] as GroupHead).usage) {
          lines.push({
            usage,
            priority: usage.path?.length ?? 0,
            compiled: usage.path === null ? null : compilePattern(usage.path),
          });
        }
      }
      this.#usage = lines;
    }
    return matchingUsage(this.#usage, path);
  }
}

/**
 * The usage lines that apply to `path`, per field: those whose path matches with the
 * greatest length (draft-ietf-aipref-attach-05 section 3.1: the same longest-match rule as
 * Allow and Disallow); lines that tie all apply. In file order.
 */
export function matchingUsage(lines: readonly CompiledUsage[], path: string): UsagePreference[] {
  if (lines.length === 0) return [];
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
