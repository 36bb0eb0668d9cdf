// Both ways the reader inflates gzip: member by member through Node's zlib (where there is
// one), and through the Web DecompressionStream elsewhere.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { type Chunk, type ChunkSource, chunksOf, gunzipIfNeeded } from './byte-source.ts';
import { nodeZlib } from './gzip-members.ts';

const text = (n: number, from = 0): string =>
  Array.from({ length: n }, (_, i) => `<url><loc>https://a.example/${from + i}</loc></url>\n`).join(
    '',
  );

async function drain(source: ChunkSource): Promise<string> {
  const decoder = new TextDecoder();
  let out = '';
  for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
    out += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  }
  return out + decoder.decode();
}

/** A source over `pieces` that counts how many bytes were taken from it. */
function counted(pieces: Uint8Array[]): ChunkSource & { taken: () => number } {
  const inner = chunksOf(pieces);
  let taken = 0;
  return {
    async next(): Promise<Chunk | null> {
      const chunk = await inner.next();
      if (chunk !== null) taken += chunk.length;
      return chunk;
    },
    close: () => inner.close(),
    taken: () => taken,
  };
}

describe('gzip through Node zlib', () => {
  const zlib = nodeZlib();

  test('is found in Node through process.getBuiltinModule', () => assert.notEqual(zlib, null));

  test('reads one member, and several concatenated, at any chunking', async () => {
    const one = text(300);
    const two = text(200, 300);
    const bytes = new Uint8Array(Buffer.concat([gzipSync(one), gzipSync(two)]));
    for (const size of [1, 7, 100, 4096, bytes.length]) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
      const source = gunzipIfNeeded(chunksOf(pieces), zlib);
      assert.equal(await drain(source), one + two, `chunks of ${size}`);
      assert.equal(source.gzipped(), true);
      assert.equal(source.trailingData(), false);
    }
  });

  test('a gzip bomb is inflated only as far as it is read', async () => {
    // 1 GiB of zeros: 1,024 copies of one compressed MiB, behind a gzip header.
    const segment = deflateRawSync(new Uint8Array(1 << 20), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    const pieces = [header, ...Array.from({ length: 1024 }, () => segment)];
    const source = counted(pieces);
    const inflating = gunzipIfNeeded(source, zlib);
    let inflated = 0;
    while (inflated < 8 * 1024 * 1024) {
      const chunk = await inflating.next();
      assert.ok(chunk !== null && typeof chunk !== 'string');
      inflated += chunk.length;
    }
    inflating.close();
    // Eight MiB read took a few compressed segments, not the gigabyte behind them.
    assert.ok(source.taken() < 20 * segment.length, `took ${source.taken()} bytes`);
  });
});

describe('gzip through the Web DecompressionStream (no zlib)', () => {
  test('reads one member at any chunking', async () => {
    const one = text(300);
    const bytes = new Uint8Array(gzipSync(one));
    for (const size of [1, 100, bytes.length]) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
      const source = gunzipIfNeeded(chunksOf(pieces), null);
      assert.equal(await drain(source), one, `chunks of ${size}`);
      assert.equal(source.gzipped(), true);
    }
  });

  test('a second member fails the read: the documented limit without zlib', async () => {
    const bytes = new Uint8Array(Buffer.concat([gzipSync(text(10)), gzipSync(text(10, 10))]));
    await assert.rejects(drain(gunzipIfNeeded(chunksOf([bytes]), null)));
  });
});

describe('not gzip', () => {
  test('bytes and text pass through', async () => {
    const plain = text(50);
    const bytes = new TextEncoder().encode(plain);
    const source = gunzipIfNeeded(chunksOf([bytes.subarray(0, 1), bytes.subarray(1)]), nodeZlib());
    assert.equal(await drain(source), plain);
    assert.equal(source.gzipped(), false);
    assert.equal(await drain(gunzipIfNeeded(chunksOf(plain), nodeZlib())), plain);
  });
});
