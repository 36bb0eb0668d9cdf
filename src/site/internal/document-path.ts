import { sep } from 'node:path';
import { SIDECAR_SUFFIX } from './page-record.ts';

/** The root-level file that configures a site; never a document. */
export const SITE_CONFIG_FILE = 'waymark.site.yaml';

/**
 * True when a path relative to the root (`/`-separated) can name a document: not hidden
 * (no segment starts with `.`), not a sidecar, not the root's configuration.
 */
export function isDocumentPath(relative: string): boolean {
  if (relative === '' || relative === SITE_CONFIG_FILE || relative.endsWith(SIDECAR_SUFFIX)) {
    return false;
  }
  return !relative.split('/').some((segment) => segment === '' || segment.startsWith('.'));
}

/**
 * `real` (an absolute path with links resolved) relative to `root` (the same), with `/`
 * separators; null when it is not strictly inside the root.
 */
export function insideRoot(root: string, real: string): string | null {
  if (!real.startsWith(root + sep)) return null;
  const relative = real.slice(root.length + 1);
  return sep === '/' ? relative : relative.replaceAll(sep, '/');
}
