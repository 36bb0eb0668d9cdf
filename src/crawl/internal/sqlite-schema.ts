import type { DatabaseSync } from 'node:sqlite';
import { WaymarkError } from '../../shared/waymark-error.ts';

/** `PRAGMA application_id` of a waymark crawl state: `WYMC`. */
export const APPLICATION_ID = 0x57594d43;
/**
 * `PRAGMA user_version`: the schema version, raised on any incompatible change. 3: the crawl
 * record in `meta` (counters `requested` and `depth-cut` kept there), no `origins` table,
 * `urls.redirects`. 4: what the crawl report reads (`urls.inlinks`, `sitemaps`,
 * `sitemap_lastmod`, `facts`; the `robots` and `sitemap_files` tables). 5: `inlink_log`
 * (a version-4 file is migrated when resumed).
 */
export const SCHEMA_VERSION = 5;

const SQLITE_BUSY = 5;
const SQLITE_NOTADB = 26;

/** Item states, as stored. */
export const QUEUED = 0;
export const IN_FLIGHT = 1;
export const DONE = 2;
/** Released with a `notBefore` still ahead; queued again by the first step after it. */
export const HELD = 3;

// One row per URL ever added; the row is the item, its state and, once done, its result, so
// recording a result is one UPDATE and an item is in exactly one state at any instant.
// `id` (the rowid) is the FIFO order. `url` is NULL when the URL as added equals its
// normalised `key`, which is the common case and halves the space taken by URLs.
// The partial indexes hold only queued and held rows, so they stay small however many
// URLs are done, and taking an item (which moves it out of them) is cheap. Hosts are not
// stored: one process owns the file and keeps them in memory (see host-table.ts); only
// their robots.txt outcomes are written down (`robots`), for the crawl report, never read
// back by a crawl (a resume fetches robots.txt again). `facts` is JSON (ResponseFacts).
// `inlink_log`: links to known URLs, appended (see SqliteQueue.insert) and added to
// `urls.inlinks` in bulk; raising `inlinks` in place wrote a database page per link.
const INLINK_LOG = 'CREATE TABLE inlink_log (key TEXT NOT NULL, n INTEGER NOT NULL);';
const SCHEMA = `
CREATE TABLE urls (
  id          INTEGER PRIMARY KEY,
  key         TEXT    NOT NULL,
  url         TEXT,
  origin      TEXT    NOT NULL,
  kind        TEXT    NOT NULL,
  priority    NUMERIC NOT NULL,
  depth       INTEGER NOT NULL,
  redirects   INTEGER NOT NULL DEFAULT 0,
  via         TEXT,
  state       INTEGER NOT NULL,
  not_before  INTEGER,
  attempts    INTEGER NOT NULL DEFAULT 0,
  status      INTEGER,
  outcome     TEXT,
  reason      TEXT,
  lastmod     TEXT,
  final_url   TEXT,
  data        TEXT,
  linked      INTEGER NOT NULL DEFAULT 0,
  in_sitemap  INTEGER NOT NULL DEFAULT 0,
  inlinks     INTEGER NOT NULL DEFAULT 0,
  sitemaps    INTEGER NOT NULL DEFAULT 0,
  sitemap_lastmod TEXT,
  facts       TEXT
);
CREATE UNIQUE INDEX urls_key ON urls (key);
CREATE INDEX urls_queue ON urls (origin, priority, depth, id) WHERE state = ${QUEUED};
CREATE INDEX urls_held ON urls (not_before) WHERE state = ${HELD};
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE robots (
  origin TEXT PRIMARY KEY,
  status INTEGER,
  detail TEXT,
  url    TEXT NOT NULL,
  body   BLOB
) WITHOUT ROWID;
CREATE TABLE sitemap_files (id INTEGER PRIMARY KEY, record TEXT NOT NULL);
${INLINK_LOG}
PRAGMA application_id = ${APPLICATION_ID};
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** Bytes per database page, for a new file: see {@link prepareDatabase}. */
const PAGE_SIZE = 1024;
/** WAL pages (8 MiB) after which they are copied into the database: see {@link prepareDatabase}. */
const WAL_CHECKPOINT_PAGES = 8192;

/** How often the WAL is flushed to disk: see {@link prepareDatabase}. */
export type Synchronous = 'normal' | 'full';

/**
 * Sets up a freshly opened connection and its schema. Returns whether an earlier crawl was
 * kept (only with `resume`).
 *
 * - `locking_mode = EXCLUSIVE`, set before WAL is entered: the connection holds the file
 *   locked until it closes, so a second crawler on the same state fails at once instead of
 *   taking the same items; and the WAL index lives in memory (no `-shm` file).
 * - `journal_mode = WAL`: a commit appends to the `-wal` file, a crash mid-write leaves a
 *   torn tail that the next open ignores, and the database is never half-updated.
 * - `synchronous = NORMAL` (default): no fsync per commit. A commit has been written to the
 *   OS by the time it returns, so it survives the process being killed (`kill -9`, OOM);
 *   only an OS crash or power loss can lose the last commits (never corrupt the file).
 *   `FULL` fsyncs every commit to survive power loss too, at a large cost per commit.
 * - `page_size = 1024` for a new file (an existing one keeps its own): recording a result
 *   rewrites the pages that hold its row and index entries, and with 1 KiB pages instead of
 *   the default 4 KiB a crawl writes a third fewer bytes per page crawled.
 * - `wal_autocheckpoint` at 8 MiB of WAL instead of 1 MiB: a page changed many times between
 *   checkpoints is copied into the database once; about a third fewer bytes again.
 */
export function prepareDatabase(
  db: DatabaseSync,
  name: string,
  resume: boolean,
  synchronous: Synchronous,
): boolean {
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  // Only a new file takes it; see the list above.
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  const mode = db.prepare('PRAGMA journal_mode = WAL').get()?.['journal_mode'];
  if (mode !== 'wal') {
    throw new WaymarkError(
      'io-failed',
      `crawl state cannot use WAL (got ${String(mode)}): ${name}`,
    );
  }
  db.exec(`PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // A small fixed page cache (2 MiB): memory stays flat however large the state grows. The
  // crawl's reads are index seeks; pages not cached come from the OS's file cache, which is
  // not this process's memory. 16 MiB measured no faster on a 20,000-page crawl.
  db.exec('PRAGMA cache_size = -2048');

  const { empty, applicationId, version } = storedSchema(db);
  if (!empty && applicationId !== APPLICATION_ID) {
    throw new WaymarkError(
      'invalid-argument',
      `not a waymark crawl state, refusing to overwrite it: ${name}`,
    );
  }
  if (!empty && resume && version === 4) migrateFrom4(db);
  else if (!empty && resume && version !== SCHEMA_VERSION) {
    throw new WaymarkError(
      'invalid-argument',
      `crawl state has schema version ${version}, this waymark reads ${SCHEMA_VERSION}; start afresh without resume: ${name}`,
    );
  }
  if (!empty && resume) return true;

  db.exec('BEGIN IMMEDIATE');
  try {
    // Every table of an earlier crawl, whatever its schema version.
    const rows = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all();
    for (const row of rows) db.exec(`DROP TABLE "${String(row['name']).replaceAll('"', '""')}"`);
    db.exec(SCHEMA);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  // Give the pages of a dropped crawl back to the file system.
  if (!empty) db.exec('VACUUM');
  return false;
}

/**
 * Checks a connection opened read-only: a waymark crawl state of this schema version,
 * holding a crawl. Nothing is set that would write: the file may be one this process can
 * only read, and a state a running crawl holds fails to read (`SQLITE_BUSY`).
 */
export function checkForReading(db: DatabaseSync, name: string): void {
  db.exec('PRAGMA cache_size = -2048');
  const { empty, applicationId, version } = storedSchema(db);
  if (empty) {
    throw new WaymarkError('invalid-argument', `the crawl state holds no crawl: ${name}`);
  }
  if (applicationId !== APPLICATION_ID) {
    throw new WaymarkError('invalid-argument', `not a waymark crawl state: ${name}`);
  }
  if (version !== SCHEMA_VERSION) {
    throw new WaymarkError(
      'invalid-argument',
      `crawl state has schema version ${version}, this waymark reads ${SCHEMA_VERSION}${version === 4 ? ' (resuming the crawl brings it up to date)' : ''}: ${name}`,
    );
  }
}

/** What a file holds: no table yet (new or empty), and its application id and version. */
function storedSchema(db: DatabaseSync): {
  empty: boolean;
  applicationId: number;
  version: number;
} {
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get();
  return {
    empty: tables?.['n'] === 0,
    applicationId: pragmaNumber(db, 'application_id'),
    version: pragmaNumber(db, 'user_version'),
  };
}

/**
 * Version 4 to 5: the in-link log, empty (version 4 counted in-links in place). A waymark
 * that reads 4 refuses the file afterwards, as it would not read the log.
 */
function migrateFrom4(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`${INLINK_LOG}
      PRAGMA user_version = ${SCHEMA_VERSION};`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function pragmaNumber(db: DatabaseSync, pragma: string): number {
  const value = db.prepare(`PRAGMA ${pragma}`).get()?.[pragma];
  return typeof value === 'number' ? value : 0;
}

/** True for an error thrown by `node:sqlite`. */
export function isSqliteError(error: unknown): error is Error & { errcode: number } {
  return error instanceof Error && (error as { code?: unknown }).code === 'ERR_SQLITE_ERROR';
}

/** An error met while opening `file`, as a {@link WaymarkError} that says what went wrong. */
export function openError(error: unknown, file: string): unknown {
  if (error instanceof WaymarkError || !isSqliteError(error)) return error;
  const reason =
    error.errcode === SQLITE_BUSY
      ? 'crawl state is in use by another process'
      : error.errcode === SQLITE_NOTADB
        ? 'not a waymark crawl state'
        : `cannot open crawl state (${error.message})`;
  const code = error.errcode === SQLITE_NOTADB ? 'invalid-argument' : 'io-failed';
  return new WaymarkError(code, `${reason}: ${file}`, { cause: error });
}
