// The scan a selection made before its trie, as it was when rules were objects (kept as the
// slow twin of scanStore for the differential test in internal/rule-match.test.ts).
import { matchesRaw, type RuleMatch } from '../internal/rule-match.ts';
import type { RobotsGroup, RobotsRule } from '../types.ts';

/**
 * The rule of `groups[indices]` that decides `path`, found by trying each rule once, with no
 * set-up: what a file asked only a few questions should cost. The winner is the matching rule
 * with the longest pattern, Allow before Disallow on a tie, then the earliest line; rules come
 * in line order, so a later rule wins only when strictly better. A rule that cannot beat the
 * best so far is not matched at all, and no pattern is compiled.
 */
export function scanForMatchReference(
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
