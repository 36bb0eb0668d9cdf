// The rows of one `SqliteQueue.insert` call as the upsert binds them: a URL's first row with
// the marks and counts of all its rows, written straight into the statement's parameters.
import type { SQLInputValue } from 'node:sqlite';
import { MAX_COUNTED_INLINKS } from './report-counts.ts';
import type { InsertValues } from './sqlite-rows.ts';

/** Values bound per row of the upsert (the columns of `InsertValues`). */
export const UPSERT_VALUES = 13;

/**
 * The rows of one insert call for one URL: its first row, and the marks and counts of all
 * of them (the first's included), which are what a known row is raised by and a new row
 * starts with.
 */
export interface PendingRow {
  readonly row: InsertValues;
  /** The largest of every row's. */
  linked: number;
  inSitemap: number;
  /** The sums of every row's (uncapped: the log keeps them so). */
  inlinks: number;
  sitemaps: number;
  /** The first row's, else the first of the later rows'. */
  lastmod: string | null;
  /** What the upsert returned for it; null when it wrote nothing. */
  written: WrittenRow | null;
  /** Known linked (no upsert ran for it). */
  remembered: boolean;
}

/** `key, id, linked, inlinks` of a row the upsert inserted or changed. */
export type WrittenRow = [key: string, id: number, linked: number, inlinks: number];

/** Rows in the next statement: the largest power of two up to the rows left and `most`. */
export function chunkSize(left: number, most: number): number {
  let size = most;
  while (size > left) size >>= 1;
  return size;
}

/**
 * A URL's values for the upsert: its first row's, with the marks and counts of all its rows.
 * As the insert of the first row followed by the update with the later rows' marks was:
 * that update changed a new row exactly when a later row raised `linked` or `in_sitemap` or
 * carried in-links or a sitemap entry (a row carries at most one in-link, below the cap),
 * and then to these values; when it did not, these values are the first row's. For a
 * known row the in-links added are capped: min(a + min(n, cap), cap) = min(a + n, cap).
 */
export function setUpsertValues(values: SQLInputValue[], at: number, marks: PendingRow): void {
  const { row } = marks;
  for (let i = 0; i < 7; i++) values[at + i] = row[i] as SQLInputValue;
  values[at + 7] = marks.linked;
  values[at + 8] = marks.inSitemap;
  values[at + 9] = row[9];
  values[at + 10] = Math.min(marks.inlinks, MAX_COUNTED_INLINKS);
  values[at + 11] = marks.sitemaps;
  values[at + 12] = marks.lastmod;
}
