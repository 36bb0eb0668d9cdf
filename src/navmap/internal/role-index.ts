import type { NavmapRoleTarget } from '../types.ts';
import type { RawElement } from './raw-document.ts';

/** Role -> the nodes that have it, each element once however often it is walked. */
export class RoleIndex {
  readonly #roles = new Map<string, Map<RawElement, NavmapRoleTarget>>();

  add(element: RawElement, roles: readonly string[], target: NavmapRoleTarget): void {
    for (const role of roles) {
      let targets = this.#roles.get(role);
      if (targets === undefined) {
        targets = new Map();
        this.#roles.set(role, targets);
      }
      if (!targets.has(element)) targets.set(element, target);
    }
  }

  /** Plain data, keys sorted (`Object.fromEntries` keeps a role named `__proto__` an own key). */
  toRecord(): Record<string, NavmapRoleTarget[]> {
    const sorted = [...this.#roles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(sorted.map(([role, targets]) => [role, [...targets.values()]]));
  }
}
