// Hostile sitemaps, and a normal URL set beside them: the shapes that used to make the reader quadratic (one endless line,
// a run of whitespace, a run of NUL bytes, deep nesting) and a gzip bomb stopped at the byte
// cap, each at 1, 10 and 100 MB, read from a file. MB/s must stay flat as the size grows:
// time linear in the bytes read. Beside it, `xmllint --stream` (libxml2's streaming reader,
// C) where it reads the same input to its end; the shapes it refuses early or cannot cap are
// marked instead of timed. Each shape is timed in a process of its own (this file is also
// that process's entry): timed one after another in one process, a shape's 1 MB reads paid
// for what the shapes and sizes before it had left in the heap and the JIT, and came out at
// 0.13-0.23x of the 100 MB rate where the same reads alone run at 0.7-0.9x.

import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { parseSitemapFile } from '../../src/sitemap/node.ts';
import { howItEnded, spawnNode } from './child-process.ts';
import { entryAt } from './sitemap-inputs.ts';
import { formatDuration, formatNumber, formatTable, median } from './timing.ts';

const MB = 1e6;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const ONE_URL = '<url><loc>https://www.example-shop.com/</loc></url>';
/** The bomb: this many GiB of zeros, gzipped (about 10 MB on disk). */
const BOMB_GIB = 10;

interface HostileShape {
  readonly name: string;
  /** Writes the input of (about) `bytes` bytes to `path`; returns the bytes to count as read. */
  readonly write: (path: string, bytes: number) => number;
  /** The byte cap to read with (the bomb's is the size: that is where it must stop). */
  readonly maxBytes: (bytes: number) => number;
  /** Why xmllint is not timed on this shape, or null when it reads it to the end. */
  readonly xmllint: string | null;
}

/** `bytes` of `fill` with `head` written at the start and `tail` at the end. */
function filled(bytes: number, fill: string | number, head: string, tail: string): Buffer {
  const buffer = Buffer.alloc(bytes, fill);
  buffer.write(head, 0);
  buffer.write(tail, bytes - Buffer.byteLength(tail));
  return buffer;
}

let bombPath: string | null = null;

/** 10 GiB of zeros as a valid gzip file: one compressed MiB repeated, then the trailer. */
function writeBomb(dir: string): string {
  if (bombPath !== null) return bombPath;
  const mib = new Uint8Array(1 << 20);
  const segment = deflateRawSync(mib, { finishFlush: constants.Z_SYNC_FLUSH, level: 9 });
  const count = BOMB_GIB * 1024;
  let crc = 0;
  for (let k = 0; k < count; k++) crc = crc32(mib, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((count * 2 ** 20) % 2 ** 32, 4);
  const parts = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])];
  for (let k = 0; k < count; k++) parts.push(segment);
  parts.push(Buffer.from([3, 0]), trailer);
  bombPath = join(dir, `bomb-${BOMB_GIB}gib.gz`);
  writeFileSync(bombPath, Buffer.concat(parts));
  return bombPath;
}

/** A clean URL set of about `bytes` bytes, one `<url>` per line, as the 50,000-URL input. */
function normalUrlset(bytes: number): Buffer {
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n`;
  const tail = '</urlset>\n';
  const lines: string[] = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const { loc, lastmod } = entryAt(i);
    const line = `<url><loc>${loc.replaceAll('&', '&amp;')}</loc><lastmod>${lastmod}</lastmod></url>\n`;
    lines.push(line);
    size += line.length;
  }
  lines.push(tail);
  return Buffer.from(lines.join(''));
}

/** The name of the one shape that is not hostile: the baseline for flatness. */
export const NORMAL_SHAPE = 'URL set (normal input)';

const SHAPES: readonly HostileShape[] = [
  {
    name: NORMAL_SHAPE,
    write: (path, bytes) => {
      const xml = normalUrlset(bytes);
      writeFileSync(path, xml);
      return xml.length;
    },
    maxBytes: () => 2 ** 30,
    xmllint: null,
  },
  {
    name: 'text sitemap, one line',
    write: (path, bytes) => {
      writeFileSync(path, filled(bytes, 'a', 'https://www.example-shop.com/', ''));
      return bytes;
    },
    maxBytes: () => 2 ** 30,
    xmllint: 'not XML',
  },
  {
    name: 'XML, one <loc> on one line',
    write: (path, bytes) => {
      const head = `<urlset ${NS}><url><loc>https://www.example-shop.com/`;
      writeFileSync(path, filled(bytes, 'a', head, '</loc></url></urlset>'));
      return bytes;
    },
    maxBytes: () => 2 ** 30,
    xmllint: null,
  },
  {
    name: 'whitespace run, then a URL set',
    write: (path, bytes) => {
      writeFileSync(path, filled(bytes, ' ', '', `<urlset ${NS}>${ONE_URL}</urlset>`));
      return bytes;
    },
    maxBytes: () => 2 ** 30,
    xmllint: null,
  },
  {
    name: 'NUL run',
    write: (path, bytes) => {
      writeFileSync(path, Buffer.alloc(bytes));
      return bytes;
    },
    maxBytes: () => 2 ** 30,
    xmllint: 'not XML: refused at the first byte',
  },
  {
    name: 'deep nesting',
    write: (path, bytes) => {
      const head = `<urlset ${NS}>`;
      const tail = `${ONE_URL}</urlset>`;
      const levels = Math.floor((bytes - head.length - tail.length) / 7);
      writeFileSync(path, `${head}${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}${tail}`);
      return head.length + 7 * levels + tail.length;
    },
    maxBytes: () => 2 ** 30,
    xmllint: null,
  },
  {
    name: `gzip bomb (${BOMB_GIB} GiB), capped at the size`,
    write: (path, bytes) => {
      writeBomb(join(path, '..'));
      return bytes;
    },
    maxBytes: (bytes) => bytes,
    xmllint: `no read cap: it would inflate all ${BOMB_GIB} GiB`,
  },
];

interface Measured {
  readonly ms: number;
  readonly entries: number;
  readonly codes: readonly string[];
}

/**
 * One read; its time is the main thread's CPU time during the read, not wall time (on a
 * shared machine wall time swung 3x between runs of the same file) nor the process's CPU
 * time: that counts V8's background compiles too, and one compile of the tokenizer (30-100
 * ms of CPU on a busy machine) landing in a 10 MB read of 20-40 ms made a round 0.3x as fast
 * as its neighbours. The flatness question is whether the reading's own work grows faster
 * than its input, which the main thread's time answers.
 */
async function readWithWaymark(path: string, maxBytes: number): Promise<Measured> {
  const started = threadCpuUsage();
  const reading = parseSitemapFile(path, { maxBytes });
  let entries = 0;
  for await (const _entry of reading) entries++;
  const used = threadCpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  const codes = [...new Set(reading.diagnostics.map((d) => d.code))];
  return { ms, entries, codes };
}

/** The main thread's CPU time (Node 23.9 and later), else the process's. */
function threadCpuUsage(since?: NodeJS.CpuUsage): NodeJS.CpuUsage {
  const own = (process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage })
    .threadCpuUsage;
  return own === undefined ? process.cpuUsage(since) : own.call(process, since);
}

function hasXmllint(): boolean {
  return spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
}

function readWithXmllint(path: string): { ms: number; ok: boolean } {
  const started = performance.now();
  const run = spawnSync('xmllint', ['--stream', '--noout', '--huge', path], { stdio: 'ignore' });
  return { ms: performance.now() - started, ok: run.status === 0 };
}

/** Untimed 1 MB reads of each shape before its timed ones. */
const WARM_UP_PASSES = 25;

/** Rounds per size: more for the small ones, whose time is mostly noise otherwise. */
function roundsFor(bytes: number): number {
  return bytes <= MB ? 7 : bytes <= 10 * MB ? 5 : 3;
}

/** One size of one shape, as the shape's process timed it. */
interface SizeTimes {
  readonly size: number;
  /** The input's file; the bomb's is the one bomb file. */
  readonly path: string;
  readonly bytes: number;
  readonly times: readonly number[];
  readonly last: Measured | null;
}

/** Starts the result line of a shape's process on its stdout. */
const RESULT_MARK = 'sitemap-hostile-result ';
const SCRIPT = fileURLToPath(import.meta.url);
const SHAPE_TIMEOUT_MS = 600_000;

/**
 * Times one shape's reads at every size, in the process that calls it: untimed warm-up
 * passes, then the sizes in turns. The inputs stay in `dir` for the caller.
 */
async function timeShape(
  dir: string,
  shape: HostileShape,
  sizesMB: readonly number[],
): Promise<SizeTimes[]> {
  // Untimed passes over this shape right before its timed reads, so the 1 MB figures are not
  // the JIT's warm-up: V8 keeps optimising the reader over the first 20 MB or so of a normal
  // URL set (1 MB reads: 61, 39, 23 ms, ... 16 ms from about the 20th on).
  const warmUpPath = join(dir, 'hostile-warm-up');
  const warmUpBytes = shape.write(warmUpPath, MB);
  const warmUpInput = shape.name.startsWith('gzip') ? (bombPath as string) : warmUpPath;
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    await readWithWaymark(warmUpInput, shape.maxBytes(warmUpBytes));
  }
  rmSync(warmUpPath, { force: true });
  // Every size written first, then read in turns (1, 10, 100 MB, 1, 10, ...): a busy
  // stretch of the machine then slows each size alike instead of one size's rounds.
  const inputs = sizesMB.map((size) => {
    const written = join(dir, `hostile-${size}mb`);
    const bytes = shape.write(written, size * MB);
    const path = shape.name.startsWith('gzip') ? (bombPath as string) : written;
    return { size, path, bytes, times: [] as number[], last: null as Measured | null };
  });
  const rounds = Math.max(...inputs.map((i) => roundsFor(i.bytes)));
  for (let round = 0; round < rounds; round++) {
    for (const item of inputs) {
      if (round >= roundsFor(item.bytes)) continue;
      item.last = await readWithWaymark(item.path, shape.maxBytes(item.bytes));
      item.times.push(item.last.ms);
    }
  }
  return inputs;
}

/** {@link timeShape} in a fresh process (this file run as a script). */
async function timeShapeAlone(
  dir: string,
  shape: number,
  sizesMB: readonly number[],
): Promise<SizeTimes[]> {
  const output = await spawnNode([SCRIPT, JSON.stringify({ dir, shape, sizesMB })], {
    timeoutMs: SHAPE_TIMEOUT_MS,
  });
  const line = output.stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (output.code !== 0 || line === undefined) {
    throw new Error(
      `the process timing "${SHAPES[shape]?.name}" failed (${howItEnded(output)}): ${output.stderr.slice(-500)}`,
    );
  }
  return JSON.parse(line.slice(RESULT_MARK.length)) as SizeTimes[];
}

/**
 * Section 6 of the sitemap benchmark. Returns each shape's MB/s at each size, smallest first,
 * for the flatness target.
 */
export async function hostileSection(
  dir: string,
  sizesMB: readonly number[],
): Promise<Map<string, number[]>> {
  const xmllint = hasXmllint();
  console.log(
    `\n6. Hostile input: each shape at ${sizesMB.map((s) => `${s} MB`).join(', ')}, read from a file with parseSitemapFile, each shape in a fresh process, the sizes taking turns, median of 7/5/3 rounds (main-thread CPU)\n`,
  );
  if (!xmllint) {
    console.log(
      'xmllint is not installed: its column is left out (on Debian: apt-get install libxml2-utils).\n',
    );
  }
  const rows: string[][] = [];
  const flatness: string[] = [];
  const allRates = new Map<string, number[]>();
  for (const [index, shape] of SHAPES.entries()) {
    const rates: number[] = [];
    allRates.set(shape.name, rates);
    const inputs = await timeShapeAlone(dir, index, sizesMB);
    for (const { size, path, bytes, times, last } of inputs) {
      const ms = median([...times]);
      rates.push(bytes / MB / (ms / 1000));
      let xmllintCell = xmllint ? (shape.xmllint ?? '') : 'not installed';
      if (xmllint && shape.xmllint === null) {
        const runs = Array.from({ length: roundsFor(bytes) }, () => readWithXmllint(path));
        const xmllintMs = median(runs.map((r) => r.ms));
        const ok = runs.every((r) => r.ok);
        xmllintCell = `${formatDuration(xmllintMs)}, ${formatNumber(bytes / MB / (xmllintMs / 1000), 1)} MB/s${ok ? '' : ' (error)'}`;
      }
      rows.push([
        shape.name,
        `${formatNumber(size)} MB`,
        formatDuration(ms),
        formatNumber(bytes / MB / (ms / 1000), 1),
        formatNumber(last?.entries ?? 0),
        (last?.codes ?? []).join(', '),
        xmllintCell,
      ]);
      if (!shape.name.startsWith('gzip')) rmSync(path, { force: true });
    }
    const first = rates[0] ?? Number.NaN;
    const lastRate = rates.at(-1) ?? Number.NaN;
    flatness.push(
      `${shape.name}: ${formatNumber(first, 1)} MB/s at ${sizesMB[0]} MB, ${formatNumber(lastRate, 1)} MB/s at ${sizesMB.at(-1)} MB (${formatNumber(lastRate / first, 2)}x)`,
    );
  }
  console.log(
    formatTable(
      [
        'shape',
        'size',
        'waymark (main-thread CPU)',
        'MB/s',
        'URLs',
        'diagnostics',
        'xmllint --stream --huge (wall)',
      ],
      rows,
    ),
  );
  console.log(
    `\nwaymark's MB/s (main-thread CPU time) from the smallest to the largest size (flat: time linear in bytes):`,
  );
  for (const line of flatness) console.log(`  ${line}`);
  console.log(
    [
      '',
      `The bomb is one ${BOMB_GIB} GiB gzip file read with maxBytes set to the size: it must stop there,`,
      'so its MB/s counts the inflated bytes read. The other shapes are read whole (maxBytes 1 GiB).',
      'waymark drops a value or line over 64 Ki characters and elements nested over 256 deep, with a',
      'diagnostic, instead of holding them.',
    ].join('\n'),
  );
  return allRates;
}

// Run as a script: one shape's timed reads (see timeShapeAlone), one JSON line out.
if (process.argv[1] === SCRIPT) {
  const { dir, shape, sizesMB } = JSON.parse(process.argv[2] ?? '{}') as {
    dir: string;
    shape: number;
    sizesMB: number[];
  };
  const chosen = SHAPES[shape];
  if (chosen === undefined) throw new Error(`no shape ${shape}`);
  const inputs = await timeShape(dir, chosen, sizesMB);
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(inputs)}\n`);
}
