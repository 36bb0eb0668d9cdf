// The sitemap files a crawl's reading went through, kept for the crawl report: stored with
// the mark that the sitemaps are read (see `settleSitemaps`), one row each, JSON text.
import type { Row, Sql } from 'postgres';
import type { SitemapFileRecord } from '../crawl-state.ts';
import { parseSitemapFile } from '../internal/report-counts.ts';
import { run } from './calls.ts';
import { transaction } from './connection.ts';

/**
 * Characters of records per statement: a site can name tens of thousands of sitemaps, each
 * with up to 100 diagnostics, more than one parameter should carry.
 */
const CHUNK_CHARS = 4_000_000;
/** Records read per query. */
const READ_PAGE = 1000;

/** The statements used here (see statements.ts). */
interface SitemapFileStatements {
  readonly sitemapsRead: string;
  readonly moreSitemapFiles: string;
}

/**
 * Marks the crawl's sitemaps read, with `sitemapUrls` URLs, and stores `records` (JSON) in
 * the same transaction, unless they are marked read already: then nothing changes (the
 * reading that finished first is kept). Run again after a commit in doubt, it finds them
 * read and stores nothing twice.
 */
export function storeSitemapFiles(
  sql: Sql,
  q: SitemapFileStatements,
  crawl: number,
  sitemapUrls: number,
  records: readonly string[],
): Promise<void> {
  const chunks = chunked(records);
  return transaction(sql, async (tx) => {
    const marked = await run(tx, q.sitemapsRead, [crawl, sitemapUrls, chunks[0] ?? []]);
    if (marked.length === 0) return;
    let first = (chunks[0]?.length ?? 0) + 1;
    for (const chunk of chunks.slice(1)) {
      await run(tx, q.moreSitemapFiles, [crawl, first, chunk]);
      first += chunk.length;
    }
  });
}

function chunked(records: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const record of records) {
    if (chunk.length > 0 && chars + record.length > CHUNK_CHARS) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(record);
    chars += record.length;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Every stored record in order, a page per `read(after, limit)` (after: the last `ord`). */
export async function readSitemapFiles(
  read: (after: number, limit: number) => Promise<Row[]>,
): Promise<SitemapFileRecord[]> {
  const files: SitemapFileRecord[] = [];
  let after = 0;
  for (;;) {
    const rows = await read(after, READ_PAGE);
    for (const row of rows) {
      const file = parseSitemapFile(String(row['record']));
      if (file !== null) files.push(file);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < READ_PAGE) return files;
    after = Number(last['ord']);
  }
}
