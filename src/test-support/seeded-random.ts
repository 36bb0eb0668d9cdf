// One small seeded generator for every test and benchmark that splits input or lays out
// data at random, so a failing split or a benchmark's site is the same on the next run.

/**
 * mulberry32: small, fast, and good enough to choose chunk sizes or lay out a site.
 *
 * @example
 * ```ts
 * const next = seededRandom(1);
 * const size = 1 + Math.floor(next() * 100); // the same on every run
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
