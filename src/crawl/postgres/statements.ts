// Every statement the PostgreSQL crawl state runs. Values are always parameters ($n), lists
// are arrays unnested on the server, so a batch of any size is one statement. `@.` is the
// schema (see inSchema). Common parameters: $1 the crawl's id, $2 this worker's id.

import { ADD_SQL } from './add-statements.ts';
import {
  DONE,
  IN_FLIGHT,
  QUEUED,
  ROBOTS_CLAIMED,
  ROBOTS_KNOWN,
  ROBOTS_NONE,
  SITEMAPS_CLAIMED,
  SITEMAPS_GIVEN_UP,
  SITEMAPS_READ,
  SITEMAPS_UNCLAIMED,
} from './schema.ts';

/**
 * The database's clock in epoch ms. `statement_timestamp()` is stable within a statement, so
 * the planner can use it as an index bound (`next_at <= NOW`); `clock_timestamp()` could not.
 * Every worker reads the same clock, so machines whose clocks disagree still agree on turns.
 */
const NOW = '(extract(epoch FROM statement_timestamp()) * 1000)::bigint';

/**
 * A worker that is neither closed nor silent for longer than its own workerTimeoutMs (never
 * the caller's: a worker with a short timeout must not take one with a long one for dead).
 */
const liveWorker = (id: string) =>
  `EXISTS (SELECT 1 FROM @.workers w WHERE w.id = ${id} AND w.closed_at IS NULL
     AND w.seen_at >= ${NOW} - w.timeout_ms)`;

/** Nothing of the crawl $1 is in flight, and no robots.txt fetch is claimed. */
const NOTHING_UNDER_WAY = `
  NOT EXISTS (SELECT 1 FROM @.urls WHERE crawl = $1 AND state = ${IN_FLIGHT})
  AND NOT EXISTS (SELECT 1 FROM @.hosts WHERE crawl = $1 AND robots = ${ROBOTS_CLAIMED})`;

/**
 * The crawl $1 has nothing left: nothing queued or in flight, no robots.txt claimed. (Queued
 * is asked in two halves, each answered by one of the partial indexes on hosts.)
 */
const NOTHING_LEFT = `${NOTHING_UNDER_WAY}
  AND NOT EXISTS (SELECT 1 FROM @.hosts WHERE crawl = $1 AND queued > 0 AND robots = ${ROBOTS_KNOWN})
  AND NOT EXISTS (SELECT 1 FROM @.hosts WHERE crawl = $1 AND queued > 0 AND robots <> ${ROBOTS_KNOWN})`;

const SITEMAPS_SETTLED = `sitemaps IN (${SITEMAPS_READ}, ${SITEMAPS_GIVEN_UP})`;

export const SQL = {
  crawlId: 'SELECT id FROM @.crawls WHERE name = $1',
  /** The crawl's row, made when missing (its record stays empty until `create`). */
  ensureCrawl: `INSERT INTO @.crawls (name) VALUES ($1)
    ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
  create: `UPDATE @.crawls SET start = $2, options = $3, gap_ms = $4::float8, created_at = ${NOW}
    WHERE id = $1 AND start IS NULL`,
  record: `SELECT c.start, c.options, c.gap_ms, c.created_at, c.sitemaps, c.sitemap_urls,
      c.finished_at,
      (SELECT coalesce(sum(w.requested), 0)::bigint FROM @.workers w WHERE w.crawl = c.id) AS requested,
      (SELECT coalesce(sum(w.depth_cut), 0)::bigint FROM @.workers w WHERE w.crawl = c.id) AS depth_cut
    FROM @.crawls c WHERE c.name = $1`,

  /** $4: the worker's own workerTimeoutMs, by which every other worker judges it. */
  register: `INSERT INTO @.workers (crawl, hostname, pid, timeout_ms, started_at, seen_at)
    VALUES ($1, $2, $3, $4::bigint, ${NOW}, ${NOW}) RETURNING id`,
  heartbeat: `UPDATE @.workers SET seen_at = ${NOW} WHERE id = $1 AND closed_at IS NULL`,
  /** What the call `$2` of worker $1 committed, if it did. */
  lastResult: 'SELECT last_result FROM @.workers WHERE id = $1 AND last_op = $2',
  /** Ends a call: its id and result, so a retry after a lost connection finds it done. */
  endCall: `UPDATE @.workers SET last_op = $2, last_result = $3, seen_at = ${NOW} WHERE id = $1`,
  workers: `SELECT id, hostname, pid, started_at, seen_at, requested,
      (closed_at IS NULL AND seen_at >= ${NOW} - timeout_ms) AS alive
    FROM @.workers WHERE crawl = $1 ORDER BY id`,

  /**
   * Makes the hosts $2 that are missing, in the one order every transaction uses (sorted by
   * origin, byte order); then {@link SQL.lockHosts}.
   */
  ensureHosts: `INSERT INTO @.hosts (crawl, origin)
    SELECT $1::bigint, o FROM unnest($2::text[]) AS o ORDER BY o COLLATE "C"
    ON CONFLICT (crawl, origin) DO NOTHING`,
  /**
   * Locks the hosts $2, in the one order, before anything else the transaction does: a
   * transaction only waits for a URL's row while it holds its host, so two workers never wait
   * for each other in a circle. (A row lock marks the row where it is: no new row version,
   * unlike a no-op `ON CONFLICT DO UPDATE`, which bloated the table by a version per host
   * per step.)
   */
  lockHosts: `SELECT 1 FROM @.hosts WHERE crawl = $1 AND origin = ANY($2::text[])
    ORDER BY origin COLLATE "C" FOR UPDATE`,
  ensureHost: `INSERT INTO @.hosts (crawl, origin) VALUES ($1, $2)
    ON CONFLICT (crawl, origin) DO NOTHING`,

  /** Records results still in flight under this worker and attempt; returns what counted. */
  recordResults: `WITH f AS (
      SELECT * FROM unnest($3::bigint[], $4::int[], $5::int[], $6::text[], $7::text[],
        $8::text[], $9::text[], $10::text[], $11::int[], $12::int[], $13::text[])
        AS f(id, attempt, status, outcome, reason, lastmod, final_url, data, depth_cut, requested,
          facts)),
    rec AS (
      UPDATE @.urls u SET state = ${DONE}, status = f.status, outcome = f.outcome,
        reason = f.reason, lastmod = f.lastmod, final_url = f.final_url, data = f.data,
        facts = f.facts
      FROM f WHERE u.id = f.id AND u.crawl = $1 AND u.state = ${IN_FLIGHT}
        AND u.attempts = f.attempt AND u.worker = $2
      RETURNING f.depth_cut, f.requested),
    counted AS (
      UPDATE @.workers SET requested = requested + (SELECT coalesce(sum(requested), 0) FROM rec),
        depth_cut = depth_cut + (SELECT coalesce(sum(depth_cut), 0) FROM rec), seen_at = ${NOW},
        step_recorded = (SELECT count(*) FROM rec)
      WHERE id = $2)
    SELECT count(*) AS recorded FROM rec`,

  ...ADD_SQL,

  /** Puts items back ($3 ids, $4 attempts); $5 ms to hold each one's host, or null. */
  release: `WITH r AS (
      SELECT * FROM unnest($3::bigint[], $4::int[], $5::float8[]) AS r(id, attempt, hold_ms)),
    back AS (
      UPDATE @.urls u SET state = ${QUEUED}, worker = NULL
      FROM r WHERE u.id = r.id AND u.crawl = $1 AND u.state = ${IN_FLIGHT}
        AND u.attempts = r.attempt AND u.worker = $2
      RETURNING u.host, r.hold_ms),
    held AS (
      UPDATE @.hosts h SET queued = h.queued + c.n,
        next_at = CASE WHEN c.hold IS NULL THEN h.next_at
          ELSE greatest(h.next_at, ${NOW} + c.hold::bigint) END
      FROM (SELECT host, count(*) AS n, max(hold_ms) AS hold FROM back GROUP BY host) c
      WHERE h.id = c.host)
    SELECT count(*) AS released FROM back`,

  /**
   * Takes up to n items, n = $3 capped by $4 (maxRequested, or null) less the pages every
   * worker has requested, this step's results included (recorded by an earlier statement of
   * the same transaction): the ready hosts whose turn came first (skipping hosts another
   * worker has locked), then each one's best URLs: one from a host with a gap, as many as it
   * has from a host without, until n are taken (each host is asked for its share only, as its
   * queued count says, so no more URL rows are read and locked than are taken). Each host is
   * booked: its next turn is a gap after now. The ids taken are noted with the worker.
   */
  take: `WITH lim AS (
      SELECT CASE WHEN $4::bigint IS NULL THEN $3::int
        ELSE greatest(0, least($3::int, $4::bigint - (SELECT coalesce(sum(w.requested), 0)
          FROM @.workers w WHERE w.crawl = $1)))::int END AS n),
    ready AS (
      SELECT h.id, h.origin, h.next_at, h.queued, coalesce(h.gap_ms, c.gap_ms) AS gap
      FROM @.hosts h JOIN @.crawls c ON c.id = $1
      WHERE h.crawl = $1 AND h.queued > 0 AND h.robots = ${ROBOTS_KNOWN} AND h.next_at <= ${NOW}
      ORDER BY h.next_at, h.id LIMIT (SELECT n FROM lim)
      FOR UPDATE OF h SKIP LOCKED),
    wanted AS (
      SELECT r.*, CASE WHEN r.gap > 0 THEN 1 ELSE least(r.queued, l.n) END AS want
      FROM ready r CROSS JOIN lim l),
    share AS (
      SELECT w.*, sum(w.want) OVER (ORDER BY w.next_at, w.id) - w.want AS before FROM wanted w),
    pick AS (
      SELECT u.id, r.id AS host, r.origin, r.gap, r.next_at AS turn, u.priority, u.depth
      FROM share r CROSS JOIN lim l CROSS JOIN LATERAL (
        SELECT q.id, q.priority, q.depth FROM @.urls q
        WHERE q.host = r.id AND q.state = ${QUEUED}
        ORDER BY q.priority, q.depth, q.id
        LIMIT least(r.want, l.n - r.before)
        FOR UPDATE SKIP LOCKED) u
      WHERE r.before < l.n),
    taken AS (
      UPDATE @.urls u SET state = ${IN_FLIGHT}, worker = $2, attempts = u.attempts + 1
      FROM pick WHERE u.id = pick.id
      RETURNING u.id, coalesce(u.url, u.key) AS url, pick.origin, u.kind, u.priority, u.depth,
        u.via, u.attempts, u.redirects, pick.turn, pick.host, pick.gap),
    booked AS (
      UPDATE @.hosts h SET queued = h.queued - b.n,
        next_at = (greatest(h.next_at, ${NOW}) + b.gap)::bigint
      FROM (SELECT host, count(*) AS n, max(gap) AS gap FROM taken GROUP BY host) b
      WHERE h.id = b.host),
    noted AS (
      UPDATE @.workers SET step_taken = (SELECT coalesce(
        array_agg(id ORDER BY turn, host, priority, depth, id), '{}') FROM taken)
      WHERE id = $2)
    SELECT id, url, origin, kind, priority, depth, via, attempts, redirects FROM taken
    ORDER BY turn, host, priority, depth, id`,

  /**
   * Hands out up to $3 robots.txt fetches wanted (queued items, no outcome, not claimed), in
   * the order of the hosts' ids; their origins are noted with the worker.
   */
  handOutRobots: `WITH want AS (
      SELECT h.id FROM @.hosts h
      WHERE h.crawl = $1 AND h.robots = ${ROBOTS_NONE} AND h.queued > 0
      ORDER BY h.id LIMIT $3::int FOR UPDATE SKIP LOCKED),
    handed AS (
      UPDATE @.hosts h SET robots = ${ROBOTS_CLAIMED}, robots_worker = $2,
        robots_at = greatest(h.next_at, ${NOW}),
        next_at = (greatest(h.next_at, ${NOW}) + coalesce(h.gap_ms, c.gap_ms))::bigint
      FROM want, @.crawls c WHERE h.id = want.id AND c.id = $1
      RETURNING h.id, h.origin),
    noted AS (
      UPDATE @.workers SET step_robots = (SELECT coalesce(array_agg(origin ORDER BY id), '{}')
        FROM handed)
      WHERE id = $2)
    SELECT origin FROM handed ORDER BY id`,

  /** A step begins: nothing of it noted yet (see `take`, `handOutRobots`, `recordResults`). */
  stepBegins: `UPDATE @.workers SET step_taken = '{}', step_robots = '{}', step_recorded = 0
    WHERE id = $1`,
  /** What the worker $1's last step noted of itself. */
  stepNoted: 'SELECT step_taken, step_robots, step_recorded FROM @.workers WHERE id = $1',

  /** What a step reports besides its items. */
  summary: `SELECT
      NOT (${NOTHING_LEFT}
        AND coalesce((SELECT ${SITEMAPS_SETTLED} FROM @.crawls WHERE id = $1), false)) AS open,
      (SELECT min(next_at) FROM @.hosts
        WHERE crawl = $1 AND queued > 0 AND robots = ${ROBOTS_KNOWN}) - ${NOW} AS wait,
      (SELECT coalesce(sum(requested), 0)::bigint FROM @.workers WHERE crawl = $1) AS requested`,

  /** Items of a step whose commit was in doubt and happened ($2: their ids). */
  takenAgain: `SELECT u.id, coalesce(u.url, u.key) AS url, h.origin, u.kind, u.priority, u.depth,
      u.via, u.attempts, u.redirects
    FROM @.urls u JOIN @.hosts h ON h.id = u.host
    WHERE u.crawl = $1 AND u.id = ANY($2::bigint[])`,

  /** Claims robots.txt of $3 for worker $2, unless known or claimed by a live worker. */
  claimRobots: `UPDATE @.hosts h SET robots = ${ROBOTS_CLAIMED}, robots_worker = $2,
      robots_at = greatest(h.next_at, ${NOW}),
      next_at = (greatest(h.next_at, ${NOW}) + coalesce(h.gap_ms, c.gap_ms))::bigint
    FROM @.crawls c
    WHERE h.crawl = $1 AND h.origin = $3 AND c.id = $1 AND (h.robots = ${ROBOTS_NONE}
      OR (h.robots = ${ROBOTS_CLAIMED} AND h.robots_worker <> $2
        AND NOT ${liveWorker('h.robots_worker')}))
    RETURNING 1`,
  robotsState: 'SELECT robots FROM @.hosts WHERE crawl = $1 AND origin = $2',
  /** Records robots.txt of $2: the host waits one new gap ($7) after the robots.txt request. */
  settleRobots: `UPDATE @.hosts SET robots = ${ROBOTS_KNOWN}, robots_worker = NULL,
      robots_status = $3, robots_detail = $4, robots_url = $5, robots_body = $6, gap_ms = $7::float8,
      next_at = greatest(next_at, (coalesce(robots_at, ${NOW}) + $7::float8)::bigint),
      robots_at = NULL
    WHERE crawl = $1 AND origin = $2`,
  robots: `SELECT robots_status, robots_detail, robots_url, robots_body, gap_ms FROM @.hosts
    WHERE crawl = $1 AND origin = $2 AND robots = ${ROBOTS_KNOWN}`,
  /** Every host's robots.txt outcome, in byte order of the origin. */
  robotsOutcomes: `SELECT origin, robots_status, robots_detail, robots_url, robots_body
    FROM @.hosts WHERE crawl = $1 AND robots = ${ROBOTS_KNOWN} ORDER BY origin COLLATE "C"`,
  /** Books a request to $2 if its turn has come. */
  reserve: `UPDATE @.hosts h
    SET next_at = (greatest(h.next_at, ${NOW}) + coalesce(h.gap_ms, c.gap_ms))::bigint
    FROM @.crawls c WHERE h.crawl = $1 AND h.origin = $2 AND c.id = $1 AND h.next_at <= ${NOW}
    RETURNING 1`,
  waitFor: `SELECT greatest(next_at - ${NOW}, 1) AS wait FROM @.hosts
    WHERE crawl = $1 AND origin = $2`,

  claimSitemaps: `UPDATE @.crawls SET sitemaps = ${SITEMAPS_CLAIMED}, sitemaps_worker = $2
    WHERE id = $1 AND (sitemaps IN (${SITEMAPS_UNCLAIMED}, ${SITEMAPS_GIVEN_UP})
      OR (sitemaps = ${SITEMAPS_CLAIMED} AND sitemaps_worker <> $2
        AND NOT ${liveWorker('sitemaps_worker')}))
    RETURNING 1`,
  /**
   * Marks the sitemaps read ($2 URLs), unless they are, and stores the first $3 sitemap files
   * (JSON), replacing any stored before: the one statement that marks them read stores them,
   * so a retry after a commit stores nothing twice. Returns the crawl when it marked them.
   */
  sitemapsRead: `WITH marked AS (
      UPDATE @.crawls SET sitemaps = ${SITEMAPS_READ}, sitemap_urls = $2, sitemaps_worker = NULL
      WHERE id = $1 AND sitemaps <> ${SITEMAPS_READ}
      RETURNING id),
    cleared AS (DELETE FROM @.sitemap_files WHERE crawl IN (SELECT id FROM marked)),
    stored AS (
      INSERT INTO @.sitemap_files (crawl, ord, record)
      SELECT m.id, f.ord, f.record FROM marked m
      CROSS JOIN unnest($3::text[]) WITH ORDINALITY AS f(record, ord))
    SELECT id FROM marked`,
  /** More sitemap files of the reading just marked ($2 their first position, 1-based). */
  moreSitemapFiles: `INSERT INTO @.sitemap_files (crawl, ord, record)
    SELECT $1::bigint, $2::int + f.ord - 1, f.record
    FROM unnest($3::text[]) WITH ORDINALITY AS f(record, ord)`,
  sitemapFiles: `SELECT ord, record FROM @.sitemap_files WHERE crawl = $1 AND ord > $2::int
    ORDER BY ord LIMIT $3::int`,
  sitemapsGivenUp: `UPDATE @.crawls SET sitemaps = ${SITEMAPS_GIVEN_UP}, sitemaps_worker = NULL
    WHERE id = $1 AND sitemaps = ${SITEMAPS_CLAIMED} AND sitemaps_worker = $2`,
  claimFinish: `UPDATE @.crawls SET finished_at = ${NOW}
    WHERE id = $1 AND finished_at IS NULL AND ${SITEMAPS_SETTLED} AND ${NOTHING_LEFT}
    RETURNING 1`,
  /** As claimFinish, for a crawl stopped at its page limit: items queued do not count. */
  claimFinishStopped: `UPDATE @.crawls SET finished_at = ${NOW}
    WHERE id = $1 AND finished_at IS NULL AND ${SITEMAPS_SETTLED} AND ${NOTHING_UNDER_WAY}
    RETURNING 1`,

  counts: 'SELECT state, count(*) AS n FROM @.urls WHERE crawl = $1 GROUP BY state',
  /** One page of results after key $2, in byte order of the key. */
  results: `SELECT key, coalesce(url, key) AS url, kind, depth, via, status, outcome, reason,
      lastmod, final_url, data, linked, in_sitemap, inlinks, sitemaps, sitemap_lastmod, facts
    FROM @.urls WHERE crawl = $1 AND key > $2 AND state = ${DONE} ORDER BY key LIMIT $3::int`,

  /**
   * Workers other than $2 taken for dead (closed, or silent for longer than their own
   * workerTimeoutMs) that still hold something.
   */
  deadWorkers: `SELECT w.id FROM @.workers w
    WHERE w.crawl = $1 AND w.id <> $2
      AND (w.closed_at IS NOT NULL OR w.seen_at < ${NOW} - w.timeout_ms)
      AND (EXISTS (SELECT 1 FROM @.urls u
             WHERE u.crawl = $1 AND u.state = ${IN_FLIGHT} AND u.worker = w.id)
        OR EXISTS (SELECT 1 FROM @.hosts h
             WHERE h.crawl = $1 AND h.robots = ${ROBOTS_CLAIMED} AND h.robots_worker = w.id)
        OR EXISTS (SELECT 1 FROM @.crawls c
             WHERE c.id = $1 AND c.sitemaps = ${SITEMAPS_CLAIMED} AND c.sitemaps_worker = w.id))`,
  /** Locks, in the one order, the hosts that workers $2 hold items or robots.txt claims of. */
  lockHostsOf: `SELECT h.id FROM @.hosts h
    WHERE h.crawl = $1 AND (h.id IN (SELECT u.host FROM @.urls u
        WHERE u.crawl = $1 AND u.state = ${IN_FLIGHT} AND u.worker = ANY($2::bigint[]))
      OR (h.robots = ${ROBOTS_CLAIMED} AND h.robots_worker = ANY($2::bigint[])))
    ORDER BY h.origin COLLATE "C" FOR UPDATE`,
  /** Gives back every item, robots.txt claim and sitemaps claim of workers $2. */
  giveBackItems: `WITH back AS (
      UPDATE @.urls SET state = ${QUEUED}, worker = NULL
      WHERE crawl = $1 AND state = ${IN_FLIGHT} AND worker = ANY($2::bigint[])
      RETURNING host)
    UPDATE @.hosts h SET queued = h.queued + c.n
    FROM (SELECT host, count(*) AS n FROM back GROUP BY host) c WHERE h.id = c.host`,
  giveBackRobots: `UPDATE @.hosts SET robots = ${ROBOTS_NONE}, robots_worker = NULL, robots_at = NULL
    WHERE crawl = $1 AND robots = ${ROBOTS_CLAIMED} AND robots_worker = ANY($2::bigint[])`,
  giveBackSitemaps: `UPDATE @.crawls SET sitemaps = ${SITEMAPS_UNCLAIMED}, sitemaps_worker = NULL
    WHERE id = $1 AND sitemaps = ${SITEMAPS_CLAIMED} AND sitemaps_worker = ANY($2::bigint[])`,
  closeWorker: `UPDATE @.workers SET closed_at = ${NOW} WHERE id = $1`,
} as const;

export type StatementName = keyof typeof SQL;
