import { MAX_TREE_DEPTH } from '../navmap-names.ts';
import type { RawDocument, RawElement } from './raw-document.ts';
import type { WalkLog } from './walk-log.ts';

/**
 * The walk's caps: nodes built, tree depth, and work (children looked at, ten per node
 * allowed), so a hostile web of references costs a bounded time however it is shaped.
 */
export class WalkBudget {
  readonly #maxNodes: number;
  readonly #log: WalkLog;
  #nodes = 0;
  #work = 0;
  stopped = false;

  constructor(maxNodes: number, log: WalkLog) {
    this.#maxNodes = maxNodes;
    this.#log = log;
  }

  /** Counts one node; false (reported) when the tree is full or `depth` too deep. */
  count(
    place: { readonly doc: RawDocument; readonly depth: number },
    element: RawElement,
  ): boolean {
    if (place.depth > MAX_TREE_DEPTH) {
      this.#log.report(
        element,
        place.doc,
        'error',
        'tree-too-deep',
        `the navigation nests deeper than ${MAX_TREE_DEPTH} levels; the deeper part is left out`,
      );
      return false;
    }
    if (this.#nodes >= this.#maxNodes) {
      this.#stop(element, place.doc);
      return false;
    }
    this.#nodes++;
    return true;
  }

  /** One child looked at; false (reported once) when the work budget is spent. */
  spend(doc: RawDocument, element: RawElement): boolean {
    if (++this.#work <= this.#maxNodes * 10) return true;
    this.#stop(element, doc);
    return false;
  }

  #stop(element: RawElement, doc: RawDocument): void {
    if (this.stopped) return;
    this.stopped = true;
    this.#log.report(
      element,
      doc,
      'error',
      'too-many-nodes',
      `the navigation has more than ${this.#maxNodes} nodes (counting each place a node appears); the rest is left out`,
    );
  }
}
