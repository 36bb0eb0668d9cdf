import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { FrontierKind } from '../crawl-state.ts';
import { MAX_COUNTED_INLINKS } from './report-counts.ts';
import { DONE, HELD, IN_FLIGHT, QUEUED } from './sqlite-schema.ts';

/** An item as it is taken. */
export interface TakenRow {
  readonly id: number;
  readonly url: string;
  readonly origin: string;
  readonly kind: FrontierKind;
  readonly priority: number;
  readonly depth: number;
  readonly via: string | null;
  readonly attempts: number;
  readonly redirects: number;
}

/** Most rows of one {@link Statements.upsert} statement (13 bound values each). */
export const MAX_UPSERT_ROWS = 64;
/** Most rows of one {@link Statements.logInlinks} statement (2 bound values each). */
export const MAX_LOG_ROWS = 256;

/** The columns of an inserted row, in the order of `InsertValues` (sqlite-rows.ts). */
const INSERT_COLUMNS =
  'key, url, origin, kind, priority, depth, via, linked, in_sitemap, redirects, inlinks, sitemaps, sitemap_lastmod';

/** The order `takeHeads` picks its rows in: `ORDER BY priority, depth, id`. */
export function compareTaken(a: TakenRow, b: TakenRow): number {
  return a.priority - b.priority || a.depth - b.depth || a.id - b.id;
}

/** A done item and its result. */
export interface ResultRow {
  /** The normalised URL: where the next page of results starts. */
  readonly key: string;
  readonly url: string;
  readonly kind: FrontierKind;
  readonly depth: number;
  readonly via: string | null;
  readonly status: number | null;
  readonly outcome: 'listed' | 'skipped' | 'error';
  readonly reason: string | null;
  readonly lastmod: string | null;
  readonly final_url: string | null;
  readonly data: string | null;
  readonly linked: number;
  readonly in_sitemap: number;
  readonly inlinks: number;
  readonly sitemaps: number;
  readonly sitemap_lastmod: string | null;
  readonly facts: string | null;
}

/**
 * Every statement the crawl state runs, prepared once. The queries are written to be
 * answered from an index: see the plans in the comments.
 */
export class Statements {
  /** {@link upsert}'s statements by row count, prepared on first use. */
  readonly #upserts = new Map<number, StatementSync>();
  /** {@link logInlinks}' statements by row count, prepared on first use. */
  readonly #logs = new Map<number, StatementSync>();
  readonly #db: DatabaseSync;
  /**
   * A step's transaction: prepared once, as a step runs thousands of them (`exec` compiled
   * the text every time).
   */
  readonly begin: StatementSync;
  readonly commit: StatementSync;
  /** Adds the logged in-links to their rows (capped); returns the rows it changed. */
  readonly foldInlinks: StatementSync;
  readonly clearInlinkLog: StatementSync;
  readonly inlinkLogSize: StatementSync;
  /** The largest id: rows inserted after it have larger ones (no AUTOINCREMENT, no deletes). */
  readonly maxId: StatementSync;
  /** Held items whose time has come go back to the queue (index urls_held). */
  readonly requeueDue: StatementSync;
  /**
   * Puts the best queued items of one origin in flight (one seek in urls_queue, then its next
   * entries) and returns them, in no promised order: the caller sorts them by
   * {@link compareTaken}. One statement per host, not one more per item.
   */
  readonly takeHeads: StatementSync;
  /** Records a result, fenced by the attempt: changes is 0 when the lease was not this one. */
  readonly complete: StatementSync;
  /** Puts an item back, fenced like {@link complete}; returns its origin. */
  readonly release: StatementSync;
  /** The latest `notBefore` of an origin's held items (few rows: index urls_held). */
  readonly heldUntil: StatementSync;
  readonly requeueInFlight: StatementSync;
  readonly countByState: StatementSync;
  /** Queued items per origin, for a resumed state's hosts (urls_queue, in origin order). */
  readonly queuedByOrigin: StatementSync;
  /** Held items per origin and the latest `notBefore` of each. */
  readonly heldByOrigin: StatementSync;
  /** One page of results after a key, in key order (urls_key). */
  readonly results: StatementSync;
  readonly allMeta: StatementSync;
  readonly setMeta: StatementSync;
  /** Sets a meta value unless one is stored. */
  readonly initMeta: StatementSync;
  readonly setRobots: StatementSync;
  readonly allRobots: StatementSync;
  readonly clearSitemapFiles: StatementSync;
  readonly addSitemapFile: StatementSync;
  readonly sitemapFiles: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.foldInlinks = db.prepare(
      `UPDATE urls SET inlinks = min(urls.inlinks + logged.n, ${MAX_COUNTED_INLINKS})
       FROM (SELECT key, sum(n) AS n FROM inlink_log GROUP BY key) AS logged
       WHERE urls.key = logged.key AND urls.inlinks < ${MAX_COUNTED_INLINKS}
       RETURNING urls.key AS key, urls.linked AS linked, urls.inlinks AS inlinks`,
    );
    this.clearInlinkLog = db.prepare('DELETE FROM inlink_log');
    this.inlinkLogSize = db.prepare('SELECT count(*) AS n FROM inlink_log');
    this.maxId = db.prepare('SELECT max(id) AS id FROM urls');
    this.requeueDue = db.prepare(
      `UPDATE urls SET state = ${QUEUED}, not_before = NULL
       WHERE state = ${HELD} AND not_before <= ?`,
    );
    this.takeHeads = db.prepare(
      `UPDATE urls SET state = ${IN_FLIGHT}, attempts = attempts + 1
       WHERE id IN (SELECT id FROM urls WHERE state = ${QUEUED} AND origin = ?
         ORDER BY priority, depth, id LIMIT ?)
       RETURNING id, coalesce(url, key) AS url, origin, kind, priority, depth, via, attempts,
         redirects`,
    );
    this.complete = db.prepare(
      `UPDATE urls SET state = ${DONE}, status = ?, outcome = ?, reason = ?, lastmod = ?,
         final_url = ?, data = ?, facts = ?
       WHERE id = ? AND state = ${IN_FLIGHT} AND attempts = ?`,
    );
    this.release = db.prepare(
      `UPDATE urls SET state = ?, not_before = ?
       WHERE id = ? AND state = ${IN_FLIGHT} AND attempts = ? RETURNING origin`,
    );
    this.heldUntil = db.prepare(
      `SELECT max(not_before) AS at FROM urls WHERE state = ${HELD} AND origin = ?`,
    );
    this.requeueInFlight = db.prepare(
      `UPDATE urls SET state = ${QUEUED} WHERE state = ${IN_FLIGHT} RETURNING origin`,
    );
    this.countByState = db.prepare('SELECT state, count(*) AS n FROM urls GROUP BY state');
    this.queuedByOrigin = db.prepare(
      `SELECT origin, count(*) AS n FROM urls WHERE state = ${QUEUED} GROUP BY origin`,
    );
    this.heldByOrigin = db.prepare(
      `SELECT origin, count(*) AS n, max(not_before) AS at FROM urls WHERE state = ${HELD}
       GROUP BY origin`,
    );
    this.results = db.prepare(
      `SELECT key, coalesce(url, key) AS url, kind, depth, via, status, outcome, reason, lastmod,
         final_url, data, linked, in_sitemap, inlinks, sitemaps, sitemap_lastmod, facts
       FROM urls WHERE state = ${DONE} AND key > ? ORDER BY key LIMIT ?`,
    );
    this.allMeta = db.prepare('SELECT key, value FROM meta');
    this.setMeta = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.initMeta = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
    );
    this.setRobots = db.prepare(
      `INSERT INTO robots (origin, status, detail, url, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (origin) DO UPDATE SET status = excluded.status, detail = excluded.detail,
         url = excluded.url, body = excluded.body`,
    );
    this.allRobots = db.prepare(
      'SELECT origin, status, detail, url, body FROM robots ORDER BY origin',
    );
    this.clearSitemapFiles = db.prepare('DELETE FROM sitemap_files');
    this.addSitemapFile = db.prepare('INSERT INTO sitemap_files (record) VALUES (?)');
    this.sitemapFiles = db.prepare('SELECT record FROM sitemap_files ORDER BY id');
  }

  /**
   * The statement that inserts `count` rows, each 13 values in `InsertValues` order (sqlite-rows.ts),
   * `count` a power of two up to {@link MAX_UPSERT_ROWS}. Rows are inserted in the order
   * given (ids grow with it, as with one statement per row); a row whose key is known
   * updates that row instead, with the marks and counts it carries: `linked` and
   * `in_sitemap` raised to its own, its `inlinks` added (capped), `sitemaps` added, a
   * missing `sitemap_lastmod` filled; but only when that changes more than the in-links
   * (else nothing is written, and the caller logs them). Returns `key, id, linked, inlinks`
   * of every row inserted or changed, in no promised order. The keys of one call must be
   * distinct.
   */
  /**
   * The statement that appends `count` rows to `inlink_log`, each `key, in-links`: in-links
   * to known URLs whose rows nothing else changes, logged instead of raising `urls.inlinks`
   * in place (see `SqliteQueue.insert`). `count` a power of two up to {@link MAX_LOG_ROWS};
   * rows are appended in the order given. Bound values, not a JSON text read by
   * `json_each`: nothing to build or parse per pair.
   */
  logInlinks(count: number): StatementSync {
    let statement = this.#logs.get(count);
    if (statement === undefined) {
      const rows = Array.from({ length: count }, () => '(?, ?)').join(', ');
      statement = this.#db.prepare(`INSERT INTO inlink_log (key, n) VALUES ${rows}`);
      this.#logs.set(count, statement);
    }
    return statement;
  }

  upsert(count: number): StatementSync {
    let statement = this.#upserts.get(count);
    if (statement === undefined) {
      const row = `(${Array.from({ length: 13 }, () => '?').join(', ')}, ${QUEUED})`;
      statement = this.#db.prepare(
        `INSERT INTO urls (${INSERT_COLUMNS}, state)
         VALUES ${Array.from({ length: count }, () => row).join(', ')}
         ON CONFLICT (key) DO UPDATE SET linked = max(linked, excluded.linked),
           in_sitemap = max(in_sitemap, excluded.in_sitemap),
           inlinks = min(inlinks + excluded.inlinks, ${MAX_COUNTED_INLINKS}),
           sitemaps = sitemaps + excluded.sitemaps,
           sitemap_lastmod = coalesce(sitemap_lastmod, excluded.sitemap_lastmod)
         WHERE linked < excluded.linked OR in_sitemap < excluded.in_sitemap
           OR excluded.sitemaps > 0
         RETURNING key, id, linked, inlinks`,
      );
      statement.setReturnArrays(true);
      this.#upserts.set(count, statement);
    }
    return statement;
  }
}
