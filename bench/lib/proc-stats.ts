// CPU time of other processes (the PostgreSQL server and its backends, the site process) and
// of the whole machine, read from Linux's /proc. Elsewhere every figure is null and the
// benchmark leaves its column empty.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux almost everywhere). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** utime + stime + cutime + cstime (its own CPU and that of its children it reaped), ms. */
  readonly cpuMs: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses. After it, field 3
    // (state) is index 0, so ppid is 1 and utime, stime, cutime, cstime are 11 to 14.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    return { pid, ppid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS };
  } catch {
    return null;
  }
}

function allStats(): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readStat(Number(entry)))
    .filter((stat) => stat !== null);
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** The pids of this process's children whose command line satisfies `test`. */
export function childPids(test: (args: readonly string[]) => boolean): number[] {
  return allStats()
    .filter((stat) => stat.ppid === process.pid && test(commandLine(stat.pid)))
    .map((stat) => stat.pid);
}

/** The PostgreSQL server (postmaster) this process started on `port`, or null. */
export function postmasterPid(port: number): number | null {
  const [pid] = childPids((args) => {
    const at = args.indexOf('-p');
    return /(^|\/)postgres$/.test(args[0] ?? '') && at > 0 && args[at + 1] === String(port);
  });
  return pid ?? null;
}

/**
 * CPU milliseconds used so far by `pid` and every process below it, ended ones included
 * (a parent's reaped children are in its cutime/cstime), or null without /proc. For a
 * PostgreSQL server: the postmaster, its live backends and auxiliary processes, and every
 * backend that has ended.
 */
export function treeCpuMs(pid: number): number | null {
  const stats = allStats();
  if (stats.length === 0) return null;
  const byParent = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const siblings = byParent.get(stat.ppid) ?? [];
    siblings.push(stat);
    byParent.set(stat.ppid, siblings);
  }
  const root = stats.find((stat) => stat.pid === pid);
  if (root === undefined) return null;
  let total = 0;
  const queue = [root];
  for (let stat = queue.pop(); stat !== undefined; stat = queue.pop()) {
    total += stat.cpuMs;
    queue.push(...(byParent.get(stat.pid) ?? []));
  }
  return total;
}

/** The machine's CPU time so far: busy (not idle nor iowait) and total, ms over all cores. */
export interface MachineCpu {
  readonly busyMs: number;
  readonly totalMs: number;
}

export function machineCpu(): MachineCpu | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is in user)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number) as number[];
    const busy = [user, nice, system, irq, softirq, steal].reduce<number>(
      (sum, n) => sum + (n ?? 0),
      0,
    );
    const total = busy + (idle ?? 0) + (iowait ?? 0);
    return { busyMs: (busy * 1000) / TICKS, totalMs: (total * 1000) / TICKS };
  } catch {
    return null;
  }
}

/** Cores the whole machine kept busy between two readings. */
export function coresBusy(before: MachineCpu | null, after: MachineCpu | null): number | null {
  if (before === null || after === null || after.totalMs <= before.totalMs) return null;
  return ((after.busyMs - before.busyMs) / (after.totalMs - before.totalMs)) * cpus().length;
}
