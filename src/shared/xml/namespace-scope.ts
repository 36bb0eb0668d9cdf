import { NO_ATTRIBUTES } from './xml-tokenizer.ts';

/**
 * In-scope namespace declarations, one frame per open element. The bindings in force are kept
 * in one map, so `resolve` costs the same at any depth; an element that declares something
 * records what it replaced, and closing it puts that back. Plain elements cost one array slot.
 */
export class NamespaceScope {
  /** Prefix ('' for the default namespace) to the namespace bound to it now. */
  readonly #bindings = new Map<string, string>();
  /** Per open element: the bindings it replaced (undefined: there was none), or null. */
  readonly #frames: (Map<string, string | undefined> | null)[] = [];

  open(attributes: Readonly<Record<string, string>>): void {
    // Nearly every element has no attributes: no `for...in` set up for them.
    if (attributes === NO_ATTRIBUTES) {
      this.#frames.push(null);
      return;
    }
    let replaced: Map<string, string | undefined> | null = null;
    for (const name in attributes) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      const prefix = name === 'xmlns' ? '' : name.slice(6).toLowerCase();
      replaced ??= new Map();
      // The first declaration of a prefix on this element holds what was in force before it.
      if (!replaced.has(prefix)) replaced.set(prefix, this.#bindings.get(prefix));
      this.#bindings.set(prefix, attributes[name] as string);
    }
    this.#frames.push(replaced);
  }

  close(): void {
    const replaced = this.#frames.pop();
    if (replaced === null || replaced === undefined) return;
    for (const [prefix, previous] of replaced) {
      if (previous === undefined) this.#bindings.delete(prefix);
      else this.#bindings.set(prefix, previous);
    }
  }

  /** The namespace bound to `prefix` ('' for the default namespace), or undefined. */
  resolve(prefix: string): string | undefined {
    return this.#bindings.get(prefix);
  }
}
