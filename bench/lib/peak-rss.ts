// The one way every benchmark process reports its memory.

import { readFileSync } from 'node:fs';

/**
 * The process's peak resident memory so far, in bytes: Linux's `VmHWM`. Not `getrusage`'s
 * maxrss, which Linux carries over from the parent across fork and exec, so a child of a
 * large bench process would report the bench's own RSS.
 */
export function peakRssNow(): number {
  try {
    const kib = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS * 1024;
}
