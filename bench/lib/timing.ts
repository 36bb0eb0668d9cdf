import { cpus, totalmem } from 'node:os';
// Round-robin timing with warm-up and medians, and plain-text tables.

export interface TimedCase {
  readonly name: string;
  /** One full pass; its result is kept so the work cannot be optimised away. */
  run(): unknown;
}

export interface TimingPlan {
  readonly warmups: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  /** Rounds are cut to fit this, judged from the warm-up passes. */
  readonly budgetMs: number;
}

/** Where results go, so that no timed work can be optimised away. */
const sink: { value: unknown } = { value: undefined };

/** Times each case once per round, cases interleaved; returns the median ms per case. */
export async function medianTimes(
  cases: readonly TimedCase[],
  plan: TimingPlan,
): Promise<Map<string, number>> {
  let warmupMs = 0;
  for (let i = 0; i < plan.warmups; i++) {
    for (const c of cases) warmupMs += await timeOnce(c);
  }
  const perRound = warmupMs / Math.max(1, plan.warmups);
  const rounds = Math.min(
    plan.maxRounds,
    Math.max(plan.minRounds, Math.floor(plan.budgetMs / perRound)),
  );
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) samples.get(c.name)?.push(await timeOnce(c));
  }
  return new Map([...samples].map(([name, times]) => [name, median(times)]));
}

/** Median ms per call of `fn`, calling it in batches of `batch` for `rounds` rounds. */
export function medianPerCall(fn: () => unknown, batch: number, rounds: number): number {
  for (let i = 0; i < batch; i++) sink.value = fn();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) sink.value = fn();
    times.push((performance.now() - start) / batch);
  }
  return median(times);
}

async function timeOnce(c: TimedCase): Promise<number> {
  const start = performance.now();
  sink.value = await c.run();
  return performance.now() - start;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
}

export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function formatNumber(value: number, fractionDigits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}

/** A duration with a unit that keeps three or so significant digits. */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${formatNumber(ms / 1000, 2)} s`;
  if (ms >= 1) return `${formatNumber(ms, ms >= 100 ? 0 : 2)} ms`;
  if (ms >= 0.001) return `${formatNumber(ms * 1000, ms >= 0.1 ? 0 : 2)} µs`;
  return `${formatNumber(ms * 1e6, 0)} ns`;
}

/** How many times faster waymark is: `x` above 1 means waymark wins. */
export function formatRatio(ratio: number): string {
  return `${formatNumber(ratio, ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2)}x`;
}

/** The machine a benchmark ran on, for the first lines of its output. */
export function machineLine(): string {
  const cores = cpus();
  return (
    `Node ${process.version}, ${process.platform} ${process.arch}, ${cores[0]?.model ?? 'unknown CPU'}, ` +
    `${cores.length} cores, ${formatNumber(totalmem() / 2 ** 30, 1)} GiB RAM`
  );
}
