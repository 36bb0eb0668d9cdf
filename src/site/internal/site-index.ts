import type { Diagnostic } from '../../shared/diagnostic.ts';
import type { ReservedPaths } from '../reserved-paths.ts';
import type { SiteConfig } from '../site-config.ts';
import { validateAlias } from '../validate-alias.ts';
import type { PageMeta } from './page-record.ts';

/** A problem with one document, named by its path relative to the root. */
export interface SiteDiagnostic extends Diagnostic {
  readonly path: string;
}

/** A document the site can route to. */
export interface SiteEntry {
  readonly page: PageMeta;
  /** `/id/<hex>`, with the slash policy. */
  readonly idPath: string;
  /** The alias URL path with the slash policy, or null. */
  readonly aliasPath: string | null;
  /** Where the document lives for crawlers: its alias, else its id path. */
  readonly canonicalPath: string;
  /** Public, indexable Markdown: listed in the sitemap. */
  readonly listed: boolean;
}

/** Everything a response needs that does not depend on the request. */
export interface SiteIndex {
  /** Routable documents (public or restricted, valid), by URL path (alias and id paths). */
  readonly byUrlPath: ReadonlyMap<string, SiteEntry>;
  /** Routable documents by their path in the root, for resolving links between them. */
  readonly byFilePath: ReadonlyMap<string, SiteEntry>;
  /** The sitemap's entries, sorted by canonical path. */
  readonly listed: readonly SiteEntry[];
  readonly diagnostics: readonly SiteDiagnostic[];
}

/**
 * Decides, once per change, which documents are routable and listed. A document is left
 * out (with a diagnostic) when its sidecar is broken, its alias is invalid or claimed by
 * another document too (in any case: `About` and `about` collide), or its id is shared with another document: an ambiguous URL is
 * given to nobody, so adding a file never silently takes over another page's address.
 */
export function buildSiteIndex(
  pages: readonly PageMeta[],
  config: SiteConfig,
  reserved: ReservedPaths,
): SiteIndex {
  const diagnostics: SiteDiagnostic[] = [];
  const report = (page: PageMeta, code: string, message: string): void => {
    diagnostics.push({ path: page.path, code, severity: 'error', message, line: 1, column: 1 });
  };
  for (const page of pages) {
    for (const d of page.diagnostics) diagnostics.push({ path: page.path, ...d });
  }
  const claims = new Map<string, PageMeta[]>();
  const ids = new Map<string, PageMeta[]>();
  for (const page of pages) {
    push(ids, page.id, page);
    if (page.alias === null) continue;
    const checked = validateAlias(page.alias, { reserved });
    // Without regard to case, as reserved paths are: one URL on a server that ignores case.
    if (checked.valid) push(claims, checked.alias.toLowerCase(), page);
  }
  const slash = config.trailingSlash === 'always' ? '/' : '';
  const byUrlPath = new Map<string, SiteEntry>();
  const byFilePath = new Map<string, SiteEntry>();
  const listed: SiteEntry[] = [];
  for (const page of pages) {
    if (page.access === 'deny') continue;
    const sameId = ids.get(page.id) ?? [];
    if (sameId.length > 1) {
      report(page, 'duplicate-id', `id ${page.id} is also used by ${others(sameId, page)}`);
      continue;
    }
    let aliasPath: string | null = null;
    if (page.alias !== null) {
      const checked = validateAlias(page.alias, {
        reserved,
        takenBy: (alias) => {
          const claimants = claims.get(alias.toLowerCase()) ?? [];
          return claimants.length > 1 ? others(claimants, page) : null;
        },
      });
      if (!checked.valid) {
        report(
          page,
          `alias-${checked.problem}`,
          `${checked.message}; the document is left out until it is fixed`,
        );
        continue;
      }
      aliasPath = checked.path + slash;
    }
    const idPath = `/id/${page.id}${slash}`;
    const entry: SiteEntry = {
      page,
      idPath,
      aliasPath,
      canonicalPath: aliasPath ?? idPath,
      listed: page.access === 'public' && page.markdown && !page.noindex,
    };
    byUrlPath.set(idPath, entry);
    if (aliasPath !== null) byUrlPath.set(aliasPath, entry);
    byFilePath.set(page.path, entry);
    if (entry.listed) listed.push(entry);
  }
  listed.sort((a, b) =>
    a.canonicalPath < b.canonicalPath ? -1 : a.canonicalPath > b.canonicalPath ? 1 : 0,
  );
  diagnostics.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { byUrlPath, byFilePath, listed, diagnostics };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function others(pages: readonly PageMeta[], self: PageMeta): string {
  return pages
    .filter((p) => p !== self)
    .map((p) => JSON.stringify(p.path))
    .sort()
    .join(', ');
}
