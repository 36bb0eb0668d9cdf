import { WaymarkError } from '../../shared/waymark-error.ts';
import type { CrawlResult, FrontierItem, TakenItem } from '../frontier.ts';
import type { ResultRow, TakenRow } from './sqlite-statements.ts';

const KINDS = new Set(['robots', 'sitemap', 'page']);

/** The values bound by the insert statement, in its column order. */
export type InsertValues = [
  key: string,
  url: string | null,
  origin: string,
  kind: string,
  priority: number,
  depth: number,
  via: string | null,
  linked: number,
  inSitemap: number,
];

/**
 * The dedupe key of a URL when the caller gives no normaliser: the WHATWG serialisation
 * without the fragment.
 */
export function defaultNormalizeUrl(url: string): string {
  if (!URL.canParse(url)) {
    throw new WaymarkError('invalid-argument', `frontier URL is not absolute: ${url}`);
  }
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * The insert values of an item, checked; `url` is stored only when it differs from its key,
 * which is rare, so most rows hold the URL once.
 */
export function insertValues(item: FrontierItem, key: string): InsertValues {
  checkItem(item);
  const { url, origin, kind, priority, depth, via } = item;
  // A page is reached by a link (or is the start page); a sitemap item is named by a sitemap.
  const linked = kind === 'page' ? 1 : 0;
  const inSitemap = kind === 'sitemap' ? 1 : 0;
  return [key, url === key ? null : url, origin, kind, priority, depth, via, linked, inSitemap];
}

function checkItem(item: FrontierItem): void {
  const problem =
    typeof item.url !== 'string'
      ? 'url must be a string'
      : typeof item.origin !== 'string' || item.origin === ''
        ? 'origin must be a non-empty string'
        : !Number.isFinite(item.priority)
          ? 'priority must be a finite number'
          : !Number.isSafeInteger(item.depth) || item.depth < 0
            ? 'depth must be an integer >= 0'
            : !KINDS.has(item.kind)
              ? 'kind must be robots, sitemap or page'
              : item.via !== null && typeof item.via !== 'string'
                ? 'via must be a string or null'
                : null;
  if (problem !== null) {
    throw new WaymarkError('invalid-argument', `frontier item ${problem}: ${String(item.url)}`);
  }
}

export function toTakenItem(row: TakenRow): TakenItem {
  const { id, url, origin, kind, priority, depth, via, attempts } = row;
  return { url, origin, priority, depth, via, kind, id, attempt: attempts };
}

export function toResult(row: ResultRow): CrawlResult {
  const { url, kind, depth, via, status, outcome, reason, lastmod, data } = row;
  return {
    url,
    kind,
    depth,
    via,
    status,
    outcome,
    reason,
    lastmod,
    finalUrl: row.final_url,
    data,
    linked: row.linked === 1,
    inSitemap: row.in_sitemap === 1,
  };
}

export function notInFlight(item: TakenItem): WaymarkError {
  return new WaymarkError('invalid-argument', `frontier item is not in flight: ${item.url}`);
}
