import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary content root on disk, removed by `remove()`. */
export interface ContentRoot {
  readonly dir: string;
  /** The absolute path of a file in the root. */
  path(relative: string): string;
  remove(): void;
}

/** Writes `files` (relative path -> text) into a fresh temporary directory. */
export function makeContentRoot(files: Readonly<Record<string, string>> = {}): ContentRoot {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-site-'));
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, relative)), { recursive: true });
    writeFileSync(join(dir, relative), text);
  }
  return {
    dir,
    path: (relative) => join(dir, relative),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** GET (or another method) of `path` on `https://example.com`, with optional headers. */
export function siteRequest(path: string, init: RequestInit & { origin?: string } = {}): Request {
  const { origin = 'https://example.com', ...rest } = init;
  return new Request(origin + path, rest);
}

/** The `<loc>` values of a sitemap or index, in order. */
export function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
}
