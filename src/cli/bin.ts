#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// `waymark crawl` allocates fast for minutes (response bodies, decoded text, parser events)
// while it keeps only ~20 MB alive. With V8's defaults on a machine with much memory, the
// young generation grows to 2 x 64 MiB and the old one runs to 3x the live data between full
// collections: ~300 MB resident at 20,000 pages. Measured on that crawl (bench/crawl.ts):
// - the young generation kept at its starting 2 x 1 MiB (growth factor 1): -120 MB;
// - the old generation sized for memory, as on a small device (optimize-for-size): -50 MB;
// - no TurboFan: its compile zones stay in the malloc arenas of V8's worker threads
//   (-10 MB), and Maglev's code was no slower on this crawl.
// Together 120-140 MB instead of ~300 MB, for about 40% more CPU per page (more frequent
// collections). V8 reads these flags as it runs, so they work set here, before the crawl
// allocates; the other commands are short and keep the defaults. A program that calls
// `crawl()` itself can set the same flags (see the README).
const command = process.argv.slice(2).find((arg) => arg !== '--debug');
if (command === 'crawl') {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--no-turbofan');
}

const { createReadStream, readFileSync } = await import('node:fs');
const { readFile } = await import('node:fs/promises');
const { buffer } = await import('node:stream/consumers');
const { runCli } = await import('./main.ts');

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
});
