// waymark's own transport undoes Content-Encoding as fetch does, with two deliberate
// differences tested here: a compressed body cut short fails instead of reading as a
// complete, shorter one, and a deflate bomb is inflated only as fast as it is read.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { type Route, startTestServer, type TestServer } from '../test-support/test-server.ts';
import { openRequest } from './open-request.ts';

const TEXT = `${Array.from({ length: 5000 }, (_, i) => `https://example.com/u${i}`).join('\n')}\n`;
const CODINGS = {
  gzip: gzipSync,
  deflate: deflateSync,
  'deflate-raw': deflateRawSync,
  br: brotliCompressSync,
} as const;

const options = (maxBytes = 64 * 1024 * 1024) => ({
  fetch: undefined,
  timeoutMs: 10_000,
  maxBytes,
  maxRedirects: 5,
  followRedirects: true,
  headers: {},
});

async function readAll(url: string, maxBytes?: number): Promise<string> {
  const response = await openRequest(url, options(maxBytes));
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

describe("Content-Encoding on waymark's own transport", () => {
  let server: TestServer;
  before(async () => {
    const routes: Record<string, Route> = {};
    for (const [name, compress] of Object.entries(CODINGS)) {
      const coding = name.startsWith('deflate') ? 'deflate' : name;
      const whole = compress(Buffer.from(TEXT));
      const headers = { 'content-encoding': coding };
      routes[`/whole/${name}`] = { headers, body: whole };
      routes[`/cut/${name}`] = { headers, body: whole.subarray(0, whole.length >> 1) };
      // Cut by its last bytes only: the gzip trailer, the end of the deflate stream.
      routes[`/tail/${name}`] = { headers, body: whole.subarray(0, whole.length - 4) };
    }
    for (const [name, compress] of Object.entries(CODINGS)) {
      const coding = name.startsWith('deflate') ? 'deflate' : name;
      const headers = { 'content-encoding': coding };
      routes[`/empty/${name}`] = { headers, body: new Uint8Array(0) };
      // Bytes after the compressed stream (a line break, padding), sent in the same write
      // and in a write of their own.
      const whole = compress(Buffer.from(TEXT));
      routes[`/trailing/${name}`] = { headers, body: Buffer.concat([whole, Buffer.from('\r\n')]) };
      routes[`/trailing-later/${name}`] = (_: unknown, res: ServerResponse) => {
        res.writeHead(200, headers);
        res.write(whole);
        setTimeout(() => res.end('\r\n'), 20);
      };
    }
    // 256 MiB of zeros in 256 KiB: a deflate bomb.
    routes['/bomb'] = {
      headers: { 'content-encoding': 'deflate' },
      body: deflateSync(Buffer.alloc(256 * 1024 * 1024)),
    };
    server = await startTestServer(routes);
  });
  after(() => server.close());

  for (const name of Object.keys(CODINGS)) {
    test(`${name}: a whole body reads whole; one cut short fails, however little is missing`, async () => {
      assert.equal(await readAll(server.url(`/whole/${name}`)), TEXT);
      for (const cut of ['cut', 'tail']) {
        await assert.rejects(readAll(server.url(`/${cut}/${name}`)), {
          code: 'network',
          message: /the body is cut short: its compressed stream ends before its end/,
        });
      }
    });
  }

  for (const name of Object.keys(CODINGS)) {
    test(`${name}: an empty body is empty; bytes after the compressed stream, as fetch reads them`, async () => {
      assert.equal(await readAll(server.url(`/empty/${name}`)), '');
      for (const route of ['trailing', 'trailing-later']) {
        const reading = readAll(server.url(`/${route}/${name}`));
        // gzip reads what follows a member as the next one, and fails on it (fetch too).
        if (name === 'gzip') await assert.rejects(reading, { code: 'network' });
        else assert.equal(await reading, TEXT, route);
      }
    });
  }

  test('a deflate bomb is inflated as it is read, not ahead of the reader', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const responses = [];
    for (let i = 0; i < 8; i++)
      responses.push(await openRequest(server.url('/bomb'), options(1024 * 1024)));
    for (const response of responses) await response.body[Symbol.asyncIterator]().next();
    // Unchecked, each one inflated some 64 MiB of its first chunk at once.
    const held = process.memoryUsage().arrayBuffers - before;
    await Promise.all(responses.map((response) => response.cancel()));
    assert.ok(held < 64 * 1024 * 1024, `${(held / 1e6).toFixed(1)} MB held by 8 opened bodies`);
    await assert.rejects(readAll(server.url('/bomb'), 1024 * 1024), { code: 'too-large' });
  });
});
