import type { Diagnostic } from '../../shared/diagnostic.ts';
import type { ReservedPaths } from '../reserved-paths.ts';
import type { SiteConfig } from '../site-config.ts';
import { validateAlias } from '../validate-alias.ts';
import { type PageMeta, SIDECAR_SUFFIX } from './page-record.ts';
import type { PageAccess } from './sidecar.ts';

/**
 * A problem with one document, named by its path relative to the root, or with the
 * configuration. `line` and `column` are in `file`: the document's sidecar
 * (`guides/setup.md.meta.yaml`) or the configuration file.
 */
export interface SiteDiagnostic extends Diagnostic {
  readonly path: string;
  /** The file `line` and `column` refer to, relative to the root (or as given). */
  readonly file: string;
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

const STRICTNESS: Readonly<Record<PageAccess, number>> = { public: 0, restricted: 1, deny: 2 };

/**
 * Decides, once per change, which documents are routable and listed. A document is left
 * out (with a diagnostic) when its sidecar is broken, its alias is invalid or claimed by
 * another document too (in any case: `About` and `about` collide), or its id is shared with
 * another document: an ambiguous URL is given to nobody, so adding a file never silently
 * takes over another page's address. Documents that are one file (a link and the document
 * it leads to, hard links) share the strictest access and noindex of any of them: access
 * belongs to the file, not to the name it is reached by.
 */
export function buildSiteIndex(
  pages: readonly PageMeta[],
  config: SiteConfig,
  reserved: ReservedPaths,
): SiteIndex {
  const diagnostics: SiteDiagnostic[] = [];
  const report = (page: PageMeta, code: string, message: string): void => {
    const file = page.path + SIDECAR_SUFFIX;
    diagnostics.push({
      path: page.path,
      file,
      code,
      severity: 'error',
      message,
      line: 1,
      column: 1,
    });
  };
  for (const page of pages) {
    const file = page.path + SIDECAR_SUFFIX;
    for (const d of page.diagnostics) diagnostics.push({ path: page.path, file, ...d });
  }
  pages = strictestPerFile(pages, diagnostics);
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

/**
 * Each document with the strictest access and noindex of every document that is its file;
 * a document made stricter that way gets a warning naming the others.
 */
function strictestPerFile(
  pages: readonly PageMeta[],
  diagnostics: SiteDiagnostic[],
): readonly PageMeta[] {
  const files = new Map<string, { access: PageAccess; noindex: boolean; paths: string[] }>();
  const keyOf = (page: PageMeta): string | null =>
    // A file system without inode numbers reports 0 for every file: nothing to group by.
    page.ino === 0 ? null : `${page.dev}:${page.ino}`;
  for (const page of pages) {
    const key = keyOf(page);
    if (key === null) continue;
    const seen = files.get(key);
    if (seen === undefined) {
      files.set(key, { access: page.access, noindex: page.noindex, paths: [page.path] });
    } else {
      if (STRICTNESS[page.access] > STRICTNESS[seen.access]) seen.access = page.access;
      seen.noindex ||= page.noindex;
      seen.paths.push(page.path);
    }
  }
  return pages.map((page) => {
    const key = keyOf(page);
    const file = key === null ? undefined : files.get(key);
    if (file === undefined || file.paths.length === 1) return page;
    if (file.access === page.access && file.noindex === page.noindex) return page;
    const others = file.paths
      .filter((path) => path !== page.path)
      .map((path) => JSON.stringify(path))
      .sort()
      .join(', ');
    const what = `access ${file.access}${file.noindex ? ', noindex' : ''}`;
    diagnostics.push({
      path: page.path,
      file: page.path,
      code: 'same-file',
      severity: 'warning',
      message: `the same file as ${others}: ${what} applies here too`,
      line: 1,
      column: 1,
    });
    return { ...page, access: file.access, noindex: file.noindex };
  });
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
