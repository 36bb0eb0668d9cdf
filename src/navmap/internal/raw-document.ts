// A navigational sitemap document as read: the data the reader produces and the walk
// consumes. Each element already knows its namespace, its base URI and the inherited values
// of its own document, so the walk never goes back to the XML.

import type { NavmapDiagnostic } from '../types.ts';

/** The attributes that pass down to descendants. */
export const INHERITED_KEYS = ['lang', 'type', 'charset', 'target'] as const;
export type InheritedKey = (typeof INHERITED_KEYS)[number];
export type InheritedValues = Partial<Record<InheritedKey, string | null>>;

/** An element as read: its namespace resolved, its base and inherited values computed. */
export interface RawElement {
  /** Local name, lower-cased (XML is case-sensitive; a wrong case is reported and read). */
  readonly name: string;
  /** Namespace URI, or null when none is bound. */
  readonly ns: string | null;
  /** Attributes as written. */
  readonly attributes: Readonly<Record<string, string>>;
  /** The `xlink:href` value (by namespace, or by the usual prefix when undeclared). */
  readonly href: string | null;
  /** `xml:id` (or, in older documents, `id`). */
  readonly id: string | null;
  /** The element's base URI (its `xml:base` resolved against its parent's). */
  readonly base: string;
  /** Inherited values defined on the element or its ancestors in this document. */
  readonly inherited: InheritedValues;
  readonly parent: RawElement | null;
  readonly children: RawElement[];
  /** Namespace bindings declared on this element (prefix as written, '' for the default). */
  readonly declares: Readonly<Record<string, string>> | null;
  readonly line: number;
  readonly column: number;
  /** Text content, only kept for elements kept as data (capped). */
  text: string;
}

export interface RawDocument {
  /** The URL the document was read from (after redirects): the base of the root. */
  readonly url: string;
  /** The `sitemap` root, or null when the document is not a navigational sitemap. */
  readonly root: RawElement | null;
  /** Why there is no root, for the caller's message. */
  readonly problem: string | null;
  readonly ids: ReadonlyMap<string, RawElement>;
  readonly diagnostics: readonly NavmapDiagnostic[];
}
