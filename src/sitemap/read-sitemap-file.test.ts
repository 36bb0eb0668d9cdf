// parseSitemapFile and readSitemapFile on real files in a temporary directory: the same
// result as the reader on the same bytes (large files read in several lent buffers, gzip,
// a FIFO), a clear error for a file that cannot be opened, the file closed however the
// reading ends, and no hang on a FIFO nobody writes to.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  writeSync,
} from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { seededRandom } from '../test-support/seeded-random.ts';
import { readSitemap } from './index.ts';
import { openFileChunks } from './internal/file-chunks.ts';
import { parseSitemapFile, readSitemapFile } from './node.ts';
import { assertSameDocument } from './test-support/same-document.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/**
 * A URL set of `count` entries, of some 2.5 MiB at 20,000: more than two of the reader's
 * 1 MiB buffers, with two- and three-byte characters and entities falling across their edges.
 */
function bigUrlset(count: number): Uint8Array {
  const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n`];
  for (let i = 0; i < count; i++) {
    const lastmod = i % 3 === 0 ? `<lastmod>2026-0${1 + (i % 9)}-1${i % 10}</lastmod>` : '';
    parts.push(
      `<url><loc>https://shop.example/caf\u00e9/${i}/\u6f22\u5b57?q=a&amp;b=${i}</loc>${lastmod}</url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return new TextEncoder().encode(parts.join(''));
}

/** URLs whose paths are seeded random hex, so that gzip leaves them large. */
function noisyUrlset(count: number): Uint8Array {
  const next = seededRandom(14);
  const hex = (): string => {
    let out = '';
    for (let k = 0; k < 8; k++)
      out += Math.floor(next() * 2 ** 32)
        .toString(16)
        .padStart(8, '0');
    return out;
  };
  const parts = [`<urlset ${NS}>`];
  for (let i = 0; i < count; i++) parts.push(`<url><loc>https://a.example/${hex()}</loc></url>\n`);
  parts.push('</urlset>');
  return new TextEncoder().encode(parts.join(''));
}

/** Over 2 MiB of gzip: more than the first read (at most 1 MiB) and many reads after it. */
const NOISY_GZIP = gzipSync(noisyUrlset(70_000));

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-read-file-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function written(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('readSitemapFile: the same result as the reader on the same bytes', () => {
  const big = bigUrlset(20_000);
  const cases: [string, Uint8Array, { maxBytes?: number; url?: string }][] = [
    ['a file over two read buffers', big, {}],
    ['the same, gzipped', gzipSync(big), {}],
    ['gzip of over 2 MiB, read in many pieces', NOISY_GZIP, {}],
    [
      'the same in two gzip members',
      new Uint8Array(
        Buffer.concat([gzipSync(big.subarray(0, 1_234_567)), gzipSync(big.subarray(1_234_567))]),
      ),
      {},
    ],
    ['cut by maxBytes inside the second buffer', big, { maxBytes: 1_500_001 }],
    ['with a URL to check hosts against', big, { url: 'https://other.example/sitemap.xml' }],
    [
      'a one-line file',
      new TextEncoder().encode(`<urlset ${NS}><url><loc>https://a.example/</loc></url></urlset>`),
      {},
    ],
    [
      'a plain-text sitemap',
      new TextEncoder().encode('https://a.example/1\nhttps://a.example/2\n'),
      {},
    ],
    ['one byte', new TextEncoder().encode('<'), {}],
    ['an empty file', new Uint8Array(0), {}],
  ];
  for (const [name, bytes, options] of cases) {
    test(name, async () => {
      const path = await written(`${name.replaceAll(/\W+/g, '-')}.xml`, bytes);
      const expected = await readSitemap(bytes, options);
      const got = await readSitemapFile(path, options);
      assertSameDocument(got, expected);
      if (name.startsWith('a file over')) assert.equal(got.entries.length, 20_000);
      if (bytes === NOISY_GZIP) assert.ok(bytes.length > 2 * 1024 * 1024, `${bytes.length} bytes`);
    });
  }

  test('parseSitemapFile hands out entries as they are read, kind and diagnostics after', async () => {
    const path = await written('streamed.xml', big);
    const reading = parseSitemapFile(path, { maxEntries: 10_000 });
    assert.equal(reading.kind, 'unknown');
    let count = 0;
    for await (const entry of reading) {
      assert.match(entry.loc, /^https:\/\/shop\.example\/caf%C3%A9\/\d+\//);
      count++;
    }
    assert.equal(count, 10_000);
    assert.equal(reading.kind, 'urlset');
    assert.ok(reading.diagnostics.some((d) => d.code === 'too-many-entries'));
    assert.deepEqual(
      reading.diagnostics,
      (await readSitemap(big, { maxEntries: 10_000 })).diagnostics,
    );
  });
});

describe('a file that cannot be opened', () => {
  const cases: [string, () => string, RegExp][] = [
    ['no such file', () => join(dir, 'missing.xml'), /cannot read .*missing\.xml: no such file/],
    ['a directory', () => dir, /cannot read .*: a directory, not a file/],
  ];
  for (const [name, path, message] of cases) {
    test(`${name}: readSitemapFile rejects with io-failed`, async () => {
      await assert.rejects(readSitemapFile(path()), (error: unknown) => {
        assert.ok(isWaymarkError(error) && error.code === 'io-failed', String(error));
        assert.match(error.message, message);
        return true;
      });
    });
    test(`${name}: iterating parseSitemapFile throws the same`, async () => {
      const reading = parseSitemapFile(path());
      await assert.rejects(async () => {
        for await (const _ of reading) assert.fail('no entry');
      }, message);
      assert.equal(reading.kind, 'unknown');
      assert.deepEqual(reading.diagnostics, []);
    });
  }
});

const FD_DIR = '/proc/self/fd';
const openFiles = (): number => readdirSync(FD_DIR).length;

describe('the file is closed however the reading ends', {
  skip: existsSync(FD_DIR) ? undefined : 'needs /proc/self/fd to count open files',
}, () => {
  test('read to the end, left early, or failed in the middle', async () => {
    const path = await written('closing.xml', bigUrlset(20_000));
    const before = openFiles();
    await readSitemapFile(path);
    for await (const _ of parseSitemapFile(path)) break;
    const reading = parseSitemapFile(path);
    await assert.rejects(async () => {
      for await (const _ of reading) throw new Error('the consumer failed');
    }, /the consumer failed/);
    // Closing is not awaited by the reading: give it its turn on the thread pool.
    for (let i = 0; i < 500 && openFiles() > before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(openFiles(), before);
  });
});

describe('the read buffers are let go of when a file is done', () => {
  // Left to the garbage collector, the 1 MiB buffers of files read one after another
  // outlived their readings (the 20 parts of an index: some 25 MB more peak RSS).
  const detached = (buffer: ArrayBufferLike): boolean =>
    (buffer as ArrayBuffer & { detached: boolean }).detached;

  test('read to the end: both lent buffers are detached', async () => {
    const path = await written('lent.xml', bigUrlset(20_000));
    const source = await openFileChunks(path);
    const seen = new Set<ArrayBufferLike>();
    for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
      assert.ok(chunk instanceof Uint8Array);
      assert.ok(!detached(chunk.buffer), 'a chunk handed out is readable');
      seen.add(chunk.buffer);
    }
    assert.equal(seen.size, 2, 'two buffers, taking turns');
    for (const buffer of seen) assert.ok(detached(buffer));
  });

  test('closed early, with a read pending: detached once that read has ended', async () => {
    const path = await written('lent-early.xml', bigUrlset(20_000));
    const source = await openFileChunks(path);
    const first = await source.next();
    assert.ok(first instanceof Uint8Array);
    source.close();
    for (let i = 0; i < 100 && !detached(first.buffer); i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.ok(detached(first.buffer));
  });
});

const hasMkfifo = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

/** Writes `bytes` to `fd` in pieces of `size`, pausing between them so each is read alone. */
async function trickle(fd: number, bytes: Uint8Array, size: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += size) {
    writeSync(fd, bytes.subarray(at, at + size));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('FIFOs', { skip: hasMkfifo ? undefined : 'needs mkfifo' }, () => {
  // The writing end is opened read-write, which on Linux never waits for a reader: a test
  // that fails before the reader opens cannot leave a write waiting for ever.
  test('read as it arrives, a few bytes at a time', async () => {
    const fifo = join(dir, 'fed.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const bytes = bigUrlset(100);
    const writer = openSync(fifo, 'r+');
    try {
      const reading = readSitemapFile(fifo);
      // Under the 1,024 bytes the parser sniffs the encoding from, piece by piece: what it
      // holds of them must survive the reads after.
      await trickle(writer, bytes.subarray(0, 3_000), 37);
      writeSync(writer, bytes.subarray(3_000));
      closeSync(writer);
      assertSameDocument(await reading, await readSitemap(bytes));
    } finally {
      try {
        closeSync(writer);
      } catch {
        // Closed already.
      }
    }
  });

  test('one nobody opens for writing: cut off at timeoutMs, and let go of', async () => {
    const fifo = join(dir, 'silent.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const got = await readSitemapFile(fifo, { timeoutMs: 100 });
    assert.deepEqual(
      got.diagnostics.map((d) => d.code),
      ['time-limit'],
    );
    assert.deepEqual(got.entries, []);
    // Nothing holds it open for reading any more (an open waiting on the thread pool would
    // count as its reader): a writer that will not wait is refused.
    assert.equal(await openWriterWhenRead(fifo, 0), 'no reader');
  });

  test('a writer that comes after the reading began is waited for', async () => {
    const fifo = join(dir, 'late.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const bytes = bigUrlset(2_000);
    const reading = readSitemapFile(fifo);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const writer = await openWriterWhenRead(fifo, 2_000);
    assert.equal(typeof writer, 'number');
    await writeAll(writer as number, bytes);
    closeSync(writer as number);
    assertSameDocument(await reading, await readSitemap(bytes));
  });

  test('a writer that stalls: entries so far, time-limit, and the FIFO let go of', async () => {
    const fifo = join(dir, 'stalled.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const bytes = bigUrlset(50);
    const reading = readSitemapFile(fifo, { timeoutMs: 300 });
    const writer = await openWriterWhenRead(fifo, 2_000);
    assert.equal(typeof writer, 'number');
    try {
      const cut = bytes.indexOf(0x0a, Math.floor(bytes.length / 2)) + 1;
      await writeAll(writer as number, bytes.subarray(0, cut));
      const got = await reading;
      assert.equal(got.diagnostics[0]?.code, 'time-limit');
      const whole = await readSitemap(bytes);
      assert.ok(got.entries.length > 0 && got.entries.length < whole.entries.length);
      assert.deepEqual(
        got.entries.map((e) => e.loc),
        whole.entries.slice(0, got.entries.length).map((e) => e.loc),
      );
      // The reading closed its end: writing now finds no reader.
      assert.equal(await writeFindsNoReader(writer as number), true);
    } finally {
      closeSync(writer as number);
    }
  });
});

/**
 * Opens the FIFO's writing end without waiting (O_NONBLOCK), retrying for up to `waitMs`
 * while nobody has it open for reading: its descriptor, or 'no reader' once the time is up.
 */
async function openWriterWhenRead(fifo: string, waitMs: number): Promise<number | 'no reader'> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      if (Date.now() >= until) return 'no reader';
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Writes all of `bytes` to a non-blocking descriptor, waiting while the pipe is full. */
async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes.subarray(at));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/** Whether a write to `fd` fails with EPIPE (no reader) within two seconds. */
async function writeFindsNoReader(fd: number): Promise<boolean> {
  const until = Date.now() + 2_000;
  while (Date.now() < until) {
    try {
      writeSync(fd, ' ');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return true;
      if (code !== 'EAGAIN') throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

const hasPython = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Runs `readSitemapFile('/dev/stdin', { timeoutMs })` in a new process whose standard input
 * is a terminal (a pseudo-terminal python3 opens: Node cannot), typing `typed` and then
 * Ctrl-D after `delayMs`, or nothing when `typed` is null. What the reading gave, and the
 * seconds the process took.
 */
function readFromTerminal(typed: string | null, delayMs: number, timeoutMs: number) {
  const program = `
    const { readSitemapFile } = await import(${JSON.stringify(new URL('./node.ts', import.meta.url).pathname)});
    const got = await readSitemapFile('/dev/stdin', { timeoutMs: ${timeoutMs} });
    process.stdout.write(JSON.stringify({ locs: got.entries.map((e) => e.loc), codes: got.diagnostics.map((d) => d.code) }));
  `;
  const driver = `
import os, subprocess, sys, time
master, slave = os.openpty()
started = time.time()
child = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE)
os.close(slave)
time.sleep(${delayMs / 1000})
typed = ${typed === null ? 'None' : JSON.stringify(typed)}
if typed is not None:
    os.write(master, typed.encode() + b'\\x04')
out, _ = child.communicate(timeout=30)
sys.stdout.write(out.decode() + '\\n' + str(time.time() - started))
`;
  const run = spawnSync(
    'python3',
    ['-c', driver, process.execPath, '--input-type=module', '-e', program],
    { encoding: 'utf8', timeout: 40_000 },
  );
  assert.equal(run.status, 0, run.stderr);
  const [json = '', seconds = ''] = run.stdout.split('\n');
  return { ...(JSON.parse(json) as { locs: string[]; codes: string[] }), seconds: Number(seconds) };
}

describe('a terminal (Linux)', {
  skip:
    process.platform !== 'linux'
      ? 'Linux only'
      : hasPython
        ? undefined
        : 'needs python3 for a pseudo-terminal',
}, () => {
  test('what is typed before Ctrl-D is read, however late it comes', () => {
    const typed = `<urlset ${NS}>\n<url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.example/2</loc></url>\n</urlset>\n`;
    const got = readFromTerminal(typed, 700, 20_000);
    assert.deepEqual(got, {
      ...got,
      locs: ['https://a.example/1', 'https://a.example/2'],
      codes: [],
    });
  });

  test('nothing typed: time-limit at timeoutMs, and the process exits', () => {
    const got = readFromTerminal(null, 0, 300);
    assert.deepEqual(got.codes, ['time-limit']);
    assert.ok(got.seconds < 15, `the process ended after ${got.seconds} s`);
  });
});

describe('a file that opens but cannot be read', {
  skip: existsSync('/proc/self/mem') ? undefined : 'needs /proc/self/mem',
}, () => {
  test('its first read failing is io-failed, as a file that cannot be opened', async () => {
    await assert.rejects(readSitemapFile('/proc/self/mem'), (error: unknown) => {
      assert.ok(isWaymarkError(error) && error.code === 'io-failed', String(error));
      assert.match(error.message, /cannot read \/proc\/self\/mem: /);
      return true;
    });
  });
});
