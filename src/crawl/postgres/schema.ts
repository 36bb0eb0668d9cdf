// waymark's tables in PostgreSQL: one schema (default `waymark`), created and migrated by
// waymark itself, versioned so that many workers starting at once migrate exactly once and a
// waymark older than the database refuses it instead of misreading it.
import type { Sql, TransactionSql } from 'postgres';
import { WaymarkError } from '../../shared/waymark-error.ts';
import { transaction } from './connection.ts';

/** Item states, as stored in `urls.state`. */
export const QUEUED = 0;
export const IN_FLIGHT = 1;
export const DONE = 2;

/** robots.txt states, as stored in `hosts.robots`. */
export const ROBOTS_NONE = 0;
export const ROBOTS_CLAIMED = 1;
export const ROBOTS_KNOWN = 2;

/** Sitemaps states, as stored in `crawls.sitemaps`; READ and GIVEN_UP no longer keep a crawl open. */
export const SITEMAPS_UNCLAIMED = 0;
export const SITEMAPS_CLAIMED = 1;
export const SITEMAPS_READ = 2;
export const SITEMAPS_GIVEN_UP = 3;

/**
 * The migrations, in order: migration `i` brings the schema to version `i + 1`. Applied
 * ones never change; a change to the tables is a new entry. `@.` stands for the schema.
 *
 * Epoch milliseconds are `bigint`, taken from the database's clock. There are no foreign keys
 * on `hosts` and `urls`: each check would lock the crawl's row in KEY SHARE mode on every
 * insert, from every worker; ids only ever come from the rows themselves.
 */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE @.crawls (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name            text NOT NULL UNIQUE,
      gap_ms          double precision NOT NULL DEFAULT 0,
      created_at      bigint,
      finished_at     bigint,
      sitemap_urls    bigint NOT NULL DEFAULT 0,
      sitemaps_worker bigint,
      sitemaps        smallint NOT NULL DEFAULT ${SITEMAPS_UNCLAIMED},
      start           text,
      options         text
    )`,
    // One row per worker process that ever changed the crawl. Its own counters, so workers
    // never contend on one hot row (the crawl's totals are sums); `last_op`/`last_result`
    // make a call retried after a lost connection return what its commit did (a step writes
    // what it did into the `step_` columns instead: its transaction goes out in one piece). `timeout_ms`
    // is its own workerTimeoutMs: whoever looks judges its liveness by that, not by their own.
    `CREATE TABLE @.workers (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      crawl       bigint NOT NULL REFERENCES @.crawls (id) ON DELETE CASCADE,
      started_at  bigint NOT NULL,
      seen_at     bigint NOT NULL,
      timeout_ms  bigint NOT NULL,
      closed_at   bigint,
      requested   bigint NOT NULL DEFAULT 0,
      depth_cut   bigint NOT NULL DEFAULT 0,
      pid         integer NOT NULL,
      hostname    text NOT NULL,
      last_op     uuid,
      last_result text,
      step_taken    bigint[],
      step_robots   text[],
      step_recorded integer
    )`,
    'CREATE INDEX workers_crawl ON @.workers (crawl)',
    // Per host (origin): politeness (next_at, gap_ms: null = the crawl's gap until robots.txt
    // is settled), how many items wait, and the robots.txt outcome shared by every worker.
    `CREATE TABLE @.hosts (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      crawl         bigint NOT NULL,
      queued        bigint NOT NULL DEFAULT 0,
      next_at       bigint NOT NULL DEFAULT 0,
      gap_ms        double precision,
      robots_worker bigint,
      robots_at     bigint,
      robots_status integer,
      robots        smallint NOT NULL DEFAULT ${ROBOTS_NONE},
      origin        text NOT NULL,
      robots_detail text,
      robots_url    text,
      robots_body   bytea,
      UNIQUE (crawl, origin)
    )`,
    // The hosts a step can take from, in the order their turn comes.
    `CREATE INDEX hosts_ready ON @.hosts (crawl, next_at, id)
      WHERE queued > 0 AND robots = ${ROBOTS_KNOWN}`,
    // The hosts whose robots.txt is wanted or being fetched: few at any time.
    `CREATE INDEX hosts_robots ON @.hosts (crawl, id) WHERE robots <> ${ROBOTS_KNOWN}`,
    // One row per URL ever added: the item, its state and, once done, its result, so that a
    // result is recorded by one UPDATE that also ends the lease. Fixed-width columns first
    // (no padding); `url` is null when it equals `key`, the common case.
    `CREATE TABLE @.urls (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      crawl       bigint NOT NULL,
      host        bigint NOT NULL,
      priority    double precision NOT NULL,
      worker      bigint,
      depth       integer NOT NULL,
      attempts    integer NOT NULL DEFAULT 0,
      redirects   integer NOT NULL DEFAULT 0,
      status      integer,
      state       smallint NOT NULL DEFAULT ${QUEUED},
      linked      boolean NOT NULL,
      in_sitemap  boolean NOT NULL,
      key         text COLLATE "C" NOT NULL,
      url         text,
      kind        text NOT NULL,
      via         text,
      outcome     text,
      reason      text,
      lastmod     text,
      final_url   text,
      data        text
    )`,
    // The seen set, and the order of results (byte order, whatever the database's collation).
    'CREATE UNIQUE INDEX urls_key ON @.urls (crawl, key)',
    // Each host's queue in take order; only queued rows, so it stays as small as the queue.
    `CREATE INDEX urls_queue ON @.urls (host, priority, depth, id) WHERE state = ${QUEUED}`,
    // Items in flight by worker: what a dead or closing worker gives back.
    `CREATE INDEX urls_in_flight ON @.urls (crawl, worker) WHERE state = ${IN_FLIGHT}`,
  ],
  // 2: what the crawl report reads. How often links and sitemaps named each URL (counted as
  // they are added, known or new), its first sitemap <lastmod>, what its response said
  // (`facts`, JSON), and the sitemap files the reading went through, one row each (JSON
  // text, not jsonb: jsonb refuses the \u0000 a diagnostic may quote). Columns with a
  // constant default are added without rewriting the table.
  [
    `ALTER TABLE @.urls
      ADD COLUMN inlinks         integer NOT NULL DEFAULT 0,
      ADD COLUMN sitemaps        integer NOT NULL DEFAULT 0,
      ADD COLUMN sitemap_lastmod text,
      ADD COLUMN facts           text`,
    `CREATE TABLE @.sitemap_files (
      crawl  bigint NOT NULL REFERENCES @.crawls (id) ON DELETE CASCADE,
      ord    integer NOT NULL,
      record text NOT NULL
    )`,
    'CREATE INDEX sitemap_files_crawl ON @.sitemap_files (crawl, ord)',
  ],
];

/** The schema version this waymark reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a schema name: a lower-case SQL identifier (letters, digits, `_`), at most 63 bytes,
 * so that it reads the same quoted or not and never needs escaping.
 */
export function checkSchemaName(schema: string): void {
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema)) {
    throw new WaymarkError(
      'invalid-argument',
      `schema must be a lower-case SQL identifier (a-z, 0-9, _; at most 63), got ${JSON.stringify(schema)}`,
    );
  }
}

/** `sql` with `@.` replaced by the quoted schema name (checked by {@link checkSchemaName}). */
export function inSchema(schema: string, sql: string): string {
  return sql.replaceAll('@.', `"${schema}".`);
}

const UNDEFINED_TABLE = '42P01';
const INVALID_SCHEMA_NAME = '3F000';

/**
 * Brings the schema to {@link SCHEMA_VERSION}. The version is read first without a lock (the
 * usual case: nothing to do, and a role without CREATE rights can still open); otherwise the
 * migrations run in one transaction under an advisory lock on the schema's name, so workers
 * starting together wait for the first one and then find nothing left to do.
 */
export async function migrate(sql: Sql, schema: string): Promise<void> {
  const version = await readVersion(sql, schema);
  checkVersion(version, schema);
  if (version === SCHEMA_VERSION) return;
  await transaction(sql, async (tx) => {
    await tx.unsafe('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`waymark:${schema}`]);
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.unsafe(
      inSchema(
        schema,
        `CREATE TABLE IF NOT EXISTS @.schema_version (
          version    integer PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`,
      ),
    );
    const now = await readVersion(tx, schema);
    checkVersion(now, schema);
    for (let next = now; next < SCHEMA_VERSION; next++) {
      for (const statement of MIGRATIONS[next] ?? []) await tx.unsafe(inSchema(schema, statement));
      await tx.unsafe(inSchema(schema, 'INSERT INTO @.schema_version (version) VALUES ($1)'), [
        next + 1,
      ]);
    }
  });
}

async function readVersion(sql: Sql | TransactionSql, schema: string): Promise<number> {
  try {
    const [row] = await sql.unsafe(
      inSchema(schema, 'SELECT coalesce(max(version), 0) AS version FROM @.schema_version'),
    );
    return Number(row?.['version'] ?? 0);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === UNDEFINED_TABLE || code === INVALID_SCHEMA_NAME) return 0;
    throw error;
  }
}

function checkVersion(version: number, schema: string): void {
  if (version > SCHEMA_VERSION) {
    throw new WaymarkError(
      'invalid-argument',
      `crawl state schema "${schema}" has version ${version}, this waymark reads up to ${SCHEMA_VERSION}: upgrade waymark`,
    );
  }
}
