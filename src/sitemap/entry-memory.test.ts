// What an entry holds is its own: keeping a few entries (or the diagnostics) of a large
// document keeps their values, not the chunks of decoded text they were read from. A value
// sliced out of a chunk would keep V8's whole chunk string alive for as long as the entry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseSitemap, type SitemapUrl } from './index.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const ENTRIES = 20_000;
const KEEP_EVERY = 20;
const CHUNK = 65_536;

/** A URL set whose entries carry every kind of value, each long enough to be sliced. */
function document(): Uint8Array {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  for (let i = 0; i < ENTRIES; i++) {
    // Every tenth lastmod is not a date, so that diagnostics quote the document too.
    const lastmod = i % 10 === 0 ? `sometime around entry ${i}` : '2024-05-06T07:08:09+00:00';
    parts.push(
      `<url><loc>https://www.example.com/products/item-${i}</loc><lastmod>${lastmod}</lastmod>`,
      `<xhtml:link rel="alternate" hreflang="de-DE-x-region" href="https://www.example.de/produkte/item-${i}"/>`,
      `<image:image><image:loc>https://www.example.com/images/item-${i}.jpg</image:loc><image:title>The title of the picture of item ${i}</image:title></image:image></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return new TextEncoder().encode(parts.join(''));
}

/** Pieces of {@link CHUNK} bytes, as a file stream hands them over. */
async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
}

function heapUsed(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** Reads the document, keeping every `keepEvery`th entry (none for 0) and the diagnostics. */
async function read(bytes: Uint8Array, keepEvery: number) {
  const kept: SitemapUrl[] = [];
  const reading = parseSitemap(chunks(bytes), { maxBytes: 2 ** 30 });
  let index = 0;
  for await (const entry of reading) {
    if (keepEvery > 0 && index % keepEvery === 0) kept.push(entry as SitemapUrl);
    index++;
  }
  return { kept, diagnostics: keepEvery > 0 ? reading.diagnostics : [] };
}

test('entries and diagnostics kept from a large document do not keep its text alive', async () => {
  const bytes = document();
  // A first read keeping nothing: what the reader itself leaves (compiled code, tables).
  await read(bytes, 0);
  const before = heapUsed();
  const { kept, diagnostics } = await read(bytes, KEEP_EVERY);
  const retained = heapUsed() - before;
  assert.equal(kept.length, ENTRIES / KEEP_EVERY);
  assert.ok(kept.every((entry) => entry.alternates?.length === 1 && entry.images?.length === 1));
  assert.ok(diagnostics.length > 0);
  // 1,000 entries and 100 diagnostics hold about 0.8 MB; holding slices of the document's
  // 6.6 MB of text, they kept 5-6 MB alive.
  assert.ok(retained < 2.5 * 1024 * 1024, `${(retained / 1e6).toFixed(2)} MB retained`);
});
