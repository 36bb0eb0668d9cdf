// Reading one element's own values: label, URL, roles, priority, and the inherited values
// as they apply at a place in the walk.

import type {
  NavmapExtra,
  NavmapInherited,
  NavmapNode,
  NavmapSource,
  NavmapVariant,
} from '../types.ts';
import { INHERITED_KEYS, type RawElement } from './raw-document.ts';

export const NO_INHERITED: NavmapInherited = {
  lang: null,
  type: null,
  charset: null,
  target: null,
};

/**
 * The inherited values at an element: those it has in its own document (its own or its
 * ancestors' there) win over those of the place it is walked from. For an element in its
 * own parent, that is plain inheritance; for one spliced in by `external`, it is XInclude's
 * rule: content keeps what it had where it was written.
 */
export function effectiveValues(element: RawElement, outer: NavmapInherited): NavmapInherited {
  const own = element.inherited;
  const out = { ...outer };
  for (const key of INHERITED_KEYS) {
    const value = own[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** An attribute with XML whitespace collapsed and trimmed; null when absent or empty. */
export function text(element: RawElement, name: string): string | null {
  const value = element.attributes[name];
  if (value === undefined) return null;
  const collapsed = value.replace(/[\t\n\r ]+/g, ' ').trim();
  return collapsed === '' ? null : collapsed;
}

/** The element's `url` (items also accept `xlink:href`) resolved against its base. */
export function urlOf(element: RawElement): { url: string | null; invalid: string | null } {
  const value = element.attributes['url'] ?? element.href ?? undefined;
  if (value === undefined || value.trim() === '') return { url: null, invalid: null };
  const url = URL.parse(value.trim(), element.base);
  return url === null ? { url: null, invalid: value } : { url: url.href, invalid: null };
}

/** Role tokens, lower-cased, each once. */
export function rolesOf(element: RawElement): string[] {
  const value = element.attributes['role'];
  if (value === undefined) return [];
  return [
    ...new Set(
      value
        .toLowerCase()
        .split(/[\t\n\r ]+/)
        .filter((t) => t !== ''),
    ),
  ];
}

export function priorityOf(element: RawElement): { priority: number | null; invalid: boolean } {
  const value = element.attributes['priority']?.trim();
  if (value === undefined || value === '') return { priority: null, invalid: false };
  const priority = Number(value);
  return Number.isFinite(priority)
    ? { priority, invalid: false }
    : { priority: null, invalid: true };
}

export function sourceOf(element: RawElement, url: string): NavmapSource {
  return { url, line: element.line, column: element.column };
}

/** Namespace bindings in scope at an element, nearest last-wins, for `class-change`. */
export function namespacesAt(element: RawElement): Record<string, string> {
  const chain: RawElement[] = [];
  for (let at: RawElement | null = element; at !== null; at = at.parent) chain.push(at);
  const out: Record<string, string> = {};
  for (let i = chain.length - 1; i >= 0; i--) Object.assign(out, chain[i]?.declares ?? {});
  return out;
}

/** An `<external>` that could not be spliced, kept in place so nothing disappears silently. */
export function externalPlaceholder(
  element: RawElement,
  url: string,
  docUrl: string,
  inTree: boolean,
  outer: NavmapInherited,
): NavmapNode {
  return {
    kind: 'external',
    label: null,
    url,
    description: null,
    roles: [],
    relation: null,
    priority: null,
    id: element.id,
    inTree,
    repeated: false,
    ...effectiveValues(element, outer),
    variants: [],
    extras: [],
    children: [],
    source: sourceOf(element, docUrl),
  };
}

/** An `<image>` or `<style>` kept as data, without its namespace declarations. */
export function extra(element: RawElement): NavmapExtra {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) attributes[key] = value;
  }
  return { name: element.name, attributes, text: element.text.trim() };
}

/** The values a variant takes from its node when it has none of its own. */
export interface Owner {
  readonly label: string | null;
  readonly url: string | null;
  readonly description: string | null;
}

/**
 * A `<variant>` of its node: its own values, the node's for those it lacks (the inherited
 * ones as they apply at the node). `invalid` is a `url` that is not a URL, for a warning.
 */
export function variantOf(
  element: RawElement,
  outer: NavmapInherited,
  owner: Owner,
): { variant: NavmapVariant; invalid: string | null } {
  const { url, invalid } = urlOf(element);
  const variant: NavmapVariant = {
    label: text(element, 'name') ?? owner.label,
    url: url ?? owner.url,
    description: text(element, 'description') ?? owner.description,
    ...effectiveValues(element, outer),
  };
  return { variant, invalid };
}
