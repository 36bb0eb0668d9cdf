// The SQLite state's insert as it was before the bulk upsert (one statement per URL, a
// second for a new URL that later rows of the call mark again): the reference the bulk
// path is held to, row for row and log entry for log entry (sqlite-queue.test.ts).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { MAX_COUNTED_INLINKS } from '../report-counts.ts';
import type { InsertValues } from '../sqlite-rows.ts';
import { QUEUED } from '../sqlite-schema.ts';

const FOLD_LOGGED = 100_000;
const MAX_SATURATED = 10_000;

interface PendingRow {
  readonly row: InsertValues;
  linked: number;
  inSitemap: number;
  inlinks: number;
  sitemaps: number;
  lastmod: string | null;
  changed: boolean;
}

/** The per-row insert, with its own statements on `db`; queued counts per origin kept. */
export class PerRowInsert {
  /** New URLs per origin, as the hosts were told. */
  readonly queued = new Map<string, number>();
  readonly #insertOrMark: StatementSync;
  readonly #markSeen: StatementSync;
  readonly #maxId: StatementSync;
  readonly #log: StatementSync;
  readonly #fold: StatementSync;
  readonly #clear: StatementSync;
  readonly #saturated = new Set<string>();
  #saturating: string[] = [];
  #logged = 0;
  #loggedCommitted = 0;

  constructor(db: DatabaseSync) {
    this.#insertOrMark = db.prepare(
      `INSERT INTO urls (key, url, origin, kind, priority, depth, via, linked, in_sitemap, redirects,
         inlinks, sitemaps, sitemap_lastmod, state)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ${QUEUED})
       ON CONFLICT (key) DO UPDATE SET linked = max(linked, ?14), in_sitemap = max(in_sitemap, ?15),
         inlinks = min(inlinks + ?16, ${MAX_COUNTED_INLINKS}), sitemaps = sitemaps + ?17,
         sitemap_lastmod = coalesce(sitemap_lastmod, ?18)
       WHERE linked < ?14 OR in_sitemap < ?15 OR ?17 > 0
       RETURNING id, linked, inlinks`,
    );
    this.#markSeen = db.prepare(
      `UPDATE urls SET linked = max(linked, :linked), in_sitemap = max(in_sitemap, :inSitemap),
         inlinks = min(inlinks + :inlinks, ${MAX_COUNTED_INLINKS}), sitemaps = sitemaps + :sitemaps,
         sitemap_lastmod = coalesce(sitemap_lastmod, :lastmod)
       WHERE key = :key AND (linked < :linked OR in_sitemap < :inSitemap
         OR (:inlinks > 0 AND inlinks < ${MAX_COUNTED_INLINKS}) OR :sitemaps > 0)`,
    );
    this.#maxId = db.prepare('SELECT max(id) AS id FROM urls');
    this.#log = db.prepare(
      'INSERT INTO inlink_log (key, n) SELECT value ->> 0, value ->> 1 FROM json_each(?)',
    );
    this.#fold = db.prepare(
      `UPDATE urls SET inlinks = min(urls.inlinks + logged.n, ${MAX_COUNTED_INLINKS})
       FROM (SELECT key, sum(n) AS n FROM inlink_log GROUP BY key) AS logged
       WHERE urls.key = logged.key AND urls.inlinks < ${MAX_COUNTED_INLINKS}
       RETURNING urls.key AS key, urls.linked AS linked, urls.inlinks AS inlinks`,
    );
    this.#clear = db.prepare('DELETE FROM inlink_log');
  }

  insert(rows: readonly InsertValues[]): number {
    const pending = new Map<string, PendingRow>();
    for (const row of rows) {
      const [key, , , , , , , linked, inSitemap, , inlinks, sitemaps, lastmod] = row;
      const known = pending.get(key);
      if (known === undefined) {
        pending.set(key, {
          row,
          linked,
          inSitemap,
          inlinks: 0,
          sitemaps: 0,
          lastmod: null,
          changed: false,
        });
        continue;
      }
      known.changed ||= linked > known.linked || inSitemap > known.inSitemap;
      known.changed ||= inlinks > 0 || sitemaps > 0 || lastmod !== null;
      known.linked = Math.max(known.linked, linked);
      known.inSitemap = Math.max(known.inSitemap, inSitemap);
      known.inlinks += inlinks;
      known.sitemaps += sitemaps;
      known.lastmod ??= lastmod;
    }
    if (pending.size === 0) return 0;
    const before = Number(this.#maxId.get()?.['id'] ?? 0);
    let added = 0;
    const logged: [string, number][] = [];
    for (const [key, marks] of pending) {
      const { row } = marks;
      const inlinks = row[10] + marks.inlinks;
      const sitemaps = row[11] + marks.sitemaps;
      const plainLinks = marks.linked <= 1 && marks.inSitemap <= 0 && sitemaps === 0;
      if (plainLinks && this.#saturated.has(key)) continue;
      const written = this.#insertOrMark.get(
        ...row,
        marks.linked,
        marks.inSitemap,
        inlinks,
        sitemaps,
        row[12] ?? marks.lastmod,
      );
      if (written === undefined) {
        if (inlinks > 0) logged.push([key, inlinks]);
        continue;
      }
      if (Number(written['linked']) >= 1 && Number(written['inlinks']) >= MAX_COUNTED_INLINKS) {
        this.#saturating.push(key);
      }
      const id = written['id'];
      if (typeof id !== 'number' || id <= before) continue;
      added++;
      this.queued.set(row[2], (this.queued.get(row[2]) ?? 0) + 1);
      if (marks.changed) {
        const { linked, inSitemap, inlinks, sitemaps, lastmod } = marks;
        this.#markSeen.run({ key, linked, inSitemap, inlinks, sitemaps, lastmod });
      }
    }
    if (logged.length > 0) {
      this.#log.run(JSON.stringify(logged));
      this.#logged += logged.length;
    }
    if (this.#logged >= FOLD_LOGGED) this.foldInlinks();
    return added;
  }

  foldInlinks(): void {
    if (this.#logged === 0) return;
    for (const row of this.#fold.iterate()) {
      if (Number(row['linked']) >= 1 && Number(row['inlinks']) >= MAX_COUNTED_INLINKS) {
        this.#saturating.push(String(row['key']));
      }
    }
    this.#clear.run();
    this.#logged = 0;
  }

  /** The transaction was rolled back: forget what it learned; `queued` as before it. */
  rollback(queued: ReadonlyMap<string, number>): void {
    this.#saturating = [];
    this.#logged = this.#loggedCommitted;
    this.queued.clear();
    for (const [origin, n] of queued) this.queued.set(origin, n);
  }

  commit(): void {
    this.#loggedCommitted = this.#logged;
    for (const key of this.#saturating) {
      if (this.#saturated.size >= MAX_SATURATED) break;
      this.#saturated.add(key);
    }
    this.#saturating = [];
  }
}
