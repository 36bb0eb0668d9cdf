import type { Diagnostic } from '../shared/diagnostic.ts';

/** How a page named its navigational sitemap: which of the five discovery steps found it. */
export type NavmapVia = 'opt-header' | 'legacy-header' | 'link' | 'legacy-link' | 'preference';

/** Where a page's root navigational sitemap is, and how the page said so. */
export interface NavmapLocation {
  /** The sitemap's absolute URL. */
  readonly url: string;
  readonly via: NavmapVia;
}

/** A problem found in one document of a navigational sitemap. */
export interface NavmapDiagnostic extends Diagnostic {
  /** The document the line and column refer to (the page's URL for discovery problems). */
  readonly url: string;
}

/**
 * The values that pass down from ancestors to descendants (a nearer value wins). Null when
 * no ancestor gives one, or the nearest gives an empty value.
 */
export interface NavmapInherited {
  readonly lang: string | null;
  readonly type: string | null;
  readonly charset: string | null;
  readonly target: string | null;
}

/** An alternative of its node (another language, another format); missing values are the node's. */
export interface NavmapVariant extends NavmapInherited {
  readonly label: string | null;
  readonly url: string | null;
  readonly description: string | null;
}

/** An obsolete or unknown child kept as data (`<image>`, `<style>`). */
export interface NavmapExtra {
  /** The element's local name. */
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Its text content, whitespace trimmed, at most 4,096 characters. */
  readonly text: string;
}

/** Where a node's element is written. */
export interface NavmapSource {
  readonly url: string;
  readonly line: number;
  readonly column: number;
}

/**
 * One node of the navigation tree. `sitemap` is the anonymous root; `item` is a page (or,
 * without `url`, a heading over its children); `group` is a heading or a sequence
 * (`relation`); `external` is a reference that could not be spliced in (not loaded, failed,
 * or its `#id` is missing), kept so nothing disappears silently.
 */
export interface NavmapNode extends NavmapInherited {
  readonly kind: 'sitemap' | 'item' | 'group' | 'external';
  readonly label: string | null;
  /** Absolute URL (resolved with `xml:base`); for `external`, the reference that failed. */
  readonly url: string | null;
  readonly description: string | null;
  /** Role tokens, lower-cased, in the order written. */
  readonly roles: readonly string[];
  /** A group's `relation` (e.g. `sequence`). */
  readonly relation: string | null;
  /** `priority` as a number, when it is one. */
  readonly priority: number | null;
  /** The element's `xml:id`. */
  readonly id: string | null;
  /** False for `tree="exclude"` and everything below it: reached, but not displayed. */
  readonly inTree: boolean;
  /**
   * True for the lower incarnation of an item that turned up as its own descendant (a loop):
   * it appears once more, as a leaf (its variants and extras kept, no children), and the
   * walk stops there.
   */
  readonly repeated: boolean;
  readonly variants: readonly NavmapVariant[];
  readonly extras: readonly NavmapExtra[];
  readonly children: readonly NavmapNode[];
  readonly source: NavmapSource;
}

/** One node a role points at. */
export interface NavmapRoleTarget {
  readonly label: string | null;
  readonly url: string | null;
}

/**
 * A `class-change` instruction: how a page marks itself according to the display level
 * (`elem` is an XPath into the page, with the namespace prefixes in scope at the element).
 */
export interface NavmapClassChange {
  readonly elem: string;
  readonly attr: string | null;
  readonly prefix: string | null;
  /** Namespace prefixes in scope (`h` -> `http://www.w3.org/1999/xhtml`), for `elem`. */
  readonly namespaces: Readonly<Record<string, string>>;
}

/** A parsed navigational sitemap: plain data, JSON-serialisable. */
export interface NavmapTree {
  /** The root document's URL. */
  readonly url: string;
  /** The anonymous root node, or null when the document is not a navigational sitemap. */
  readonly root: NavmapNode | null;
  /**
   * Every role of every reached item (also `tree="exclude"` ones), role -> the nodes that
   * have it, each once, in walk order. Roles are lower-cased; keys are sorted.
   */
  readonly roles: Readonly<Record<string, readonly NavmapRoleTarget[]>>;
  readonly classChanges: readonly NavmapClassChange[];
  /** Every document read, the root first. */
  readonly files: readonly string[];
  /** Files referenced by a reached `external` that were not read (parseNavmap reads one file). */
  readonly unresolved: readonly string[];
  readonly diagnostics: readonly NavmapDiagnostic[];
}
