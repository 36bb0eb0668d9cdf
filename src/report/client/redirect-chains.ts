// Redirect chains, rebuilt from the rows: a redirecting row's `detail` is its target, and the
// target is a row of its own when the crawl followed it.
import { COL, type PageRow, REDIRECT_REASONS } from './page-columns.ts';

/** Hops followed before a chain is cut (a loop is cut where it closes). */
export const MAX_CHAIN_HOPS = 20;

export interface RedirectChain {
  /** Row index of the URL the chain starts at. */
  readonly start: number;
  /** Every URL in order, the start first and the last target last. */
  readonly urls: readonly string[];
  /** Redirects followed: `urls.length - 1`. */
  readonly hops: number;
  /** How it ends: the last URL's status, `loop`, `cut` (too long), or `unknown` (never fetched). */
  readonly end: string;
}

/** Every redirecting row whose chain takes more than one hop, longest first (ties in row order). */
export function redirectChains(pages: readonly PageRow[]): RedirectChain[] {
  const byUrl = new Map<string, PageRow>();
  for (const row of pages) byUrl.set(row[COL.url], row);
  const chains: RedirectChain[] = [];
  pages.forEach((row, start) => {
    if (!isRedirect(row)) return;
    const urls = [row[COL.url]];
    const seen = new Set(urls);
    let current: PageRow | undefined = row;
    let end = 'unknown';
    while (current !== undefined && isRedirect(current)) {
      const target = current[COL.detail];
      if (target === null) break;
      urls.push(target);
      if (seen.has(target)) {
        end = 'loop';
        break;
      }
      if (urls.length > MAX_CHAIN_HOPS) {
        end = 'cut';
        break;
      }
      seen.add(target);
      current = byUrl.get(target);
      if (current === undefined) end = 'unknown';
      else if (!isRedirect(current)) end = current[COL.status]?.toString() ?? 'none';
    }
    if (urls.length > 2) chains.push({ start, urls, hops: urls.length - 1, end });
  });
  return chains.sort((a, b) => b.hops - a.hops || a.start - b.start);
}

function isRedirect(row: PageRow): boolean {
  const reason = row[COL.reason];
  return reason !== null && REDIRECT_REASONS.has(reason) && row[COL.detail] !== null;
}
