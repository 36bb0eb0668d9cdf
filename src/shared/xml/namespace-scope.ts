/**
 * In-scope namespace declarations, one frame per open element. Only elements that declare
 * something push a map, so plain documents cost one array slot per level.
 */
export class NamespaceScope {
  readonly #frames: (Map<string, string> | null)[] = [];

  open(attributes: Readonly<Record<string, string>>): void {
    let frame: Map<string, string> | null = null;
    for (const name in attributes) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        frame ??= new Map();
        frame.set(name === 'xmlns' ? '' : name.slice(6).toLowerCase(), attributes[name] as string);
      }
    }
    this.#frames.push(frame);
  }

  close(): void {
    this.#frames.pop();
  }

  /** The namespace bound to `prefix` ('' for the default namespace), or undefined. */
  resolve(prefix: string): string | undefined {
    for (let i = this.#frames.length - 1; i >= 0; i--) {
      const uri = this.#frames[i]?.get(prefix);
      if (uri !== undefined) return uri;
    }
    return undefined;
  }
}
