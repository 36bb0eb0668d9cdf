import type { RobotsGroup, RobotsRule, UsagePreference } from '../types.ts';
import { escapePattern } from './escape-pattern.ts';
import type { GroupAgents } from './rule-selection.ts';

/**
 * A group as the parser keeps it: its rules are a range of the file's {@link RuleStore}, and
 * how it is selected (its user agents' product tokens, worked out once for the warnings).
 */
export interface GroupHead extends GroupAgents {
  readonly userAgents: readonly string[];
  /** First rule of the group in the store, and one past its last. */
  readonly ruleFrom: number;
  readonly ruleTo: number;
  readonly crawlDelay: number | null;
  readonly usage: readonly UsagePreference[];
  readonly line: number;
}

/** Numbers kept per rule in {@link RuleStore.data}. */
export const RULE_FIELDS = 4;

/**
 * The rules of a file as numbers, not objects: a file of 100 rules would otherwise leave 200
 * objects (rule and pattern string) per parse for the garbage collector, most never looked
 * at (a check rejects nearly every rule on its first chars). Per rule, {@link RULE_FIELDS}
 * numbers: the pattern's start and end in `text` (or, when end is -1, the index of the
 * pattern in `patterns`: a percent-normalised one, or one cut from an over-long line), the
 * line, and 1 for Allow, 0 for Disallow. The public {@link RobotsGroup} objects are made
 * from this the first time someone asks for them.
 */
export class RuleStore {
  readonly text: string;
  readonly data: readonly number[];
  readonly patterns: readonly string[];
  readonly heads: readonly GroupHead[];
  /** Each char of `text` is one byte: how values still to be normalised are escaped. */
  readonly #bytesAsChars: boolean;
  #groups: RobotsGroup[] | null = null;

  constructor(
    text: string,
    data: readonly number[],
    patterns: readonly string[],
    heads: readonly GroupHead[],
    /** The public objects, when the store is made from them. */
    groups: RobotsGroup[] | null = null,
    bytesAsChars = false,
  ) {
    this.#bytesAsChars = bytesAsChars;
    this.text = text;
    this.data = data;
    this.patterns = patterns;
    this.heads = heads;
    this.#groups = groups;
  }

  /** The pattern of rule `rule`, as {@link RobotsRule.pattern} shows it. */
  pattern(rule: number): string {
    const at = rule * RULE_FIELDS;
    if ((this.data[at + 1] as number) < -1) this.normalise(rule);
    const start = this.data[at] as number;
    const end = this.data[at + 1] as number;
    return end < 0 ? (this.patterns[start] as string) : this.text.slice(start, end);
  }

  /** Percent-normalises rule `rule`'s value (end below -1) into `patterns`, once. */
  normalise(rule: number): void {
    const at = rule * RULE_FIELDS;
    const data = this.data as number[];
    const patterns = this.patterns as string[];
    const value = this.text.slice(data[at] as number, -2 - (data[at + 1] as number));
    data[at] = patterns.length;
    data[at + 1] = -1;
    patterns.push(escapePattern(value, this.#bytesAsChars));
  }

  /** The groups as public objects, made once (their rules in file order). */
  groups(): readonly RobotsGroup[] {
    if (this.#groups !== null) return this.#groups;
    const data = this.data;
    const groups: RobotsGroup[] = [];
    for (const head of this.heads) {
      const rules: RobotsRule[] = [];
      for (let rule = head.ruleFrom; rule < head.ruleTo; rule++) {
        const at = rule * RULE_FIELDS;
        rules.push({
          directive: data[at + 3] === 1 ? 'allow' : 'disallow',
          pattern: this.pattern(rule),
          line: data[at + 2] as number,
        });
      }
      const { userAgents, crawlDelay, usage, line } = head;
      groups.push({ userAgents, rules, crawlDelay, usage, line });
    }
    this.#groups = groups;
    return groups;
  }

  /** The group (index into `heads`, among `indices`) that holds rule `rule`. */
  groupOf(rule: number, indices: readonly number[]): number {
    for (const index of indices) {
      const head = this.heads[index] as GroupHead;
      if (rule >= head.ruleFrom && rule < head.ruleTo) return index;
    }
    return -1;
  }

  /** The public object of rule `rule` of group `group`. */
  rule(rule: number, group: number): RobotsRule {
    const head = this.heads[group] as GroupHead;
    return (this.groups()[group] as RobotsGroup).rules[rule - head.ruleFrom] as RobotsRule;
  }
}
