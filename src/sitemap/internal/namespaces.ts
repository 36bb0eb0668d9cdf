export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
export const VIDEO_NS = 'http://www.google.com/schemas/sitemap-video/1.1';
export const NEWS_NS = 'http://www.google.com/schemas/sitemap-news/0.9';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** Extension elements by namespace, and by the prefix everyone uses when it is undeclared. */
export const EXTENSIONS: Readonly<Record<string, 'image' | 'video' | 'news' | 'xhtml'>> = {
  [IMAGE_NS]: 'image',
  [VIDEO_NS]: 'video',
  [NEWS_NS]: 'news',
  [XHTML_NS]: 'xhtml',
};

export const CONVENTIONAL_PREFIXES: ReadonlySet<string> = new Set([
  'image',
  'video',
  'news',
  'xhtml',
]);

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
