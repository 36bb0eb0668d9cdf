import type { Diagnostic } from '../shared/diagnostic.ts';
import type { SitemapInput } from './internal/byte-source.ts';
import { parseSitemap, type SitemapReading } from './read-sitemap.ts';
import type { SitemapKind } from './types.ts';

/**
 * A sitemap to compare: its bytes (any input the reader takes), a reading already opened
 * with {@link parseSitemap} (to pass reader options such as `url`), or a function that opens
 * one of those when its turn comes (so a second download does not sit idle, its time cap
 * running, while the first is read).
 */
export type SitemapDiffSource =
  | SitemapInput
  | SitemapReading
  | (() => SitemapInput | SitemapReading | Promise<SitemapInput | SitemapReading>);

/** An entry that is in one sitemap only. */
export interface SitemapDiffEntry {
  readonly loc: string;
  readonly lastmod?: string;
}

/** An entry in both sitemaps whose `lastmod` differs (appeared, disappeared or moved). */
export interface SitemapLastmodChange {
  readonly loc: string;
  /** The old sitemap's value; absent when it had none. */
  readonly oldLastmod?: string;
  /** The new sitemap's value; absent when it has none. */
  readonly newLastmod?: string;
}

/** What changed from one sitemap to the next. */
export interface SitemapDiff {
  /** What each document turned out to be (`urlset`, `index`, `text`, ...). */
  readonly oldKind: SitemapKind;
  readonly newKind: SitemapKind;
  /** In the new sitemap only, in its order. */
  readonly added: readonly SitemapDiffEntry[];
  /** In the old sitemap only, in its order. */
  readonly removed: readonly SitemapDiffEntry[];
  /** In both, with another `lastmod`, in the new sitemap's order. */
  readonly lastmodChanged: readonly SitemapLastmodChange[];
  readonly counts: {
    /** Distinct `loc` values read from each. */
    readonly old: number;
    readonly new: number;
    readonly added: number;
    readonly removed: number;
    readonly lastmodChanged: number;
    readonly unchanged: number;
    /** Repeats of a `loc` already read from the same document (the first one counts). */
    readonly oldDuplicates: number;
    readonly newDuplicates: number;
  };
  /** The readers' diagnostics for each document (a cut or broken document makes a partial diff). */
  readonly oldDiagnostics: readonly Diagnostic[];
  readonly newDiagnostics: readonly Diagnostic[];
}

/**
 * Compares two sitemaps entry by entry: which `loc` values were added, which removed, and
 * which carry another `lastmod`. Each document is compared as given: two URL sets compare
 * their pages, two indexes their child sitemaps (nothing is fetched; walk the indexes first
 * to compare the pages behind them). `loc` values are compared as the reader spells them
 * (`new URL(loc).href`); when a `loc` repeats in one document, its first entry counts.
 * `lastmod` values are equal when written the same, or when both have a time of day and
 * name the same instant (`10:00+01:00` and `09:00Z`); `2024-05-01` and
 * `2024-05-01T00:00:00Z` differ, as one says less than the other.
 *
 * Time and memory are linear: the old document's `loc` and `lastmod` values are held in a
 * map while the new one streams past (a 50,000-URL sitemap takes a few MB). Problems reading
 * either document come back as its diagnostics, never thrown; a document cut short (an
 * `error` diagnostic) makes every URL after the cut look removed or added, so check them
 * before acting on the diff.
 *
 * @example
 * ```ts
 * const diff = await diffSitemaps(
 *   '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>',
 *   '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/b</loc></url></urlset>',
 * );
 * diff.added.map((entry) => entry.loc); // ['https://example.com/b']
 * diff.removed.map((entry) => entry.loc); // ['https://example.com/a']
 * ```
 */
export async function diffSitemaps(
  oldSitemap: SitemapDiffSource,
  newSitemap: SitemapDiffSource,
): Promise<SitemapDiff> {
  const oldReading = await readingOf(oldSitemap);
  // loc -> lastmod (null for none), in the old document's order; entries found in the new
  // one are deleted as they are met, so what is left at the end was removed.
  const remaining = new Map<string, string | null>();
  let oldDuplicates = 0;
  for await (const entry of oldReading) {
    if (remaining.has(entry.loc)) oldDuplicates++;
    else remaining.set(entry.loc, entry.lastmod ?? null);
  }
  const oldCount = remaining.size;

  const newReading = await readingOf(newSitemap);
  const seen = new Set<string>();
  const added: SitemapDiffEntry[] = [];
  const lastmodChanged: SitemapLastmodChange[] = [];
  let newDuplicates = 0;
  let unchanged = 0;
  for await (const entry of newReading) {
    if (seen.has(entry.loc)) {
      newDuplicates++;
      continue;
    }
    seen.add(entry.loc);
    const newLastmod = entry.lastmod ?? null;
    const oldLastmod = remaining.get(entry.loc);
    if (oldLastmod === undefined) {
      added.push(diffEntry(entry.loc, newLastmod));
      continue;
    }
    remaining.delete(entry.loc);
    if (sameLastmod(oldLastmod, newLastmod)) unchanged++;
    else lastmodChanged.push(lastmodChange(entry.loc, oldLastmod, newLastmod));
  }
  const removed = [...remaining].map(([loc, lastmod]) => diffEntry(loc, lastmod));
  return {
    oldKind: oldReading.kind,
    newKind: newReading.kind,
    added,
    removed,
    lastmodChanged,
    counts: {
      old: oldCount,
      new: seen.size,
      added: added.length,
      removed: removed.length,
      lastmodChanged: lastmodChanged.length,
      unchanged,
      oldDuplicates,
      newDuplicates,
    },
    oldDiagnostics: oldReading.diagnostics,
    newDiagnostics: newReading.diagnostics,
  };
}

/** A reading already opened is used as it is; any other input is read with the defaults. */
async function readingOf(source: SitemapDiffSource): Promise<SitemapReading> {
  const opened = typeof source === 'function' ? await source() : source;
  return isReading(opened) ? opened : parseSitemap(opened);
}

function isReading(source: SitemapInput | SitemapReading): source is SitemapReading {
  return (
    typeof source === 'object' &&
    source !== null &&
    !(source instanceof Uint8Array) &&
    !(source instanceof ArrayBuffer) &&
    'kind' in source &&
    'diagnostics' in source &&
    Symbol.asyncIterator in source
  );
}

/**
 * Equal when written the same, or when both have a time of day and name the same instant.
 * A date alone is a whole day, not its first instant, so it never equals a timestamp.
 */
function sameLastmod(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || !a.includes('T') || !b.includes('T')) return false;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}

function diffEntry(loc: string, lastmod: string | null): SitemapDiffEntry {
  return lastmod === null ? { loc } : { loc, lastmod };
}

function lastmodChange(
  loc: string,
  oldLastmod: string | null,
  newLastmod: string | null,
): SitemapLastmodChange {
  return {
    loc,
    ...(oldLastmod === null ? {} : { oldLastmod }),
    ...(newLastmod === null ? {} : { newLastmod }),
  };
}
