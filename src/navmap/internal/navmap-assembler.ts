// The walk from the root: turns the documents read into the navigation tree. It follows
// `item` and `group` children and `external` references (within a file by `#id`, across
// files by URL), applies inheritance, builds the role index from the items it reaches, and
// applies the loop rule: an item met again below itself appears once more, as a leaf. A node
// reachable from several places is repeated in each. Every cost is bounded: the depth of the
// tree, the nodes built, and the work spent on children.

import { NAVMAP_NS } from '../navmap-names.ts';
import type {
  NavmapClassChange,
  NavmapDiagnostic,
  NavmapExtra,
  NavmapInherited,
  NavmapNode,
  NavmapTree,
  NavmapVariant,
} from '../types.ts';
import { resolveExternal } from './external-target.ts';
import type { RawDocument, RawElement } from './navmap-document.ts';
import {
  effectiveValues,
  externalPlaceholder,
  extra,
  NO_INHERITED,
  namespacesAt,
  priorityOf,
  rolesOf,
  sourceOf,
  text,
  urlOf,
} from './node-values.ts';
import { RoleIndex } from './role-index.ts';
import { WalkBudget } from './walk-budget.ts';
import { WalkLog } from './walk-log.ts';

/** Children that are nodes of the tree (not left out of a loop's repeated leaf). */
const NESTED: ReadonlySet<string> = new Set(['item', 'group', 'external']);

/** A file the walk asked for: read, or why it could not be. */
export type NavmapFile = RawDocument | { readonly failed: string };

export interface AssembleOptions {
  readonly maxNodes: number;
  /** How a file not in `files` is reported: `info` for a one-file parse. */
  readonly missingSeverity: 'info' | 'error';
}

export interface Assembled {
  readonly tree: NavmapTree;
  /** Files referenced by reached externals and not in `files`, in the order met. */
  readonly pending: readonly string[];
}

/**
 * Walks the navigation tree from the root document.
 *
 * @example
 * ```ts
 * const { tree, pending } = assembleNavmap(url, new Map([[url, readNavmapDocument(bytes, url)]]), options);
 * ```
 */
export function assembleNavmap(
  rootUrl: string,
  files: ReadonlyMap<string, NavmapFile>,
  options: AssembleOptions,
): Assembled {
  return new Assembler(rootUrl, files, options).run();
}

interface Place {
  readonly doc: RawDocument;
  readonly values: NavmapInherited;
  readonly depth: number;
  readonly inTree: boolean;
}

class Assembler {
  readonly #rootUrl: string;
  readonly #files: ReadonlyMap<string, NavmapFile>;
  readonly #options: AssembleOptions;
  readonly #log = new WalkLog();
  readonly #budget: WalkBudget;
  readonly #roles = new RoleIndex();
  readonly #classChanges: NavmapClassChange[] = [];
  readonly #pending = new Set<string>();
  /** Items, groups, roots and externals being walked: the current path from the root. */
  readonly #path = new Set<RawElement>();

  constructor(rootUrl: string, files: ReadonlyMap<string, NavmapFile>, options: AssembleOptions) {
    this.#rootUrl = rootUrl;
    this.#files = files;
    this.#options = options;
    this.#budget = new WalkBudget(options.maxNodes, this.#log);
  }

  run(): Assembled {
    const doc = this.#files.get(this.#rootUrl);
    let root: NavmapNode | null = null;
    if (doc !== undefined && !('failed' in doc) && doc.root !== null) {
      root = this.#rootNode(doc, doc.root);
    }
    const files: string[] = [];
    const diagnostics: NavmapDiagnostic[] = [];
    const seen = new Set<NavmapFile>();
    for (const [url, file] of this.#files) {
      // A redirected file is registered under both its URLs; it is listed once.
      if ('failed' in file || seen.has(file)) continue;
      seen.add(file);
      files.push(url);
      diagnostics.push(...file.diagnostics);
    }
    diagnostics.push(...this.#log.diagnostics);
    return {
      tree: {
        url: this.#rootUrl,
        root,
        roles: this.#roles.toRecord(),
        classChanges: this.#classChanges,
        files,
        unresolved: [...this.#pending],
        diagnostics,
      },
      pending: [...this.#pending],
    };
  }

  #rootNode(doc: RawDocument, element: RawElement): NavmapNode {
    const values = effectiveValues(element, NO_INHERITED);
    this.#path.add(element);
    const parts = this.#children(element, 'sitemap', { doc, values, depth: 1, inTree: true });
    for (const child of element.children) {
      if (child.ns === NAVMAP_NS && (child.name === 'class-change' || child.name === 'change')) {
        this.#classChange(child, doc);
      }
    }
    return {
      kind: 'sitemap',
      label: text(element, 'name'),
      url: null,
      description: text(element, 'description'),
      roles: [],
      relation: null,
      priority: null,
      id: element.id,
      inTree: true,
      repeated: false,
      ...values,
      variants: [],
      extras: parts.extras,
      children: parts.children,
      source: sourceOf(element, doc.url),
    };
  }

  /** An `item` or `group` at a place: built, with its subtree unless it is its own ancestor. */
  #node(element: RawElement, place: Place): NavmapNode | null {
    if (!this.#budget.count(place, element)) return null;
    const { doc } = place;
    const values = effectiveValues(element, place.values);
    const inTree = place.inTree && element.attributes['tree']?.trim().toLowerCase() !== 'exclude';
    const kind = element.name === 'group' ? 'group' : 'item';
    const { url, invalid } = urlOf(element);
    if (invalid !== null) {
      this.#log.report(element, doc, 'warning', 'invalid-url', `url "${invalid}" is not a URL`);
    }
    const { priority, invalid: badPriority } = priorityOf(element);
    if (badPriority) {
      this.#log.report(element, doc, 'warning', 'invalid-priority', 'priority is not a number');
    }
    const label = text(element, 'name');
    const roles = kind === 'item' ? rolesOf(element) : [];
    const repeated = this.#path.has(element);
    if (repeated) {
      this.#log.report(
        element,
        doc,
        'info',
        'loop',
        `<${element.name}> is its own descendant; it appears once more there, as a leaf`,
      );
    } else {
      this.#roles.add(element, roles, { label, url });
    }
    const description = text(element, 'description');
    // The lower incarnation of a loop keeps what describes it (variants, extras), not its
    // children: that is where the walk stops.
    const inner = { doc, values, depth: place.depth + 1, inTree };
    const owner = { label, url, description };
    if (!repeated) this.#path.add(element);
    const parts = this.#children(element, kind, inner, owner, repeated);
    if (!repeated) this.#path.delete(element);
    return {
      kind,
      label,
      url,
      description,
      roles,
      relation: kind === 'group' ? text(element, 'relation') : null,
      priority,
      id: element.id,
      inTree,
      repeated,
      ...values,
      variants: parts.variants,
      extras: parts.extras,
      children: parts.children,
      source: sourceOf(element, doc.url),
    };
  }

  #children(element: RawElement, kind: string, place: Place, owner?: Owner, leaf = false): Parts {
    const parts: Parts = { children: [], variants: [], extras: [] };
    for (const child of element.children) {
      if (leaf && child.ns === NAVMAP_NS && NESTED.has(child.name)) continue;
      if (this.#budget.stopped || !this.#budget.spend(place.doc, child)) break;
      if (child.ns !== NAVMAP_NS) {
        this.#log.report(
          child,
          place.doc,
          'info',
          'foreign-element',
          `<${child.name}> is not in the standard-sitemap namespace; skipped with its content`,
        );
        continue;
      }
      switch (child.name) {
        case 'item':
        case 'group': {
          const node = this.#node(child, place);
          if (node !== null) parts.children.push(node);
          break;
        }
        case 'external':
          this.#splice(child, place, parts.children);
          break;
        case 'variant':
          if (owner === undefined) this.#misplaced(child, place.doc, kind);
          else parts.variants.push(this.#variant(child, place, owner));
          break;
        case 'class-change':
        case 'change':
          if (kind !== 'sitemap') this.#misplaced(child, place.doc, kind);
          break;
        case 'image':
        case 'style':
          parts.extras.push(extra(child));
          break;
        default:
          this.#log.report(
            child,
            place.doc,
            'warning',
            child.name === 'sitemap' ? 'misplaced-element' : 'unknown-element',
            `<${child.name}> is not a standard-sitemap element here; skipped`,
          );
      }
    }
    return parts;
  }

  #variant(element: RawElement, place: Place, owner: Owner): NavmapVariant {
    const values = effectiveValues(element, place.values);
    const { url, invalid } = urlOf(element);
    if (invalid !== null) {
      this.#log.report(
        element,
        place.doc,
        'warning',
        'invalid-url',
        `url "${invalid}" is not a URL`,
      );
    }
    return {
      label: text(element, 'name') ?? owner.label,
      url: url ?? owner.url,
      description: text(element, 'description') ?? owner.description,
      ...values,
    };
  }

  /** `<external>`: the referenced element (or file's top level) walked in its place. */
  #splice(element: RawElement, place: Place, out: NavmapNode[]): void {
    const { doc } = place;
    if (this.#path.has(element)) {
      this.#log.report(
        element,
        doc,
        'warning',
        'external-loop',
        '<external> leads back to itself without an item in between; not followed again',
      );
      return;
    }
    let href = element.href;
    if (href === null && element.attributes['url'] !== undefined) {
      href = element.attributes['url'];
      this.#log.report(
        element,
        doc,
        'info',
        'obsolete-form',
        'the obsolete url="" is read as xlink:href',
      );
    }
    if (href === null || href.trim() === '') {
      this.#log.report(
        element,
        doc,
        'warning',
        'external-without-href',
        '<external> has no xlink:href',
      );
      return;
    }
    const target = resolveExternal(
      element,
      href.trim(),
      doc,
      this.#files,
      this.#pending,
      this.#options.missingSeverity,
    );
    if ('problem' in target) {
      const [severity, code, message] = target.problem;
      this.#log.report(element, doc, severity, code, message);
      if (target.url !== null) this.#placeholder(element, target.url, place, out);
      return;
    }
    this.#path.add(element);
    const inner = { ...place, doc: target.doc, depth: place.depth + 1 };
    const found = target.element;
    if (found.ns === NAVMAP_NS && (found.name === 'item' || found.name === 'group')) {
      const node = this.#node(found, inner);
      if (node !== null) out.push(node);
    } else if (found.ns === NAVMAP_NS && found.name === 'external') {
      this.#splice(found, inner, out);
    } else if (found === target.doc.root) {
      if (this.#path.has(found)) {
        this.#log.report(
          element,
          doc,
          'warning',
          'external-loop',
          `<external> splices ${target.doc.url}, which is already being walked; not followed again`,
        );
      } else if (this.#budget.count(inner, found)) {
        this.#path.add(found);
        const values = effectiveValues(found, place.values);
        out.push(...this.#children(found, 'spliced', { ...inner, values }).children);
        this.#path.delete(found);
      }
    } else {
      this.#log.report(
        element,
        doc,
        'warning',
        'external-target-invalid',
        `<external> points at <${found.name}>, which is not an item, group or sitemap`,
      );
    }
    this.#path.delete(element);
  }

  #placeholder(element: RawElement, url: string, place: Place, out: NavmapNode[]): void {
    if (!this.#budget.count(place, element)) return;
    out.push(externalPlaceholder(element, url, place.doc.url, place.inTree, place.values));
  }

  #classChange(element: RawElement, doc: RawDocument): void {
    if (element.name === 'change') {
      this.#log.report(
        element,
        doc,
        'info',
        'obsolete-form',
        'the obsolete <change> is read as <class-change>',
      );
    }
    const elem = element.attributes['elem']?.trim();
    if (elem === undefined || elem === '') {
      this.#log.report(
        element,
        doc,
        'warning',
        'class-change-without-elem',
        '<class-change> has no elem; ignored',
      );
      return;
    }
    this.#classChanges.push({
      elem,
      attr: text(element, 'attr'),
      prefix: text(element, 'prefix'),
      namespaces: namespacesAt(element),
    });
  }

  #misplaced(element: RawElement, doc: RawDocument, parent: string): void {
    const where = parent === 'spliced' ? 'at the top of a spliced file' : `in <${parent}>`;
    this.#log.report(
      element,
      doc,
      'warning',
      'misplaced-element',
      `<${element.name}> is not allowed ${where}; skipped`,
    );
  }
}

interface Parts {
  children: NavmapNode[];
  variants: NavmapVariant[];
  extras: NavmapExtra[];
}

/** The values a variant takes from its node when it has none of its own. */
interface Owner {
  readonly label: string | null;
  readonly url: string | null;
  readonly description: string | null;
}
