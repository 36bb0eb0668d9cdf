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
import { readClassChange } from './class-change.ts';
import { externalHref, resolveExternal } from './external-target.ts';
import {
  effectiveValues,
  externalPlaceholder,
  extra,
  NO_INHERITED,
  type Owner,
  priorityOf,
  rolesOf,
  sourceOf,
  text,
  urlOf,
  variantOf,
} from './node-values.ts';
import type { RawDocument, RawElement } from './raw-document.ts';
import { RoleIndex } from './role-index.ts';
import { WalkBudget } from './walk-budget.ts';
import { WalkLog } from './walk-log.ts';

type Problem = [NavmapDiagnostic['severity'], string, string];

const FOREIGN = 'is not in the standard-sitemap namespace; skipped with its content';
const LOOP_WITHOUT_ITEM =
  '<external> leads back to itself without an item in between; not followed again';

/** Children that are nodes of the tree: a loop's repeated leaf leaves them out. */
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
        const change = readClassChange(child, (...problem) =>
          this.#log.report(child, doc, ...problem),
        );
        if (change !== null) this.#classChanges.push(change);
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
    const report = (...problem: Problem) => this.#log.report(element, doc, ...problem);
    const { url, invalid } = urlOf(element);
    if (invalid !== null) report('warning', 'invalid-url', `url "${invalid}" is not a URL`);
    const { priority, invalid: badPriority } = priorityOf(element);
    if (badPriority) report('warning', 'invalid-priority', 'priority is not a number');
    const label = text(element, 'name');
    const roles = kind === 'item' ? rolesOf(element) : [];
    const repeated = this.#path.has(element);
    if (repeated) {
      report(
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
      const report = (...problem: Problem) => this.#log.report(child, place.doc, ...problem);
      const misplaced = () => {
        const where = kind === 'spliced' ? 'at the top of a spliced file' : `in <${kind}>`;
        report('warning', 'misplaced-element', `<${child.name}> is not allowed ${where}; skipped`);
      };
      if (child.ns !== NAVMAP_NS) {
        report('info', 'foreign-element', `<${child.name}> ${FOREIGN}`);
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
        case 'variant': {
          if (owner === undefined) {
            misplaced();
            break;
          }
          const { variant, invalid } = variantOf(child, place.values, owner);
          if (invalid !== null) report('warning', 'invalid-url', `url "${invalid}" is not a URL`);
          parts.variants.push(variant);
          this.#nothingInside(child, place.doc);
          break;
        }
        case 'class-change':
        case 'change':
          if (kind !== 'sitemap') misplaced();
          break;
        case 'image':
        case 'style':
          parts.extras.push(extra(child));
          break;
        default: {
          const code = child.name === 'sitemap' ? 'misplaced-element' : 'unknown-element';
          report(
            'warning',
            code,
            `<${child.name}> is not a standard-sitemap element here; skipped`,
          );
        }
      }
    }
    return parts;
  }

  /** `<external>`: the referenced element (or file's top level) walked in its place. */
  #splice(element: RawElement, place: Place, out: NavmapNode[]): void {
    const { doc } = place;
    const report = (...problem: Problem) => this.#log.report(element, doc, ...problem);
    if (this.#path.has(element)) {
      report('warning', 'external-loop', LOOP_WITHOUT_ITEM);
      return;
    }
    const { href, obsolete } = externalHref(element);
    if (obsolete) report('info', 'obsolete-form', 'the obsolete url="" is read as xlink:href');
    if (href === null) {
      report('warning', 'external-without-href', '<external> has no xlink:href');
      return;
    }
    const { missingSeverity } = this.#options;
    const target = resolveExternal(element, href, doc, this.#files, this.#pending, missingSeverity);
    if ('problem' in target) {
      report(...target.problem);
      if (target.url !== null) this.#placeholder(element, target.url, place, out);
      return;
    }
    const found = target.element;
    const inner = { ...place, doc: target.doc, depth: place.depth + 1 };
    this.#path.add(element);
    if (target.kind === 'node') {
      const node = this.#node(found, inner);
      if (node !== null) out.push(node);
    } else if (target.kind === 'chain') {
      this.#splice(found, inner, out);
    } else if (this.#path.has(found)) {
      report(
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
    this.#path.delete(element);
  }

  /** A variant is a leaf: nodes written inside it are never reached, which is said. */
  #nothingInside(variant: RawElement, doc: RawDocument): void {
    for (const inner of variant.children) {
      if (inner.ns !== NAVMAP_NS || !NESTED.has(inner.name)) continue;
      const message = `<${inner.name}> is not allowed in <variant>; skipped with its content`;
      this.#log.report(inner, doc, 'warning', 'misplaced-element', message);
    }
  }

  #placeholder(element: RawElement, url: string, place: Place, out: NavmapNode[]): void {
    if (!this.#budget.count(place, element)) return;
    out.push(externalPlaceholder(element, url, place.doc.url, place.inTree, place.values));
  }
}

interface Parts {
  children: NavmapNode[];
  variants: NavmapVariant[];
  extras: NavmapExtra[];
}
