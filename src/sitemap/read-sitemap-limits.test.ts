// The reader under hostile input: linear time on every shape that used to be quadratic, a
// byte cap that cuts at the same decompressed byte however the input arrives (in chunks of
// any size, gzipped or not, over HTTP), and a time budget that cuts a reading off, but never
// counts the consumer's own time.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { parseSitemap, readSitemap, type SitemapEntry } from './index.ts';
import type { ReadSitemapOptions } from './read-sitemap.ts';
import { SitemapParser } from './sitemap-parser.ts';
import {
  codes,
  type Outcome,
  outcomeOf,
  pushParse,
  randomSplit,
  streamParse,
} from './test-support/feedings.ts';

const MB = 1024 * 1024;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * `bytes` as a stream of 64 KiB chunks with a turn of the event loop between them, as a file
 * or a socket delivers them: a read that takes too long is stopped by the test's timeout
 * instead of blocking it.
 */
async function* slowly(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 65_536) {
    yield bytes.subarray(at, at + 65_536);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `count` copies of `unit` (a string), as bytes. */
function repeated(head: string, unit: string, count: number, tail: string): Uint8Array {
  return bytesOf(head + unit.repeat(count) + tail);
}

/** A gzip bomb: `gib` GiB of zeros (valid deflate data; the trailer is never reached). */
function gzipBomb(gib: number): Uint8Array {
  const segment = deflateRawSync(new Uint8Array(MB), { finishFlush: constants.Z_SYNC_FLUSH });
  const count = gib * 1024;
  const bomb = new Uint8Array(10 + segment.length * count + 10);
  bomb.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  for (let k = 0; k < count; k++) bomb.set(segment, 10 + k * segment.length);
  bomb.set([3, 0], 10 + segment.length * count);
  return bomb;
}

const URL_AFTER = `<url><loc>https://a.example/after</loc></url></urlset>`;

// Each of these took from 10 s to minutes (the 20 MB NUL run and the gzip bomb did not end
// in 300 s): the reader went back over all the text held so far for every piece fed.
const SHAPES: {
  name: string;
  input: () => Uint8Array;
  check: (outcome: Outcome) => void;
}[] = [
  {
    name: 'a plain-text sitemap of one 10 MB line',
    input: () => repeated('https://a.example/', 'a', 10 * MB, ''),
    check: (o) => {
      assert.equal(o.kind, 'text');
      assert.deepEqual(o.locs, []);
      assert.ok(codes(o).includes('value-too-long'));
    },
  },
  {
    name: '10 MB of whitespace before the root element',
    input: () => repeated('', ' \n\t', (10 * MB) / 3, `<urlset ${NS}>${URL_AFTER}`),
    check: (o) => assert.deepEqual(o.locs, ['https://a.example/after']),
  },
  {
    name: '10 MB of whitespace before a text sitemap, line numbers kept',
    input: () => repeated('', '  \r\n', (10 * MB) / 4, 'https://a.example/after\nnot-a-url\n'),
    check: (o) => {
      assert.deepEqual(o.locs, ['https://a.example/after']);
      const line = o.diagnostics.find((d) => d.code === 'relative-loc')?.line;
      assert.equal(line, (10 * MB) / 4 + 2);
    },
  },
  {
    name: '20 MB of NUL bytes',
    input: () => new Uint8Array(20 * MB),
    check: (o) => assert.deepEqual(o.locs, []),
  },
  {
    name: '512k nesting levels inside a URL set, then a URL',
    input: () =>
      bytesOf(`<urlset ${NS}>${'<a>'.repeat(1 << 19)}${'</a>'.repeat(1 << 19)}${URL_AFTER}`),
    check: (o) => {
      assert.deepEqual(o.locs, ['https://a.example/after']);
      assert.equal(codes(o).filter((c) => c === 'too-deep').length, 1);
    },
  },
  {
    name: 'a 10 GiB gzip bomb stops at the 100 MiB cap',
    input: () => gzipBomb(10),
    check: (o) => {
      assert.deepEqual(o.locs, []);
      assert.ok(codes(o).includes('size-limit'), codes(o).join());
    },
  },
];

describe('reading takes time in proportion to the bytes read', () => {
  for (const shape of SHAPES) {
    test(shape.name, { timeout: 20_000 }, async () => {
      const reading = parseSitemap(slowly(shape.input()));
      const entries: SitemapEntry[] = [];
      for await (const entry of reading) entries.push(entry);
      shape.check(outcomeOf(reading.kind, entries, reading.diagnostics));
    });
  }
});

/** A URL set of `count` URLs, and where each one's `</loc>` ends (in bytes). */
function bigUrlset(count: number, word = 'page'): { bytes: Uint8Array; locEnds: number[] } {
  let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n`;
  const locEnds: number[] = [];
  for (let i = 0; i < count; i++) {
    xml += `<url><loc>https://a.example/${word}/${i}</loc>`;
    locEnds.push(Buffer.byteLength(xml));
    xml += '<lastmod>2024-05-06</lastmod></url>\n';
  }
  return { bytes: bytesOf(`${xml}</urlset>\n`), locEnds };
}

/** Whole, in tiny and random pieces. */
function splittings(bytes: Uint8Array): [string, Uint8Array[]][] {
  const tiny: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 3) tiny.push(bytes.subarray(at, at + 3));
  return [
    ['whole', [bytes]],
    ['3 bytes at a time', tiny],
    ['random splits of 1-100', randomSplit(bytes, 11, 100)],
    ['random splits of 1-70000', randomSplit(bytes, 12, 70_000)],
  ];
}

/** Count, last loc and diagnostics: what must not depend on how the input arrived. */
function cutOf(outcome: Outcome): [number, string | undefined, string[]] {
  return [outcome.locs.length, outcome.locs.at(-1), codes(outcome)];
}

describe('maxBytes cuts at the same decompressed byte every time', () => {
  const CAP = 300_000;
  const { bytes, locEnds } = bigUrlset(8_000);
  // The entries whose <loc> closed within the cap: the last one is kept though cut short.
  const expectedCount = locEnds.filter((end) => end <= CAP).length;
  const options: ReadSitemapOptions = { maxBytes: CAP };

  test('the document is over the cap', () => assert.ok(bytes.length > 2 * CAP));

  test('plain bytes, at any chunking', async () => {
    for (const [how, pieces] of splittings(bytes)) {
      const [count, last, found] = cutOf(await streamParse(pieces, options));
      assert.equal(count, expectedCount, how);
      assert.equal(last, `https://a.example/page/${expectedCount - 1}`, how);
      assert.ok(found.includes('size-limit') && found.includes('truncated'), `${how}: ${found}`);
    }
  });

  test('gzip, one member and several, at any chunking', async () => {
    const expected = cutOf(await streamParse([bytes], options));
    const oneMember = new Uint8Array(gzipSync(bytes));
    const members = new Uint8Array(
      Buffer.concat(
        [0, 50_000, 123_457, 290_000, bytes.length]
          .slice(1)
          .map((end, k, ends) =>
            gzipSync(bytes.subarray(k === 0 ? 0 : (ends[k - 1] as number), end)),
          ),
      ),
    );
    for (const gz of [oneMember, members]) {
      for (const [how, pieces] of splittings(gz)) {
        assert.deepEqual(cutOf(await streamParse(pieces, options)), expected, how);
      }
    }
  });

  test('over HTTP, whatever sizes the server writes in', async () => {
    const expected = cutOf(await streamParse([bytes], options));
    const gz = new Uint8Array(gzipSync(bytes));
    let writeSize = 0;
    const server = createServer((request, response) => {
      const body = request.url === '/sitemap.xml.gz' ? gz : bytes;
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let at = 0; at < body.length; at += writeSize) {
        response.write(body.subarray(at, at + writeSize));
      }
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const path of ['/sitemap.xml', '/sitemap.xml.gz']) {
        for (const size of [1_000, 16_384, 65_536, 1_000_000]) {
          writeSize = size;
          const response = await fetch(`http://127.0.0.1:${port}${path}`);
          const reading = parseSitemap(response.body as ReadableStream<Uint8Array>, options);
          const entries: SitemapEntry[] = [];
          for await (const entry of reading) entries.push(entry);
          assert.deepEqual(
            cutOf(outcomeOf(reading.kind, entries, reading.diagnostics)),
            expected,
            `${path}, written ${size} bytes at a time`,
          );
        }
      }
    } finally {
      server.close();
    }
  });

  test('a text sitemap: the line the cap cuts is not read as a URL', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `https://a.example/line/${i}\n`).join(
      '',
    );
    const text = bytesOf(lines);
    const complete = lines.slice(0, CAP / 2).lastIndexOf('\n') + 1;
    const expected = lines.slice(0, complete).split('\n').length - 1;
    for (const [how, pieces] of splittings(text)) {
      const outcome = await streamParse(pieces, { maxBytes: CAP / 2 });
      assert.equal(outcome.locs.length, expected, how);
      assert.deepEqual(codes(outcome), ['size-limit', 'truncated'], how);
    }
  });

  test('text given as a string counts in UTF-8 bytes, as the same text given as bytes', async () => {
    const { bytes: accented } = bigUrlset(3_000, 'caf\u00e9-\u{1f600}');
    const text = new TextDecoder().decode(accented);
    const asBytes = await readSitemap(accented, { maxBytes: 100_003 });
    const asText = await readSitemap(text, { maxBytes: 100_003 });
    assert.ok(asBytes.entries.length > 100);
    assert.deepEqual(asText, asBytes);
  });
});

describe('timeoutMs cuts a reading off; the consumer’s time does not count', () => {
  const { bytes } = bigUrlset(20_000);

  test('reading stops with time-limit once the budget is spent, keeping what was read', async () => {
    const run = async (): Promise<Outcome> => {
      let clock = 0;
      // Each look at the clock takes a millisecond: the cut falls on the same piece each run.
      return streamParse([bytes], { timeoutMs: 100, now: () => clock++ });
    };
    const first = await run();
    assert.ok(codes(first).includes('time-limit'), codes(first).join());
    assert.ok(first.locs.length > 0 && first.locs.length < 20_000, `${first.locs.length}`);
    assert.deepEqual(await run(), first);
  });

  test('a slow consumer is never cut off', async () => {
    let clock = 0;
    const reading = parseSitemap(bytes, { timeoutMs: 1_000, now: () => clock });
    let count = 0;
    for await (const _entry of reading) {
      count++;
      clock += 10_000;
    }
    assert.equal(count, 20_000);
    assert.ok(!reading.diagnostics.some((d) => d.code === 'time-limit'));
  });

  test('a stalled input is cut off, and a stalled Web stream cancelled', async () => {
    const first = bytes.subarray(0, 100_000);
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(first);
      },
      pull: () => new Promise<void>(() => {}),
      cancel() {
        cancelled = true;
      },
    });
    async function* stalled(): AsyncGenerator<Uint8Array> {
      yield first;
      await new Promise(() => {});
    }
    for (const input of [stream, stalled()]) {
      const { entries, diagnostics } = await readSitemap(input, { timeoutMs: 200 });
      assert.ok(entries.length > 100);
      assert.ok(diagnostics.some((d) => d.code === 'time-limit'));
    }
    assert.ok(cancelled);
  });
});

describe('a cut reports what cut it, and nothing the unread rest might have shown', () => {
  const OPEN = `<urlset ${NS}>`;
  const ENTRY_AT = (i: number) => `<url><loc>https://a.example/${i}</loc></url>`;
  const cases: [name: string, text: string, options: ReadSitemapOptions, codes: string[]][] = [
    ['whitespace only, not cut', '   \n', {}, ['empty-document']],
    ['whitespace, then cut', `   \n${OPEN}`, { maxBytes: 3 }, ['size-limit']],
    ['no root element, not cut', '<!-- nothing -->', {}, ['no-root-element']],
    ['cut before the root element', `  <${OPEN.slice(1)}`, { maxBytes: 3 }, ['size-limit']],
    [
      'the root left open, not cut',
      `${OPEN}<url><loc>https://a.example/1</loc></url>`,
      {},
      ['truncated'],
    ],
    [
      'cut between entries',
      `${OPEN}<url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url></urlset>`,
      { maxBytes: OPEN.length + 45 },
      ['size-limit'],
    ],
    [
      'cut inside an entry: that entry is dropped, and said so',
      `${OPEN}<url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url></urlset>`,
      { maxBytes: OPEN.length + 60 },
      ['size-limit', 'truncated'],
    ],
  ];
  test('the consumer stopping early cuts nothing short, wherever the chunk it stopped in ends', async () => {
    const xml = `${OPEN}\n${ENTRY_AT(0)}\n${ENTRY_AT(1)}\n${ENTRY_AT(2)}\n</urlset>\n`;
    const text = 'https://a.example/0\nhttps://a.example/1\nhttps://a.example/2\n';
    for (const document of [xml, text]) {
      // Every split from just after the first entry to the end: the second chunk starts
      // inside the next entry or line, in a tag, in a value, between them.
      const first = document.indexOf('/0') + 2;
      for (let at = first; at < document.length; at++) {
        for (const input of [
          [document.slice(0, at), document.slice(at)],
          [bytesOf(document.slice(0, at)), bytesOf(document.slice(at))],
        ]) {
          const reading = parseSitemap(input, {});
          for await (const _entry of reading) break;
          assert.deepEqual(reading.diagnostics, [], `split at ${at}`);
        }
      }
    }
  });
  for (const [name, text, options, expected] of cases) {
    test(name, async () => {
      for (const input of [text, bytesOf(text)]) {
        const got = await readSitemap(input, options);
        assert.deepEqual(
          got.diagnostics.map((d) => d.code),
          expected,
        );
      }
    });
  }
});

describe('maxEntries: bytes after the stop in the same write are not reported on', () => {
  const ENTRY = (i: number) => `<url><loc>https://a.example/${i}</loc></url>`;
  const parts = (...pieces: (string | number[])[]): Uint8Array =>
    new Uint8Array(
      pieces.flatMap((piece) => (typeof piece === 'string' ? [...bytesOf(piece)] : piece)),
    );
  const oneByteAtATime = (bytes: Uint8Array): Uint8Array[] =>
    Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));

  test('maxEntries 0: the same for bytes (held to find the encoding) and text', () => {
    const text = 'https://a.example/1\nhttps://a.example/2\n';
    for (const pieces of [[text], [bytesOf(text)]]) {
      const parser = new SitemapParser({ maxEntries: 0 }, () => {});
      for (const piece of pieces) parser.write(piece);
      parser.end();
      assert.deepEqual(
        parser.diagnostics.map((d) => d.code),
        ['too-many-entries'],
      );
    }
  });

  test('maxBytes inside a character just past 50 MiB: text counts as its bytes do', () => {
    const head = 'https://a.example/\n';
    // The é's two bytes are the 50 MiB's first byte past the protocol's limit and the next.
    const text = `${head}${'x'.repeat(50 * MB - head.length)}\u00e9\n`;
    const outcomes = [text, bytesOf(text)].map((input) => {
      const parser = new SitemapParser({ maxBytes: 50 * MB + 1 }, () => {});
      parser.write(input);
      parser.end();
      return [parser.bytes, parser.diagnostics.map((d) => d.code)];
    });
    assert.deepEqual(outcomes[0], [50 * MB + 1, ['over-protocol-size', 'size-limit', 'truncated']]);
    assert.deepEqual(outcomes[1], outcomes[0]);
  });

  test('a byte that is not UTF-8: after the stop, not reported; before it, reported', () => {
    const after = parts(`<urlset ${NS}>${ENTRY(1)}${ENTRY(2)}`, [0xff], `${ENTRY(3)}</urlset>`);
    const before = parts(`<urlset ${NS}>`, [0xe2, 0x82], `${ENTRY(1)}${ENTRY(2)}</urlset>`);
    for (const [bytes, expected] of [
      [after, ['too-many-entries']],
      [before, ['invalid-encoding', 'too-many-entries']],
    ] as const) {
      for (const pieces of [[bytes], oneByteAtATime(bytes), randomSplit(bytes, 3, 20)]) {
        assert.deepEqual(codes(pushParse(pieces, { maxEntries: 1 })).sort(), [...expected].sort());
      }
    }
  });

  test('past 50 MiB: after the stop, not reported; read on, reported', () => {
    const head = bytesOf(`<urlset ${NS}>${ENTRY(1)}${ENTRY(2)}<!--`);
    const tail = bytesOf('--></urlset>');
    const bytes = new Uint8Array(head.length + 51 * MB + tail.length).fill(0x20);
    bytes.set(head);
    bytes.set(tail, bytes.length - tail.length);
    for (const pieces of [[bytes], randomSplit(bytes, 5, 8 * MB)]) {
      assert.deepEqual(codes(pushParse(pieces, { maxEntries: 1 })), ['too-many-entries']);
    }
    const readOn = codes(pushParse([bytes], { maxBytes: 60 * MB }));
    assert.deepEqual(readOn, ['over-protocol-size']);
  });
});

describe('text in which no line is a URL is not a sitemap', () => {
  const cases: [name: string, text: string, codes: string[], locs: number][] = [
    ['an error page', '502 Bad Gateway\n', ['invalid-line', 'not-a-sitemap'], 0],
    ['one word that is no URL', 'maintenance\n', ['relative-loc', 'not-a-sitemap'], 0],
    [
      'one URL among the lines: a sitemap',
      'maintenance\nhttps://a.example/\n',
      ['relative-loc'],
      1,
    ],
    ['one URL: a sitemap', 'https://a.example/', [], 1],
  ];
  for (const [name, text, expected, locs] of cases) {
    test(name, async () => {
      const got = await readSitemap(bytesOf(text));
      assert.equal(got.kind, 'text');
      assert.equal(got.entries.length, locs);
      assert.deepEqual(
        got.diagnostics.map((d) => d.code),
        expected,
      );
    });
  }
});
