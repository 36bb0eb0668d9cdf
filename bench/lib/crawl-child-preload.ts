// Loaded with `node --import` into every crawler process the crawl benchmark starts, before
// the crawler's own code. Two jobs, and nothing else loaded for them:
// - as the process exits, write its peak resident memory (Linux VmHWM) to stderr;
// - refuse every TCP connection that is not to 127.0.0.1, so a crawler that followed an
//   off-site link (the pages link to github.com, twitter.com...) can never reach the network.
//   Refused hosts are reported with the peak.

import { readFileSync, writeSync } from 'node:fs';
import net from 'node:net';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { peakRssNow } from './peak-rss.ts';

/** Must match `REPORT_MARK` in `crawl-child.ts` (not imported: this file loads nothing more). */
const MARK = 'crawl-child-report ';

export interface PreloadReport {
  /** Peak RSS of the process, bytes. */
  readonly peakRss: number;
  /** Hosts a connection was refused to. */
  readonly blocked: readonly string[];
  /** Milliseconds from the process's start to its exit. */
  readonly uptimeMs: number;
  /** CPU time of the process (user + system), milliseconds. */
  readonly cpuMs: number;
  /** Largest V8 heap in use right after a full GC: what the process really held. */
  readonly liveHeap: number;
  /** Largest V8 heap reserved, seen at a full GC: live data plus V8's headroom. */
  readonly heapTotal: number;
  /** Bytes the process caused to be written to storage (Linux `write_bytes`), or null. */
  readonly writtenBytes: number | null;
}

const blocked: string[] = [];

/** The host a `Socket#connect` call targets, or null for a local pipe. */
function targetHost(args: readonly unknown[]): string | null {
  let first = args[0];
  if (Array.isArray(first)) first = first[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: unknown; path?: unknown };
    if (typeof options.path === 'string' && options.path !== '') return null;
    return typeof options.host === 'string' ? options.host : 'localhost';
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return null;
  return typeof args[1] === 'string' ? args[1] : 'localhost';
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const host = targetHost(args);
  if (host !== null && host !== '127.0.0.1') {
    blocked.push(host);
    process.nextTick(() => this.destroy(new Error(`bench guard: no connections to ${host}`)));
    return this;
  }
  return Reflect.apply(connect, this, args) as net.Socket;
} as typeof connect;

let liveHeap = 0;
let heapTotal = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
    if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    const heap = getHeapStatistics();
    liveHeap = Math.max(liveHeap, heap.used_heap_size);
    heapTotal = Math.max(heapTotal, heap.total_heap_size);
  }
});
observer.observe({ entryTypes: ['gc'] });

/** What the process has had written to the disk (its crawl state, its sitemap), or null. */
function writtenBytes(): number | null {
  try {
    const bytes = /^write_bytes:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1];
    return bytes === undefined ? null : Number(bytes);
  } catch {
    return null;
  }
}

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const report: PreloadReport = {
    peakRss: peakRssNow(),
    blocked,
    uptimeMs: performance.now(),
    cpuMs: (user + system) / 1000,
    liveHeap,
    heapTotal: Math.max(heapTotal, getHeapStatistics().total_heap_size),
    writtenBytes: writtenBytes(),
  };
  writeSync(2, `\n${MARK}${JSON.stringify(report)}\n`);
});
