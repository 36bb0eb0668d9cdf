// The distributed crawl benchmark's tables: each run's sitemap against the true one, then
// speed, CPU and memory beside the SQLite run, and what bounds the speed-up on this machine.

import type { ChildRun } from './crawl-child.ts';
import { errorGroups, formatMB, isExact, type Score } from './crawl-report.ts';
import type { CrawlStats, SiteHandle } from './crawl-site-server.ts';
import { formatDuration, formatNumber, formatRatio, formatTable } from './timing.ts';

/** One crawl of the site: by one SQLite process, or by N workers sharing PostgreSQL. */
export interface DistributedRun {
  readonly label: string;
  readonly backend: 'sqlite' | 'postgres';
  readonly workers: number;
  /** From the first worker's spawn to the last one's exit. */
  readonly wallMs: number;
  /** Each worker process, in the order they were started. */
  readonly runs: readonly ChildRun[];
  readonly stats: CrawlStats;
  /** The sitemap the run wrote against the true one; null when no worker wrote one. */
  readonly score: Score | null;
  /** How many workers wrote their `--out` (exactly one should). */
  readonly writers: number;
  /** Pages each worker requested, as the crawl state counts them (PostgreSQL only). */
  readonly shares: readonly number[];
  /** CPU of the PostgreSQL server (every process of it) during the run, or null. */
  readonly serverCpuMs: number | null;
  /** CPU of the site process during the run, or null. */
  readonly siteCpuMs: number | null;
  /** Cores the whole machine kept busy during the run (everyone's work), or null. */
  readonly machineCores: number | null;
  /** Bytes of waymark's tables with their indexes once the crawl finished (PostgreSQL only). */
  readonly stateBytes: number | null;
  /** Transactions the run's database saw (PostgreSQL only). */
  readonly transactions: number | null;
  /** With `--statements`: PostgreSQL's costliest statements in the run, as a table. */
  readonly statements: string | null;
}

export function workersCpuMs(run: DistributedRun): number {
  return run.runs.reduce((sum, r) => sum + r.report.cpuMs, 0);
}

export function pagesPerSecond(run: DistributedRun): number {
  return run.stats.htmlPages / (run.wallMs / 1000);
}

/** CPU ms per HTML page of the workers, of PostgreSQL, and of both with the site's. */
export function perPage(run: DistributedRun): {
  workers: number;
  server: number | null;
  site: number | null;
  all: number;
} {
  const pages = run.stats.htmlPages;
  const all = workersCpuMs(run) + (run.serverCpuMs ?? 0) + (run.siteCpuMs ?? 0);
  return {
    workers: workersCpuMs(run) / pages,
    server: run.serverCpuMs === null ? null : run.serverCpuMs / pages,
    site: run.siteCpuMs === null ? null : run.siteCpuMs / pages,
    all: all / pages,
  };
}

/** Cores this benchmark's processes (workers, PostgreSQL, site) kept busy on average. */
export function ownCores(run: DistributedRun): number {
  return (perPage(run).all * run.stats.htmlPages) / run.wallMs;
}

const ms = (value: number | null) => (value === null ? '-' : formatDuration(value));

export function correctnessTable(runs: readonly DistributedRun[], truth: number): string {
  return formatTable(
    [
      'run',
      'listed',
      'right',
      'wrong',
      'missed',
      'duplicates',
      'requests',
      'repeated',
      'pages requested per worker',
      'outputs written',
      'exact',
    ],
    runs.map((run) => {
      const s = run.score;
      return [
        run.label,
        s === null ? '-' : formatNumber(s.listed),
        s === null ? '-' : `${formatNumber(s.right)} of ${formatNumber(truth)}`,
        s === null ? '-' : formatNumber(s.wrong.length),
        s === null ? '-' : formatNumber(s.missed.length),
        s === null ? '-' : formatNumber(s.duplicates),
        formatNumber(run.stats.requests),
        formatNumber(run.stats.repeats),
        run.shares.length === 0 ? '-' : run.shares.map((n) => formatNumber(n)).join(' / '),
        formatNumber(run.writers),
        isExactRun(run) ? 'yes' : 'NO',
      ];
    }),
  );
}

export function isExactRun(run: DistributedRun): boolean {
  return run.score !== null && isExact(run.score) && run.writers === 1;
}

export function speedTable(runs: readonly DistributedRun[], baseline: DistributedRun): string {
  const base = perPage(baseline);
  return formatTable(
    [
      'run',
      'time',
      'HTML pages',
      'pages/s',
      'vs SQLite',
      'CPU/page, workers',
      'vs SQLite',
      'CPU/page, PostgreSQL',
      'CPU/page, site',
      'CPU/page, all',
      'cores busy: ours / machine',
      'peak RSS per worker',
      'transactions/page',
      'state in PostgreSQL',
    ],
    runs.map((run) => {
      const cost = perPage(run);
      const rss = run.runs.map((r) => r.report.peakRss);
      return [
        run.label,
        formatDuration(run.wallMs),
        formatNumber(run.stats.htmlPages),
        formatNumber(pagesPerSecond(run)),
        run === baseline ? '' : formatRatio(pagesPerSecond(run) / pagesPerSecond(baseline)),
        formatDuration(cost.workers),
        run === baseline ? '' : formatRatio(cost.workers / base.workers),
        ms(cost.server),
        ms(cost.site),
        formatDuration(cost.all),
        `${formatNumber(ownCores(run), 2)} / ${run.machineCores === null ? '-' : formatNumber(run.machineCores, 2)}`,
        rss.length === 1
          ? formatMB(rss[0] ?? 0)
          : `${formatMB(Math.max(...rss))} (max of ${rss.length}; min ${formatMB(Math.min(...rss))})`,
        run.transactions === null ? '-' : formatNumber(run.transactions / run.stats.htmlPages, 2),
        run.stateBytes === null
          ? '-'
          : `${formatMB(run.stateBytes)} (${formatNumber(run.stateBytes / run.stats.htmlPages / 1000, 1)} KB/page)`,
      ];
    }),
  );
}

/**
 * What bounds the speed-up, from the figures: with every core busy, a page costing `all` ms
 * of CPU (workers, PostgreSQL and the site together) allows at most cores × 1000 / all
 * pages/s; a run well below its ceiling with the cores not full was waiting, not computing.
 */
export function boundsText(
  runs: readonly DistributedRun[],
  baseline: DistributedRun,
  cores: number,
): string {
  const lines = [
    `What bounds the speed-up on this machine (${cores} cores, shared by the workers, PostgreSQL, the`,
    "site process and anyone else's work):",
  ];
  const base = perPage(baseline);
  lines.push(
    `- 1 SQLite process: ${formatDuration(base.workers)} of crawler CPU per page` +
      (base.site === null ? '' : ` + ${formatDuration(base.site)} in the site`) +
      `; the crawler is one process, so it can use one core: ${formatNumber(ownCores(baseline), 2)} of ${cores} ` +
      `cores busy with our processes${machineNote(baseline)}.`,
  );
  for (const run of runs) {
    if (run === baseline) continue;
    const cost = perPage(run);
    const ceiling = (cores * 1000) / cost.all;
    const ratio = pagesPerSecond(run) / pagesPerSecond(baseline);
    const ceilingRatio = ceiling / pagesPerSecond(baseline);
    const full = (run.machineCores ?? ownCores(run)) >= 0.9 * cores;
    lines.push(
      `- ${run.label}: ${formatDuration(cost.workers)} in the workers` +
        (cost.server === null ? '' : ` + ${formatDuration(cost.server)} in PostgreSQL`) +
        (cost.site === null ? '' : ` + ${formatDuration(cost.site)} in the site`) +
        ` = ${formatDuration(cost.all)} of CPU per page; with all ${cores} cores on it, at most ` +
        `${formatNumber(ceiling)} pages/s (${formatRatio(ceilingRatio)} the SQLite run); it reached ` +
        `${formatNumber(pagesPerSecond(run))} (${formatRatio(ratio)}), ${formatNumber(ownCores(run), 2)} cores ` +
        `busy with our processes${machineNote(run)}: ` +
        (full
          ? 'CPU-bound (the cores were full).'
          : 'not CPU-bound: cores were left idle while steps waited (a worker makes its steps one at a time, and all workers queue on the one host row, below).'),
    );
  }
  lines.push(
    `Two workers come near 2x one process only when each has a core of its own. Here every page also`,
    `costs PostgreSQL's CPU (each worker step is a transaction) and the site's, on the same ${cores}`,
    'cores: the ceiling is the cores divided by the CPU per page of all of them together. And the',
    "site is one host: every step locks that host's row (politeness is per host) while the server",
    'runs it, so the steps of all workers run one at a time (with --statements: the time of the',
    '`SELECT ... FROM hosts ... FOR UPDATE`). A worker also waits for its own steps: pages it has',
    'finished wait for the next step to be recorded and replaced. A crawl of many hosts, with',
    'workers, database and site on machines of their own, has none of these limits.',
  );
  return lines.join('\n');
}

function machineNote(run: DistributedRun): string {
  if (run.machineCores === null) return '';
  const others = Math.max(0, run.machineCores - ownCores(run));
  return ` (the machine: ${formatNumber(run.machineCores, 2)}, so others used ~${formatNumber(others, 2)})`;
}

/** A run's errors, grouped by the site's explanation, with `examples` URLs each. */
export async function printErrors(
  on: SiteHandle,
  run: DistributedRun,
  examples: number,
): Promise<void> {
  if (run.score === null) {
    console.log(`\n  ${run.label}: no worker wrote the sitemap`);
    return;
  }
  if (run.writers > 1) console.log(`\n  ${run.label}: ${run.writers} workers wrote the sitemap`);
  const s = run.score;
  if (s.wrong.length > 0) {
    console.log(`\n  ${run.label}: wrong (listed, not in the true sitemap): ${s.wrong.length}`);
    for (const line of await errorGroups(on, s.wrong, false, examples)) console.log(line);
  }
  if (s.missed.length > 0) {
    console.log(`\n  ${run.label}: missed (in the true sitemap, not listed): ${s.missed.length}`);
    for (const line of await errorGroups(on, s.missed, true, examples)) console.log(line);
  }
  if (s.duplicates > 0) console.log(`  listed twice or more: ${formatNumber(s.duplicates)}`);
}
