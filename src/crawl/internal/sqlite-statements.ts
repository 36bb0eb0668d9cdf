import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { FrontierKind } from '../frontier.ts';
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
}

/** A done item and its result. */
export interface ResultRow {
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
}

const RESULTS_SQL = `
  SELECT coalesce(url, key) AS url, kind, depth, via, status, outcome, reason, lastmod,
         final_url, data, linked, in_sitemap
  FROM urls WHERE state = ${DONE} ORDER BY key`;

/**
 * Every statement the crawl state runs, prepared once. The queries are written to be
 * answered from an index: see the plans in the comments.
 */
export class Statements {
  /** `ON CONFLICT DO NOTHING` on the unique key: changes is 1 when the URL is new. */
  readonly insert: StatementSync;
  readonly markSeen: StatementSync;
  /** Held items whose time has come go back to the queue (index urls_held). */
  readonly requeueDue: StatementSync;
  /** The next origin after `?` with queued items: one seek in urls_queue per origin. */
  readonly nextOrigin: StatementSync;
  /** The head of an origin's queue: one seek in urls_queue. */
  readonly head: StatementSync;
  readonly markInFlight: StatementSync;
  readonly complete: StatementSync;
  readonly release: StatementSync;
  readonly heldUntil: StatementSync;
  readonly requeueInFlight: StatementSync;
  readonly countByState: StatementSync;
  readonly getMeta: StatementSync;
  readonly setMeta: StatementSync;
  readonly getOrigin: StatementSync;
  readonly setOrigin: StatementSync;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.insert = db.prepare(
      `INSERT INTO urls (key, url, origin, kind, priority, depth, via, linked, in_sitemap, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${QUEUED}) ON CONFLICT (key) DO NOTHING`,
    );
    // A URL seen again may be seen a new way (a sitemap URL a link also reaches): keep both.
    this.markSeen = db.prepare(
      `UPDATE urls SET linked = max(linked, ?), in_sitemap = max(in_sitemap, ?)
       WHERE key = ? AND (linked < ? OR in_sitemap < ?)`,
    );
    this.requeueDue = db.prepare(
      `UPDATE urls SET state = ${QUEUED}, not_before = NULL
       WHERE state = ${HELD} AND not_before <= ?`,
    );
    this.nextOrigin = db.prepare(
      `SELECT origin FROM urls WHERE state = ${QUEUED} AND origin > ? ORDER BY origin LIMIT 1`,
    );
    this.head = db.prepare(
      `SELECT id, priority, depth FROM urls WHERE state = ${QUEUED} AND origin = ?
       ORDER BY priority, depth, id LIMIT 1`,
    );
    this.markInFlight = db.prepare(
      `UPDATE urls SET state = ${IN_FLIGHT}, attempts = attempts + 1 WHERE id = ?
       RETURNING id, coalesce(url, key) AS url, origin, kind, priority, depth, via, attempts`,
    );
    this.complete = db.prepare(
      `UPDATE urls SET state = ${DONE}, status = ?, outcome = ?, reason = ?, lastmod = ?,
         final_url = ?, data = ?
       WHERE id = ? AND state = ${IN_FLIGHT}`,
    );
    this.release = db.prepare(
      `UPDATE urls SET state = ?, not_before = ? WHERE id = ? AND state = ${IN_FLIGHT}`,
    );
    this.heldUntil = db.prepare(`SELECT min(not_before) AS at FROM urls WHERE state = ${HELD}`);
    this.requeueInFlight = db.prepare(
      `UPDATE urls SET state = ${QUEUED} WHERE state = ${IN_FLIGHT}`,
    );
    this.countByState = db.prepare('SELECT state, count(*) AS n FROM urls GROUP BY state');
    this.getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.setMeta = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.getOrigin = db.prepare('SELECT data FROM origins WHERE origin = ?');
    this.setOrigin = db.prepare(
      'INSERT INTO origins (origin, data) VALUES (?, ?) ON CONFLICT (origin) DO UPDATE SET data = excluded.data',
    );
  }

  /**
   * A statement of its own for each listing of results, so two listings (or a listing and
   * anything else) never share a cursor. Rows are stepped one at a time as iterated.
   */
  results(): IterableIterator<ResultRow> {
    return this.#db.prepare(RESULTS_SQL).iterate() as unknown as IterableIterator<ResultRow>;
  }
}
