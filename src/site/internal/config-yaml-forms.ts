/** YAML's short rule form `{ disallow: /x/ }` becomes `{ directive, pattern }`. */
export function fromYaml(key: string, raw: unknown): unknown {
  const rules = (list: unknown): unknown =>
    Array.isArray(list) ? list.map((rule) => shortRule(rule)) : list;
  if (key === 'robotsRules') return rules(raw);
  if (key === 'robotsGroups' && Array.isArray(raw)) {
    return raw.map((g) =>
      typeof g === 'object' && g !== null
        ? { ...g, rules: rules((g as { rules?: unknown }).rules) }
        : g,
    );
  }
  return raw;
}

function shortRule(rule: unknown): unknown {
  if (typeof rule !== 'object' || rule === null) return rule;
  const entries = Object.entries(rule as Record<string, unknown>);
  const only = entries[0];
  if (
    entries.length === 1 &&
    only !== undefined &&
    (only[0] === 'allow' || only[0] === 'disallow')
  ) {
    return { directive: only[0], pattern: only[1] === null ? '' : only[1] };
  }
  return rule;
}
