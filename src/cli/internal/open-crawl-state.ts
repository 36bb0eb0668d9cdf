import { existsSync } from 'node:fs';
import {
  type CrawlRecord,
  type CrawlState,
  openPostgresCrawlState,
  openSqliteCrawlState,
  type PostgresCrawlState,
} from '../../crawl/index.ts';
import { WaymarkError } from '../../shared/waymark-error.ts';
import type { StateLocation } from './crawl-state-location.ts';

/** Options of {@link openCrawlStateAt}. */
export interface OpenStateOptions {
  /** A worker silent this long is taken for dead (PostgreSQL). */
  readonly workerTimeoutMs?: number | undefined;
  /** Told of each wait while the database is away. */
  readonly onRetry?: ((error: Error, waitMs: number) => void) | undefined;
}

/**
 * Opens an existing crawl's state to read it (`crawl status`, `crawl export`, `report`): an
 * SQLite file read-only, never changed (it may be one this process can only read), or a
 * crawl in PostgreSQL. The crawl must exist.
 */
export async function openExistingCrawl(
  location: Exclude<StateLocation, { kind: 'temporary' }>,
  options: OpenStateOptions = {},
): Promise<{ state: CrawlState; record: CrawlRecord; postgres: PostgresCrawlState | null }> {
  // Opening a file that is not there would create it, and leave an empty state behind.
  if (location.kind === 'sqlite' && !existsSync(location.path)) {
    throw new WaymarkError('invalid-argument', `no crawl state at ${location.path}`);
  }
  const postgres = location.kind === 'postgres' ? await openPostgresAt(location, options) : null;
  const state: CrawlState =
    location.kind === 'postgres'
      ? (postgres as PostgresCrawlState)
      : openSqliteCrawlState(location.path, { resume: true, readOnly: true });
  try {
    const record = await state.crawl();
    if (record === null) {
      throw new WaymarkError(
        'invalid-argument',
        location.kind === 'postgres'
          ? `no crawl named "${location.crawl}" in ${location.display}`
          : `the crawl state holds no crawl: ${location.path}`,
      );
    }
    return { state, record, postgres };
  } catch (error) {
    await state.close();
    throw error;
  }
}

/** Opens the named crawl in PostgreSQL (creating waymark's schema on first use). */
export function openPostgresAt(
  location: Extract<StateLocation, { kind: 'postgres' }>,
  options: OpenStateOptions = {},
): Promise<PostgresCrawlState> {
  return openPostgresCrawlState({
    connection: location.connection,
    crawl: location.crawl,
    ...(options.workerTimeoutMs === undefined ? {} : { workerTimeoutMs: options.workerTimeoutMs }),
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
  });
}

/** The sitemap extensions a crawl kept, from its stored options. */
export function storedExtensions(record: CrawlRecord): ('xhtml' | 'image')[] {
  let options: unknown;
  try {
    options = JSON.parse(record.options);
  } catch {
    return [];
  }
  const flag = (key: string) =>
    typeof options === 'object' &&
    options !== null &&
    (options as Record<string, unknown>)[key] === true;
  return [
    ...(flag('hreflang') ? (['xhtml'] as const) : []),
    ...(flag('images') ? (['image'] as const) : []),
  ];
}
