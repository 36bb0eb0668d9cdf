import { setFlagsFromString } from 'node:v8';

// V8 flags a long-running command sets for itself as it starts, before it allocates much.
// V8 reads these as it runs, so setting them here works; a flag V8 reads only when the
// process starts (--max-semi-space-size) would need Node's command line. They apply to
// the whole process, which is the command's own: the library never sets any.
//
// `crawl` allocates fast for minutes (response bodies, decoded text, parser events) while it
// keeps only ~20 MB alive. With V8's defaults on a machine with much memory, the young
// generation grows to 2 x 64 MiB and the old one runs to 3x the live data between full
// collections: ~300 MB resident at 20,000 pages. Measured on that crawl (bench/crawl.ts):
// - the young generation kept at its starting 2 x 1 MiB (growth factor 1): -120 MB;
// - the old generation allowed to grow to 1.25x the live data before the next full
//   collection (heap-growing-percent=25): as low as sizing it for a small device
//   (optimize-for-size), which cost ~10% more CPU per page for the same RSS;
// - no TurboFan: its compile zones stay in the malloc arenas of V8's worker threads
//   (-10 MB), and Maglev's code was no slower on this crawl.
// Together 120-140 MB instead of ~300 MB, for about 25% more CPU per page.
//
// `serve` builds its index of the content root in one go, and all of it survives: V8 takes
// that for a program that needs a large young generation and grows it to 2 x 64 MiB, which
// the process keeps. Kept at its starting size, the index is promoted to the old generation
// as it is built. On 50,000 documents (bench/site.ts, two runs): peak RSS 147-149 MB instead
// of 196-200 MB once /sitemap.xml has been answered, and 174-178 MB instead of 265-272 MB
// after the load runs, for about the same requests per second and up to 10% more CPU per
// request (smaller collections, more often).
const FLAGS_BY_COMMAND: Readonly<Record<string, readonly string[]>> = {
  crawl: ['--semi-space-growth-factor=1', '--heap-growing-percent=25', '--no-turbofan'],
  serve: ['--semi-space-growth-factor=1'],
};

/** The V8 flags `waymark <command>` sets for itself (none for short commands). */
export function v8FlagsFor(command: string | undefined): readonly string[] {
  if (command === undefined || !Object.hasOwn(FLAGS_BY_COMMAND, command)) return [];
  return FLAGS_BY_COMMAND[command] ?? [];
}

/** Sets {@link v8FlagsFor} `command` in this process. */
export function tuneV8For(command: string | undefined): void {
  for (const flag of v8FlagsFor(command)) setFlagsFromString(flag);
}
