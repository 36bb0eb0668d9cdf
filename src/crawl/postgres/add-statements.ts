// The statements that add URLs, found by a step's results or added directly (see
// found-urls.ts for their parameters), part of SQL in statements.ts. $1 the crawl's id, $2
// this worker's id; `@.` is the schema.
import { MAX_COUNTED_INLINKS } from '../internal/report-counts.ts';
import { DONE } from './schema.ts';

export const ADD_SQL = {
  /**
   * Adds the URLs never seen before (the first of a key in the batch wins, marks and counts
   * add up, the first sitemap <lastmod> is kept) and marks and counts the known ones. A URL
   * found by a result ($12 its item's id, $13 its attempt) is added or counted only if that
   * result was recorded. Their hosts must be locked: then no other transaction adds or
   * changes a URL of theirs meanwhile, so one probe of each key tells new from known. Every
   * row of the crawl it reads is found by a probe (LATERAL ... LIMIT 1): a plan that joins or
   * hashes on the crawl instead reads the whole crawl in every step, and the planner picks
   * one for a young crawl, whose statistics are not yet gathered.
   */
  add: `WITH d AS (
      SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::float8[],
        $8::int[], $9::text[], $10::int[], $11::int[], $12::bigint[], $13::int[], $14::int[],
        $15::int[], $16::int[], $17::text[])
        WITH ORDINALITY
        AS d(key, url, origin, kind, priority, depth, via, linked, in_sitemap, parent, attempt,
          redirects, inlinks, sitemaps, sitemap_lastmod, ord)),
    recorded AS (
      SELECT r.parent FROM (SELECT DISTINCT parent, attempt FROM d WHERE parent IS NOT NULL) r
      CROSS JOIN LATERAL (
        SELECT 1 FROM @.urls p WHERE p.id = r.parent AND p.crawl = $1 AND p.state = ${DONE}
          AND p.attempts = r.attempt AND p.worker = $2 LIMIT 1) p),
    one AS (
      SELECT DISTINCT ON (key) key, url, origin, kind, priority, depth, via, redirects, ord,
        bool_or(linked = 1) OVER k AS linked,
        bool_or(in_sitemap = 1) OVER k AS in_sitemap,
        least(sum(inlinks) OVER k, ${MAX_COUNTED_INLINKS}) AS inlinks,
        sum(sitemaps) OVER k AS sitemaps,
        first_value(sitemap_lastmod)
          OVER (PARTITION BY key ORDER BY sitemap_lastmod IS NULL, ord) AS sitemap_lastmod
      FROM d WHERE d.parent IS NULL OR d.parent IN (SELECT parent FROM recorded)
      WINDOW k AS (PARTITION BY key)
      ORDER BY key, ord),
    seen AS (
      SELECT one.*, k.id AS known, k.linked AS was_linked, k.in_sitemap AS was_in_sitemap
      FROM one LEFT JOIN LATERAL (
        SELECT u.id, u.linked, u.in_sitemap FROM @.urls u WHERE u.crawl = $1 AND u.key = one.key
        LIMIT 1) k ON true),
    ins AS (
      INSERT INTO @.urls (crawl, host, key, url, kind, priority, depth, via, linked, in_sitemap,
        redirects, inlinks, sitemaps, sitemap_lastmod)
      SELECT $1::bigint, h.id, seen.key, seen.url, seen.kind, seen.priority, seen.depth, seen.via,
        seen.linked, seen.in_sitemap, seen.redirects, seen.inlinks, seen.sitemaps,
        seen.sitemap_lastmod
      FROM seen CROSS JOIN LATERAL (
        SELECT h.id FROM @.hosts h WHERE h.crawl = $1 AND h.origin = seen.origin LIMIT 1) h
      WHERE seen.known IS NULL
      ORDER BY seen.ord
      ON CONFLICT (crawl, key) DO NOTHING
      RETURNING host),
    queued AS (
      UPDATE @.hosts h SET queued = h.queued + c.n
      FROM (SELECT host, count(*) AS n FROM ins GROUP BY host) c WHERE h.id = c.host),
    marked AS (
      UPDATE @.urls u SET linked = u.linked OR seen.linked,
        in_sitemap = u.in_sitemap OR seen.in_sitemap,
        inlinks = least(u.inlinks + seen.inlinks, ${MAX_COUNTED_INLINKS}),
        sitemaps = u.sitemaps + seen.sitemaps,
        sitemap_lastmod = coalesce(u.sitemap_lastmod, seen.sitemap_lastmod)
      FROM seen WHERE u.id = seen.known
        AND ((seen.linked AND NOT seen.was_linked) OR (seen.in_sitemap AND NOT seen.was_in_sitemap)
          OR (seen.inlinks > 0 AND u.inlinks < ${MAX_COUNTED_INLINKS}) OR seen.sitemaps > 0))
    SELECT count(*) AS added FROM ins`,

  /**
   * Counts URLs this worker knows the crawl holds (sent as counts only, see known-counts.ts):
   * $3 the keys, sorted; $4/$5 the ids and attempts of the results that found them; per row
   * $6 its key's index, $7 its result's index (null: added directly), $8 in-links, $9 sitemap
   * entries. A lost result's rows count nothing. The rows are found by a probe of each key
   * and updated in key order; their hosts are locked, as for `add`.
   */
  countKnown: `WITH c AS (
      SELECT * FROM unnest($6::int[], $7::int[], $8::int[], $9::int[])
        AS c(k, parent, inlinks, sitemaps)),
    p AS (
      SELECT * FROM unnest($4::bigint[], $5::int[]) WITH ORDINALITY AS p(id, attempt, i)),
    recorded AS (
      SELECT p.i FROM p CROSS JOIN LATERAL (
        SELECT 1 FROM @.urls r WHERE r.id = p.id AND r.crawl = $1 AND r.state = ${DONE}
          AND r.attempts = p.attempt AND r.worker = $2 LIMIT 1) r),
    sums AS (
      SELECT c.k, sum(c.inlinks)::int AS inlinks, sum(c.sitemaps)::int AS sitemaps FROM c
      WHERE c.parent IS NULL OR c.parent IN (SELECT i FROM recorded)
      GROUP BY c.k),
    found AS (
      SELECT u.id, s.inlinks, s.sitemaps
      FROM unnest($3::text[]) WITH ORDINALITY AS k(key, i)
      JOIN sums s ON s.k = k.i
      CROSS JOIN LATERAL (
        SELECT u.id FROM @.urls u WHERE u.crawl = $1 AND u.key = k.key LIMIT 1) u
      ORDER BY k.i)
    UPDATE @.urls u SET inlinks = least(u.inlinks + found.inlinks, ${MAX_COUNTED_INLINKS}),
      sitemaps = u.sitemaps + found.sitemaps
    FROM found WHERE u.id = found.id
      AND ((found.inlinks > 0 AND u.inlinks < ${MAX_COUNTED_INLINKS}) OR found.sitemaps > 0)`,
} as const;
