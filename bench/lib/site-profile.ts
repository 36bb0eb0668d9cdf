// Where a server process spends its time, from a V8 CPU profile of the measured stretch:
// per function, its self time (samples where it was running) and its total time (samples
// where it was on the stack), as shares of the busy time; and, for waymark's hottest
// functions, the source lines their own samples fell on.

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatTable } from './timing.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
  /** Samples per source line (1-based) while this node itself ran. */
  readonly positionTicks?: readonly { readonly line: number; readonly ticks: number }[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileLine {
  readonly name: string;
  readonly where: string;
  readonly selfShare: number;
  readonly totalShare: number;
  /** Its own samples by source line, most first: [line, share of its samples]. */
  readonly hotLines: readonly (readonly [number, number])[];
}

/**
 * Every function of the profile in `file`, with the busy (not idle) time in ms. Samples taken
 * inside the inspector (the profiler's own start and stop) are left out. A native function
 * with no script of its own is named with the nearest script function that called it.
 */
export function summariseProfile(file: string): { busyMs: number; lines: ProfileLine[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const stackOf = (id: number): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame !== undefined && frame.callFrame.functionName !== '(root)') stack.push(frame);
    }
    return stack;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  for (const [i, id] of profile.samples.entries()) {
    // A sample's delta is the time since the previous one: charge it to this sample.
    const delta = profile.timeDeltas[i] ?? 0;
    const stack = stackOf(id);
    const top = stack[0];
    if (top === undefined || top.callFrame.functionName === '(idle)') continue;
    if (stack.some((frame) => frame.callFrame.url === 'node:inspector')) continue;
    busy += delta;
    const key = selfKeyOf(stack);
    self.set(key, (self.get(key) ?? 0) + delta);
    const seen = new Set(stack.map(keyOf));
    seen.add(key);
    for (const k of seen) total.set(k, (total.get(k) ?? 0) + delta);
  }
  const ticks = new Map<string, Map<number, number>>();
  for (const node of profile.nodes) {
    const byLine = ticks.get(keyOf(node)) ?? new Map<number, number>();
    for (const { line, ticks: n } of node.positionTicks ?? []) {
      byLine.set(line, (byLine.get(line) ?? 0) + n);
    }
    ticks.set(keyOf(node), byLine);
  }
  const lines = [...total.keys()].map((key) => {
    const [name = '', where = ''] = key.split('\t');
    const byLine = [...(ticks.get(key) ?? [])];
    const sum = byLine.reduce((n, [, t]) => n + t, 0);
    return {
      name,
      where,
      selfShare: (self.get(key) ?? 0) / busy,
      totalShare: (total.get(key) ?? 0) / busy,
      hotLines: byLine
        .sort((a, b) => b[1] - a[1])
        .map(([line, t]) => [line, t / sum] as const)
        .filter(([, share]) => share >= 0.05),
    };
  });
  return { busyMs: busy / 1000, lines };
}

/** The running function; a native one as `name` `in caller (file:line)`. */
function selfKeyOf(stack: readonly ProfileNode[]): string {
  const [top, ...callers] = stack;
  if (top === undefined) return '';
  const { functionName, url } = top.callFrame;
  if (url !== '' || functionName.startsWith('(')) return keyOf(top);
  const caller = callers.find((frame) => frame.callFrame.url !== '');
  if (caller === undefined) return keyOf(top);
  const [name = '', where = ''] = keyOf(caller).split('\t');
  return `${functionName || '(native)'}\tin ${name} (${where})`;
}

/** The top `count` by self time, then the top `count` waymark functions by total time. */
export function profileTables(lines: readonly ProfileLine[], count: number): string {
  const row = (l: ProfileLine) => [
    l.name,
    l.where,
    `${formatNumber(l.selfShare * 100, 1)}%`,
    `${formatNumber(l.totalShare * 100, 1)}%`,
  ];
  const header = ['function', 'where', 'self', 'total'];
  const bySelf = [...lines].sort((a, b) => b.selfShare - a.selfShare).slice(0, count);
  const ours = [...lines]
    .filter((l) => l.where.startsWith('src/'))
    .sort((a, b) => b.totalShare - a.totalShare)
    .slice(0, count);
  const hot = [...lines]
    .filter((l) => l.where.startsWith('src/') && l.selfShare >= 0.02 && l.hotLines.length > 0)
    .sort((a, b) => b.selfShare - a.selfShare)
    .slice(0, 3)
    .map((l) => {
      const file = l.where.slice(0, l.where.lastIndexOf(':'));
      const spots = l.hotLines.map(([line, share]) => `${line} (${formatNumber(share * 100)}%)`);
      return `  ${l.name} (${formatNumber(l.selfShare * 100, 1)}% self): ${file} lines ${spots.join(', ')}`;
    });
  return [
    'By self time:',
    formatTable(header, bySelf.map(row)),
    '',
    "waymark's own functions by total time (self plus what they call):",
    formatTable(header, ours.map(row)),
    ...(hot.length > 0 ? ['', 'Where their own time goes, by source line:', ...hot] : []),
  ].join('\n');
}

function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}\t${shortUrl(url)}${url === '' ? '' : `:${lineNumber + 1}`}`;
}

/** `src/site/...` for waymark, `node:...` for Node's own, else the file. */
function shortUrl(url: string): string {
  if (url === '') return '';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const src = path.lastIndexOf('/src/');
  if (src >= 0) return path.slice(src + 1);
  if (path.startsWith(REPO)) return relative(REPO, path);
  return path;
}
