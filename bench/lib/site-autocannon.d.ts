// autocannon 9 ships no types: the part of its programmatic API the site benchmark calls.

declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
    title?: string;
  }

  /** An hdr-histogram summary; for `latency` in milliseconds, for `throughput` in bytes/s. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface Result {
    url: string;
    connections: number;
    /** Seconds the run really took. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    /** Per-second samples; `total` is the number of completed requests. */
    requests: Histogram & { sent: number };
    latency: Histogram & { totalCount: number };
    /** Per-second samples of response bytes; `total` is every byte received. */
    throughput: Histogram;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  /** Without a callback the instance is also a promise of the result. */
  export default function autocannon(options: Options): Instance;
}
