#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { hideSqliteExperimentalWarning, unsupportedNodeMessage } from './internal/node-runtime.ts';

// Checked before anything else is imported: on an older Node the module graph fails to load
// (node:sqlite), with a stack trace even for --help. The exit status is EXIT_FAILURE (the
// job cannot be done here), written out so that nothing is imported before the check.
const unsupported = unsupportedNodeMessage(process.version, process.execPath);
if (unsupported !== null) {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 3;
} else {
  hideSqliteExperimentalWarning(process);
  exitQuietlyWhenOutputCloses();
  tuneMemoryForCrawl(process.argv.slice(2));
  // Not a top-level await: a Node too old for one (before 14.8) still parses this module
  // and gets the message above. runCli catches every failure of a command.
  void run();
}

/**
 * `waymark sitemap parse big.xml | head -1`: once the reader has gone there is no one to tell,
 * so the process ends at once, silently, with the status of a process killed by SIGPIPE
 * (128 + 13), as `cat` or `grep` would end (a shell with `pipefail` sees it; others do not).
 */
function exitQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(128 + 13);
    });
  }
}

// `waymark crawl` allocates fast for minutes (response bodies, decoded text, parser events)
// while it keeps only ~20 MB alive. With V8's defaults on a machine with much memory, the
// young generation grows to 2 x 64 MiB and the old one runs to 3x the live data between full
// collections: ~300 MB resident at 20,000 pages. Measured on that crawl (bench/crawl.ts):
// - the young generation kept at its starting 2 x 1 MiB (growth factor 1): -120 MB;
// - the old generation allowed to grow to 1.25x the live data before the next full
//   collection (heap-growing-percent=25): as low as sizing it for a small device
//   (optimize-for-size), which cost ~10% more CPU per page for the same RSS;
// - no TurboFan: its compile zones stay in the malloc arenas of V8's worker threads
//   (-10 MB), and Maglev's code was no slower on this crawl.
// Together 120-140 MB instead of ~300 MB, for about 25% more CPU per page (more frequent
// collections). V8 reads these flags as it runs, so they work set here, before the crawl
// allocates; the other commands are short and keep the defaults. A program that calls
// `crawl()` itself can set the same flags (see the README).
function tuneMemoryForCrawl(args: readonly string[]): void {
  const command = args.find((arg) => arg !== '--debug');
  if (command === 'crawl') {
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--heap-growing-percent=25');
    setFlagsFromString('--no-turbofan');
  }
}

async function run(): Promise<void> {
  const { createReadStream, readFileSync } = await import('node:fs');
  const { readFile } = await import('node:fs/promises');
  const { buffer } = await import('node:stream/consumers');
  const { runCli } = await import('./main.ts');
  const { interruptSignal } = await import('./internal/interrupt.ts');

  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };

  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => new Uint8Array(await buffer(process.stdin)),
    readFile: async (path) => new Uint8Array(await readFile(path)),
    openFile: (path) => (path === '-' ? process.stdin : createReadStream(path)),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    version: pkg.version,
    interrupts: () => interruptSignal(process),
  });
}
