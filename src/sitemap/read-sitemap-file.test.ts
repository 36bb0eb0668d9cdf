// parseSitemapFile and readSitemapFile on real files in a temporary directory: the same
// result as the reader on the same bytes (large files read in several lent buffers, gzip,
// a FIFO), a clear error for a file that cannot be opened, the file closed however the
// reading ends, and no hang on a FIFO nobody writes to.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isWaymarkError } from '../shared/waymark-error.ts';
import { readSitemap } from './index.ts';
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
    for (let i = 0; i < 50 && openFiles() > before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(openFiles(), before);
  });
});

const hasMkfifo = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

describe('FIFOs', { skip: hasMkfifo ? undefined : 'needs mkfifo' }, () => {
  test('read as a stream of unknown size', async () => {
    const fifo = join(dir, 'fed.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const bytes = bigUrlset(3_000);
    const [got] = await Promise.all([readSitemapFile(fifo), writeFile(fifo, bytes)]);
    assertSameDocument(got, await readSitemap(bytes));
  });

  test('one nobody opens for writing: cut off at timeoutMs, not waited for', async () => {
    const fifo = join(dir, 'silent.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const started = performance.now();
    const got = await readSitemapFile(fifo, { timeoutMs: 100 });
    assert.ok(performance.now() - started < 10_000, 'returned');
    assert.deepEqual(
      got.diagnostics.map((d) => d.code),
      ['time-limit'],
    );
    assert.deepEqual(got.entries, []);
    // The open still waits on the thread pool: a writer that comes and goes ends it.
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  });
});
