// Rows as the contract's values.
import type { Row } from 'postgres';
import type {
  CrawlRecord,
  CrawlResult,
  FrontierKind,
  HostRobots,
  HostRobotsOutcome,
} from '../crawl-state.ts';
import { parseFacts } from '../internal/report-counts.ts';
import type { CrawlWorker } from './postgres-crawl-state.ts';
import { SITEMAPS_READ } from './schema.ts';

/** The `record` statement's row; null when there is no crawl or `create` was not called. */
export function toRecord(row: Row | undefined): CrawlRecord | null {
  if (row === undefined || row['start'] === null) return null;
  return {
    start: String(row['start']),
    options: String(row['options']),
    gapMs: Number(row['gap_ms']),
    createdAt: Number(row['created_at']),
    sitemapsRead: row['sitemaps'] === SITEMAPS_READ,
    sitemapUrls: Number(row['sitemap_urls']),
    depthCut: Number(row['depth_cut']),
    requested: Number(row['requested']),
    finishedAt: row['finished_at'] === null ? null : Number(row['finished_at']),
  };
}

export function toResult(row: Row): CrawlResult {
  return {
    url: String(row['url']),
    kind: row['kind'] as FrontierKind,
    depth: Number(row['depth']),
    via: row['via'] ?? null,
    status: row['status'] ?? null,
    outcome: row['outcome'] as CrawlResult['outcome'],
    reason: row['reason'] ?? null,
    lastmod: row['lastmod'] ?? null,
    finalUrl: row['final_url'] ?? null,
    data: row['data'] ?? null,
    linked: row['linked'] === true,
    inSitemap: row['in_sitemap'] === true,
    facts: parseFacts(row['facts'] ?? null),
    inlinks: Number(row['inlinks']),
    sitemaps: Number(row['sitemaps']),
    sitemapLastmod: row['sitemap_lastmod'] ?? null,
  };
}

export function toRobots(row: Row): HostRobots {
  return { ...robotsOutcome(row), gapMs: Number(row['gap_ms']) };
}

/** A row of the `robotsOutcomes` statement. */
export function toRobotsOutcome(row: Row): HostRobotsOutcome {
  return { origin: String(row['origin']), ...robotsOutcome(row) };
}

function robotsOutcome(row: Row): Omit<HostRobots, 'gapMs'> {
  const body = row['robots_body'] as Uint8Array | null;
  return {
    status: row['robots_status'] === null ? 'network-error' : Number(row['robots_status']),
    detail: row['robots_detail'] ?? null,
    url: String(row['robots_url']),
    // A plain Uint8Array, not the driver's Buffer.
    body: body === null ? null : new Uint8Array(body),
  };
}

export function toWorker(row: Row): CrawlWorker {
  return {
    id: Number(row['id']),
    hostname: String(row['hostname']),
    pid: Number(row['pid']),
    startedAt: Number(row['started_at']),
    seenAt: Number(row['seen_at']),
    alive: row['alive'] === true,
    requested: Number(row['requested']),
  };
}
