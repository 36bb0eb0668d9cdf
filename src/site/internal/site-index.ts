import type { Diagnostic } from '../../shared/diagnostic.ts';
import type { ReservedPaths } from '../reserved-paths.ts';
import type { SiteConfig } from '../site-config.ts';
import { type AliasValidation, validateAlias } from '../validate-alias.ts';
import { MAX_MARKDOWN_BYTES } from './document-text.ts';
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
    if (page.diagnostics.length === 0) continue;
    const file = page.path + SIDECAR_SUFFIX;
    for (const d of page.diagnostics) diagnostics.push({ path: page.path, file, ...d });
  }
  pages = withoutMisnamedSidecars(pages, diagnostics);
  pages = strictestPerFile(pages, diagnostics);
  const claims = new Map<string, PageMeta[]>();
  // One page per id, or all of them once an id is shared: no array per page.
  const ids = new Map<string, PageMeta | PageMeta[]>();
  // Each alias checked once: a second check differs only when another document claims it.
  const aliasChecks: (AliasValidation | undefined)[] = new Array(pages.length);
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i] as PageMeta;
    const sharing = ids.get(page.id);
    if (sharing === undefined) ids.set(page.id, page);
    else if (Array.isArray(sharing)) sharing.push(page);
    else ids.set(page.id, [sharing, page]);
    if (page.alias === null) continue;
    const checked = validateAlias(page.alias, { reserved });
    aliasChecks[i] = checked;
    // Without regard to case, as reserved paths are: one URL on a server that ignores case.
    if (checked.valid) push(claims, checked.alias.toLowerCase(), page);
  }
  const slash = config.trailingSlash === 'always' ? '/' : '';
  const routable: SiteEntry[] = [];
  const listed: SiteEntry[] = [];
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i] as PageMeta;
    if (page.access === 'deny') continue;
    const sameId = ids.get(page.id);
    if (Array.isArray(sameId)) {
      report(page, 'duplicate-id', `id ${page.id} is also used by ${others(sameId, page)}`);
      continue;
    }
    let aliasPath: string | null = null;
    if (page.alias !== null) {
      const first = aliasChecks[i];
      const checked =
        first !== undefined && (!first.valid || claimCount(claims, first.alias) <= 1)
          ? first
          : validateAlias(page.alias, {
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
    // One flat string. A concatenation would keep a 32-byte node per entry besides it: it is
    // flattened only by the sort, after the entry has left the young generation, where
    // V8's scavenger would have dropped the node (measured: ~1.2 MB more kept after the
    // first response).
    const idPath = ['/id/', page.id, slash].join('');
    const indexable = page.access === 'public' && page.markdown && !page.noindex;
    // Not rendered (it answers 404), so not listed: every URL a sitemap lists resolves.
    const tooLarge = indexable && page.size > MAX_MARKDOWN_BYTES;
    if (tooLarge) {
      diagnostics.push({
        path: page.path,
        file: page.path,
        code: 'document-too-large',
        severity: 'warning',
        message: `a Markdown document over ${MAX_MARKDOWN_BYTES / 1024 / 1024} MiB is not rendered (404), so it is not listed`,
        line: 1,
        column: 1,
      });
    }
    const entry: SiteEntry = {
      page,
      idPath,
      aliasPath,
      canonicalPath: aliasPath ?? idPath,
      listed: indexable && !tooLarge,
    };
    routable.push(entry);
    if (entry.listed) listed.push(entry);
  }
  listed.sort((a, b) =>
    a.canonicalPath < b.canonicalPath ? -1 : a.canonicalPath > b.canonicalPath ? 1 : 0,
  );
  diagnostics.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return withLazyLookups(routable, listed, diagnostics);
}

/**
 * The lookups by URL and by file, made when a request first needs them (a document or
 * IndexNow), from the routable entries in the order decided: a server asked only for
 * robots.txt and sitemaps never holds 100,000 keys it does not use. A function of its own so
 * that the getters keep only `routable` alive, not the build's other locals (its claims).
 */
function withLazyLookups(
  routable: readonly SiteEntry[],
  listed: readonly SiteEntry[],
  diagnostics: readonly SiteDiagnostic[],
): SiteIndex {
  let byUrlPath: Map<string, SiteEntry> | null = null;
  let byFilePath: Map<string, SiteEntry> | null = null;
  return {
    get byUrlPath(): ReadonlyMap<string, SiteEntry> {
      if (byUrlPath === null) {
        byUrlPath = new Map();
        for (const entry of routable) {
          byUrlPath.set(entry.idPath, entry);
          if (entry.aliasPath !== null) byUrlPath.set(entry.aliasPath, entry);
        }
      }
      return byUrlPath;
    },
    get byFilePath(): ReadonlyMap<string, SiteEntry> {
      if (byFilePath === null) {
        byFilePath = new Map();
        for (const entry of routable) byFilePath.set(entry.page.path, entry);
      }
      return byFilePath;
    },
    listed,
    diagnostics,
  };
}

/**
 * Each document with the strictest access and noindex of every document that is its file;
 * a document made stricter that way gets a warning naming the others.
 */
function strictestPerFile(
  pages: readonly PageMeta[],
  diagnostics: SiteDiagnostic[],
): readonly PageMeta[] {
  // Documents are one file only if their inode numbers are equal: most roots have none
  // such, and then no map of every document is made.
  const shared = sharedInodes(pages);
  if (shared.size === 0) return pages;
  // By device, then inode: numbers as keys, and a group only for a file with several names.
  const byDevice = new Map<number, Map<number, PageMeta | FileGroup>>();
  for (const page of pages) {
    // A file system without inode numbers reports 0 for every file: nothing to group by.
    if (page.ino === 0 || !shared.has(page.ino)) continue;
    let inodes = byDevice.get(page.dev);
    if (inodes === undefined) {
      inodes = new Map();
      byDevice.set(page.dev, inodes);
    }
    const seen = inodes.get(page.ino);
    if (seen === undefined) {
      inodes.set(page.ino, page);
    } else if (!(seen instanceof FileGroup)) {
      inodes.set(page.ino, new FileGroup(seen, page));
    } else {
      seen.add(page);
    }
  }
  const groupOf = (page: PageMeta): FileGroup | null => {
    if (page.ino === 0 || !shared.has(page.ino)) return null;
    const found = byDevice.get(page.dev)?.get(page.ino);
    return found instanceof FileGroup ? found : null;
  };
  return pages.map((page) => {
    const file = groupOf(page);
    if (file === null) return page;
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

/**
 * The inode numbers (not 0) that more than one document has, found in a sorted copy of all
 * of them (a typed array outside the JS heap, not a map of 50,000 keys).
 */
function sharedInodes(pages: readonly PageMeta[]): Set<number> {
  const inodes = new Float64Array(pages.length);
  let n = 0;
  for (const page of pages) if (page.ino !== 0) inodes[n++] = page.ino;
  const sorted = inodes.subarray(0, n).sort();
  const shared = new Set<number>();
  for (let i = 1; i < n; i++) {
    if (sorted[i] === sorted[i - 1]) shared.add(sorted[i] as number);
  }
  return shared;
}

function claimCount(claims: ReadonlyMap<string, readonly PageMeta[]>, alias: string): number {
  return claims.get(alias.toLowerCase())?.length ?? 0;
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

/** The names of one file (two or more), and the strictest access and noindex among them. */
class FileGroup {
  access: PageAccess;
  noindex: boolean;
  readonly paths: string[];

  constructor(first: PageMeta, second: PageMeta) {
    this.access = first.access;
    this.noindex = first.noindex;
    this.paths = [first.path];
    this.add(second);
  }

  add(page: PageMeta): void {
    if (STRICTNESS[page.access] > STRICTNESS[this.access]) this.access = page.access;
    this.noindex ||= page.noindex;
    this.paths.push(page.path);
  }
}

/** `.meta.yml`, or `.meta.yaml` in other letter case: a sidecar under a name that is not read. */
const MISNAMED_SIDECAR = /\.meta\.ya?ml$/i;

/**
 * A sidecar saved under a name waymark does not read (`a.md.meta.yml`, `a.md.META.YAML`)
 * would leave its document public, whatever it says, and be published itself as a file.
 * Neither happens: the file is no document, and its document is withheld with an error
 * (`sidecar-name`) until the file is renamed.
 */
function withoutMisnamedSidecars(
  pages: readonly PageMeta[],
  diagnostics: SiteDiagnostic[],
): readonly PageMeta[] {
  const misnamed = new Map<string, string>();
  for (const page of pages) {
    const match = MISNAMED_SIDECAR.exec(page.path);
    if (match !== null) misnamed.set(page.path.slice(0, match.index), page.path);
  }
  if (misnamed.size === 0) return pages;
  const sidecars = new Set(misnamed.values());
  return pages.filter((page) => {
    if (sidecars.has(page.path)) return false;
    const sidecar = misnamed.get(page.path);
    if (sidecar === undefined) return true;
    diagnostics.push({
      path: page.path,
      file: sidecar,
      code: 'sidecar-name',
      severity: 'error',
      message: `${sidecar} is not read: a sidecar's name ends in ${SIDECAR_SUFFIX}, in lower case; the document is withheld until the file is renamed`,
      line: 1,
      column: 1,
    });
    return false;
  });
}
