// The distributed crawl benchmark's runs: the site crawled by one `waymark crawl` with an
// SQLite state, or by N workers sharing a crawl in a fresh PostgreSQL database (the first
// creates it, the others `--join` once it exists), each measured the same way: the workers'
// own reports, the site's counts, and the CPU of the server, the site and the machine.

import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { openPostgresCrawlState } from '../../src/crawl/index.ts';
import type { PostgresServer } from '../../src/test-support/postgres-server.ts';
import { readLocs } from './crawl-child.ts';
import type { DistributedRun } from './crawl-distributed-report.ts';
import { score } from './crawl-report.ts';
import type { SiteHandle } from './crawl-site-server.ts';
import type { CrawlerProcesses, StartedCrawler } from './crawl-workers.ts';
import { statementTable } from './pg-statements.ts';
import { coresBusy, machineCpu, treeCpuMs } from './proc-stats.ts';

const CHILD_TIMEOUT_MS = 900_000;
const CRAWL_NAME = 'bench';
/** How long after the last worker's exit the server's backends have surely ended. */
const SETTLE_MS = 300;

/** What every run needs. */
export interface RunContext {
  /** The temp folder for outputs and the SQLite state. */
  readonly root: string;
  /** waymark's `cli/bin.js`. */
  readonly bin: string;
  readonly site: SiteHandle;
  readonly sitePid: number | null;
  readonly server: PostgresServer;
  readonly postmasterPid: number | null;
  /** A connection to the server's `postgres` database. */
  readonly admin: postgres.Sql;
  readonly crawlers: CrawlerProcesses;
  /** Every worker's options, after the URL (or none with `--join`), `--state` and `--out`. */
  readonly flags: readonly string[];
  /** Options of a joining worker (its own, not the crawl's). */
  readonly joinFlags: readonly string[];
  /** Read pg_stat_statements after each PostgreSQL run (see `enableStatementStats`). */
  readonly statements: boolean;
}

/** The CLI lines the runs use, for the output. */
export function commandLines(context: RunContext): string[] {
  const flags = context.flags.join(' ');
  return [
    `  SQLite         waymark crawl <url> --state <file> --out <file> ${flags}`,
    `  PostgreSQL, 1  waymark crawl <url> --state postgres://… --crawl ${CRAWL_NAME} --out <file> ${flags}`,
    '  PostgreSQL, n  the same, then once the crawl exists, n - 1 more:',
    `                 waymark crawl --state postgres://… --crawl ${CRAWL_NAME} --out <file> ${context.joinFlags.join(' ')}`,
    '                 (each worker its own --out: the one that sees the crawl finish writes it)',
  ];
}

interface Usage {
  readonly server: number | null;
  readonly site: number | null;
  readonly machine: ReturnType<typeof machineCpu>;
}

function usage(context: RunContext): Usage {
  return {
    server: context.postmasterPid === null ? null : treeCpuMs(context.postmasterPid),
    site: context.sitePid === null ? null : treeCpuMs(context.sitePid),
    machine: machineCpu(),
  };
}

const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

/** One crawl of the site by one `waymark crawl` keeping its state in an SQLite file. */
export async function sqliteRun(context: RunContext): Promise<DistributedRun> {
  const { root, bin, site, crawlers, flags } = context;
  const out = join(root, 'sqlite.xml');
  const state = join(root, 'sqlite-state.db');
  await site.reset();
  const before = usage(context);
  const t0 = performance.now();
  const crawler = crawlers.start(
    [bin, 'crawl', `${site.origin}/`, '--state', state, '--out', out, ...flags],
    CHILD_TIMEOUT_MS,
  );
  const run = await crawler.done;
  const wallMs = performance.now() - t0;
  const after = usage(context);
  rmSync(state, { force: true });
  return {
    label: '1 SQLite process',
    backend: 'sqlite',
    workers: 1,
    wallMs,
    runs: [run],
    stats: await site.stats(),
    score: existsSync(out) ? score(readLocs(out), site.truth) : null,
    writers: existsSync(out) ? 1 : 0,
    shares: [],
    serverCpuMs: null,
    siteCpuMs: diff(before.site, after.site),
    machineCores: coresBusy(before.machine, after.machine),
    stateBytes: null,
    transactions: null,
    statements: null,
  };
}

/** One crawl of the site by `workers` processes sharing it in a fresh PostgreSQL database. */
export async function postgresRun(context: RunContext, workers: number): Promise<DistributedRun> {
  const { root, bin, site, admin, crawlers, flags, joinFlags } = context;
  const database = `crawl_${workers}`;
  await admin.unsafe(`CREATE DATABASE ${database}`);
  const url = new URL(context.server.url);
  url.pathname = `/${database}`;
  const connection = url.href;
  // The bench's own handle only reads (the record, the workers): it never registers. A bench
  // has no database restart to wait out: an interrupted run's close gives up soon.
  const watcher = await openPostgresCrawlState({
    connection,
    crawl: CRAWL_NAME,
    retryForMs: 2_000,
  });
  try {
    const outs = Array.from({ length: workers }, (_, i) => join(root, `pg-${workers}-${i}.xml`));
    await site.reset();
    const transactionsBefore = await committed(admin, database);
    if (context.statements) await admin`SELECT pg_stat_statements_reset()`;
    const before = usage(context);
    const t0 = performance.now();
    const common = ['--state', connection, '--crawl', CRAWL_NAME];
    const first = crawlers.start(
      [bin, 'crawl', `${site.origin}/`, ...common, '--out', outs[0] as string, ...flags],
      CHILD_TIMEOUT_MS,
    );
    const all: StartedCrawler[] = [first];
    let firstEnded = false;
    const ended = () => {
      firstEnded = true;
    };
    first.done.then(ended, ended);
    // --join needs the crawl to exist: the first worker creates it.
    while (workers > 1 && !firstEnded && (await watcher.crawl()) === null) await sleep(20);
    for (let i = 1; i < workers; i++) {
      const args = [bin, 'crawl', ...common, '--out', outs[i] as string, ...joinFlags];
      all.push(crawlers.start(args, CHILD_TIMEOUT_MS));
    }
    const runs = await Promise.all(all.map((crawler) => crawler.done));
    const wallMs = performance.now() - t0;
    await sleep(SETTLE_MS);
    const after = usage(context);
    const stats = await site.stats();
    const byPid = new Map((await watcher.workers()).map((w) => [w.pid, w.requested]));
    const written = outs.filter((out) => existsSync(out));
    return {
      label: `PostgreSQL, ${workers} worker${workers === 1 ? '' : 's'}`,
      backend: 'postgres',
      workers,
      wallMs,
      runs,
      stats,
      score: written[0] === undefined ? null : score(readLocs(written[0]), site.truth),
      writers: written.length,
      shares: all.map((crawler) => byPid.get(crawler.pid) ?? 0),
      serverCpuMs: diff(before.server, after.server),
      siteCpuMs: diff(before.site, after.site),
      machineCores: coresBusy(before.machine, after.machine),
      // Before anything else connects to the run's database.
      transactions: (await committed(admin, database)) - transactionsBefore,
      stateBytes: await stateBytes(connection),
      statements: context.statements
        ? await statementTable(admin, database, stats.htmlPages)
        : null,
    };
  } finally {
    await watcher.close();
  }
}

/** Transactions committed or rolled back in `database` so far (every backend's, once reported). */
async function committed(admin: postgres.Sql, database: string): Promise<number> {
  const [row] = await admin`SELECT coalesce(xact_commit + xact_rollback, 0)::float8 AS n
    FROM pg_stat_database WHERE datname = ${database}`;
  return Number(row?.['n'] ?? 0);
}

/** Bytes of waymark's tables (and their indexes) in the database `connection` names. */
async function stateBytes(connection: string): Promise<number> {
  const sql = postgres(connection, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'waymark' AND c.relkind = 'r'`;
    return Number(row?.['bytes'] ?? Number.NaN);
  } finally {
    await sql.end({ timeout: 1 });
  }
}
