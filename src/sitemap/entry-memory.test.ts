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
const KEEP_EVERY = 40;
const CHUNK = 65_536;

/** A URL set whose entries carry every kind of value, each long enough to be sliced. */
function document(): Uint8Array {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n',
  ];
  for (let i = 0; i < ENTRIES; i++) {
    // Every tenth lastmod is not a date, so that diagnostics quote the document too.
    const lastmod = i % 10 === 0 ? `sometime around entry ${i}` : '2024-05-06T07:08:09+00:00';
    parts.push(
      `<url><loc>https://www.example.com/products/item-${i}</loc><lastmod>${lastmod}</lastmod>`,
      `<xhtml:link rel="alternate" hreflang="de-DE-x-region" href="https://www.example.de/produkte/item-${i}"/>`,
      `<image:image><image:loc>https://www.example.com/images/item-${i}.jpg</image:loc><image:title>The title of the picture of item ${i}</image:title></image:image>`,
      `<video:video><video:thumbnail_loc>https://www.example.com/thumbs/item-${i}.jpg</video:thumbnail_loc><video:title>A video of item ${i}</video:title><video:description>What item ${i} looks like, in a video</video:description><video:content_loc>https://www.example.com/videos/item-${i}.mp4</video:content_loc><video:uploader info="https://www.example.com/users/the-uploader-of-${i}">Uploader ${i}</video:uploader></video:video></url>\n`,
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

/**
 * Reads the document, keeping every `keepEvery`th entry (none for 0) and the diagnostics,
 * as they come or, with `copied`, as deep copies of them (JSON round trips: strings of their
 * own, whatever the reader handed out).
 */
async function read(bytes: Uint8Array, keepEvery: number, copied: boolean) {
  const kept: SitemapUrl[] = [];
  const reading = parseSitemap(chunks(bytes), { maxBytes: 2 ** 30 });
  let index = 0;
  for await (const entry of reading) {
    if (keepEvery > 0 && index % keepEvery === 0) {
      kept.push((copied ? JSON.parse(JSON.stringify(entry)) : entry) as SitemapUrl);
    }
    index++;
  }
  const diagnostics = keepEvery > 0 ? reading.diagnostics : [];
  return { kept, diagnostics: copied ? JSON.parse(JSON.stringify(diagnostics)) : diagnostics };
}

/** Reads into `holder` (so that nothing else refers to the outcome) and describes it. */
async function readInto(
  bytes: Uint8Array,
  copied: boolean,
  holder: { outcome: Awaited<ReturnType<typeof read>> | null },
) {
  const outcome = await read(bytes, KEEP_EVERY, copied);
  holder.outcome = outcome;
  return {
    kept: outcome.kept.length,
    withEveryKind: outcome.kept.every(
      (entry) =>
        entry.alternates?.length === 1 &&
        entry.images?.length === 1 &&
        entry.videos?.[0]?.uploader?.info !== undefined,
    ),
    diagnostics: outcome.diagnostics.length,
  };
}

/**
 * The heap an outcome of {@link read} keeps alive: the heap with it, less the heap once it
 * is let go of, both measured after the read. (Measured against the heap before the read,
 * it also counted the code V8 compiled during the read, which lands there now and then.)
 */
async function retainedBy(bytes: Uint8Array, copied: boolean) {
  await read(bytes, 0, false);
  const holder: { outcome: Awaited<ReturnType<typeof read>> | null } = { outcome: null };
  const shape = await readInto(bytes, copied, holder);
  const holding = heapUsed();
  holder.outcome = null;
  return { shape, retained: holding - heapUsed() };
}

test('entries and diagnostics kept from a large document do not keep its text alive', async () => {
  const bytes = document();
  // What the same values take as strings of their own, then what the reader's take.
  const alone = await retainedBy(bytes, true);
  const { shape, retained } = await retainedBy(bytes, false);
  assert.equal(shape.kept, ENTRIES / KEEP_EVERY);
  assert.ok(shape.withEveryKind);
  assert.ok(shape.diagnostics > 0);
  // 0.57 MB for the copies, 1.0 MB for the reader's (a copy made by slicing is a slice of a
  // string of its own: two objects); any value still a slice of the document's 16 MB of text
  // keeps pieces of it alive (one attribute left a slice: 3.0 MB; every value a slice: 3.4 MB).
  const limit = alone.retained * 3;
  assert.ok(
    retained < limit,
    `${(retained / 1e6).toFixed(2)} MB retained, against ${(alone.retained / 1e6).toFixed(2)} MB for copies`,
  );
});
