// What a crawl state keeps for the crawl report beside each URL's outcome: how often links
// and sitemaps named it, and what its response said (ResponseFacts). Shared by both states,
// so they count alike.
import type { FrontierItem, ResponseFacts, SitemapFileRecord } from '../crawl-state.ts';

/**
 * In-links are counted up to this many: a URL linked from every page (a menu's) would
 * otherwise cost a row write per page crawled, for a number no reader needs exactly. The
 * report shows it as 1,000+.
 */
export const MAX_COUNTED_INLINKS = 1000;

/** Longest sitemap `<lastmod>` kept: a W3C Datetime is at most 35 characters. */
const MAX_LASTMOD = 64;

/** What adding an item counts for its URL: see `CrawlState.add`. */
export interface ItemCounts {
  /** 1 for a link from a crawled page (a page item with a via, not a redirect's target). */
  readonly inlinks: 0 | 1;
  /** 1 for an entry of a sitemap (a sitemap item that is not a redirect's target). */
  readonly sitemaps: 0 | 1;
  /** The sitemap entry's `<lastmod>`, when it is one. */
  readonly sitemapLastmod: string | null;
}

export function itemCounts(item: FrontierItem): ItemCounts {
  const direct = (item.redirects ?? 0) === 0;
  const named = direct && item.kind === 'sitemap';
  const lastmod = named && typeof item.lastmod === 'string' ? item.lastmod : null;
  return {
    inlinks: direct && item.kind === 'page' && item.via !== null ? 1 : 0,
    sitemaps: named ? 1 : 0,
    sitemapLastmod: lastmod !== null && lastmod.length <= MAX_LASTMOD ? lastmod : null,
  };
}

/** A result's facts as stored (JSON text), or null. Only the known fields, type-checked. */
export function factsText(facts: ResponseFacts | null | undefined): string | null {
  if (facts === null || facts === undefined) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const ms = Number.isFinite(facts.ms) ? Math.max(0, Math.round(facts.ms as number)) : null;
  const kept: ResponseFacts = {
    title: text(facts.title),
    contentType: text(facts.contentType),
    lastModified: text(facts.lastModified),
    ms,
  };
  return JSON.stringify(kept);
}

/** Stored facts back; null for none or for text that is not what {@link factsText} wrote. */
export function parseFacts(stored: string | null): ResponseFacts | null {
  if (stored === null) return null;
  try {
    const value = JSON.parse(stored) as Record<string, unknown>;
    if (typeof value !== 'object' || value === null) return null;
    const text = (field: string) => (typeof value[field] === 'string' ? value[field] : null);
    const ms = value['ms'];
    return {
      title: text('title'),
      contentType: text('contentType'),
      lastModified: text('lastModified'),
      ms: typeof ms === 'number' && Number.isFinite(ms) ? ms : null,
    };
  } catch {
    return null;
  }
}

/** A sitemap file record back from its stored JSON; null when it is not one. */
export function parseSitemapFile(stored: string): SitemapFileRecord | null {
  try {
    const value = JSON.parse(stored) as SitemapFileRecord;
    return typeof value === 'object' && value !== null && typeof value.url === 'string'
      ? value
      : null;
  } catch {
    return null;
  }
}
