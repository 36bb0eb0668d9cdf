// The per-request assembly of a sitemap from the pieces kept per entry: for several origins
// and part layouts, the streamed chunks must be the very bytes UrlsetWriter writes for the
// same URLs, chunk sizes must stay bounded, and entries whose URL the origin makes too long
// must be left out exactly as the writer refuses them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UrlsetWriter } from '../../sitemap/index.ts';
import type { PageMeta } from './page-record.ts';
import type { SiteEntry } from './site-index.ts';
import { CHUNK_BYTES, sitemapPartChunks } from './sitemap-chunks.ts';
import {
  buildSitemapLines,
  newRestMemo,
  originPiece,
  type SitemapLines,
  sitemapLayout,
  sitemapPlan,
  w3cSeconds,
} from './sitemap-lines.ts';

/** Each entry's rest as text. */
function restsOf(lines: SitemapLines): string[] {
  const rests: string[] = [];
  for (let i = 0; i + 1 < lines.restOffsets.length; i++) {
    rests.push(lines.restBytes.toString('utf8', lines.restOffsets[i], lines.restOffsets[i + 1]));
  }
  return rests;
}

// More than one chunk of bytes even with the shortest origin: the test covers chunking.
const ENTRIES = 15_000;
const BASE_MS = Date.UTC(2025, 0, 1);
// A path of 2,000 characters: listed with a short origin, too long (over 2,048) with a long one.
const LONG = `/long/${'x'.repeat(1994)}`;
// Cut from a string holding a character past Latin-1, so V8 keeps it two-byte.
const TWO_BYTE = 'αβγ/docs/intro'.slice(3);

function entryFor(i: number): SiteEntry {
  const canonicalPath =
    i % 997 === 0 ? `${LONG}${i}` : i % 13 === 0 ? `${TWO_BYTE}-${i}` : `/id/${i.toString(16)}`;
  const page = { path: `doc-${i}.md`, lastModified: BASE_MS + i * 3_600_000 } as PageMeta;
  return { page, idPath: `/id/${i}`, aliasPath: null, canonicalPath, listed: true };
}

const entries = Array.from({ length: ENTRIES }, (_, i) => entryFor(i)).sort((a, b) =>
  a.canonicalPath < b.canonicalPath ? -1 : 1,
);

/** What the writer makes of the same URLs, split as the limits say. */
function expectedParts(origin: string, maxUrls: number): string[] {
  const urls: string[] = [];
  const probe = new UrlsetWriter();
  probe.open();
  for (const entry of entries) {
    const loc = origin + entry.canonicalPath;
    // The writer refuses a URL longer than the protocol allows by throwing.
    if (loc.length > 2048) continue;
    const result = probe.write({ loc, lastmod: w3cSeconds(entry.page.lastModified) });
    if (result.written) urls.push(result.xml);
  }
  const parts: string[] = [];
  for (let i = 0; i < urls.length; i += maxUrls) {
    const writer = new UrlsetWriter();
    parts.push(writer.open() + urls.slice(i, i + maxUrls).join('') + writer.close());
  }
  return parts;
}

const ORIGINS = [
  'http://a.co',
  'https://www.example.com:8443',
  `https://${'sub.'.repeat(40)}example.com`,
];
const LIMITS = [
  { maxUrls: 50_000, maxBytes: 50 * 1024 * 1024 },
  { maxUrls: 1800, maxBytes: 50 * 1024 * 1024 },
];

describe('sitemapPartChunks', () => {
  for (const limits of LIMITS) {
    // Layouts are kept with the lines by origin length: other limits come with a rebuild.
    const lines = buildSitemapLines(entries, newRestMemo());
    for (const origin of ORIGINS) {
      test(`${origin.length} characters of origin, maxUrls ${limits.maxUrls}`, () => {
        const piece = originPiece(origin);
        assert.ok(piece !== null);
        const layout = sitemapLayout(lines, piece, limits);
        const expected = expectedParts(origin, limits.maxUrls);
        assert.equal(layout.parts.length, expected.length);
        assert.equal(layout.urls, ENTRIES - layout.skipped.size);
        if (origin.length > 60) assert.ok(layout.skipped.size > 0, 'long URLs are left out');
        layout.parts.forEach((part, n) => {
          const chunks = [...sitemapPartChunks(lines, layout, part, piece)];
          const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
          assert.equal(bytes, part.bytes);
          if (part.bytes > CHUNK_BYTES) assert.ok(chunks.length > 1, 'streamed in several chunks');
          if (limits.maxUrls === 50_000) assert.ok(chunks.length > 1, 'the test covers chunking');
          for (const chunk of chunks) assert.ok(chunk.length <= CHUNK_BYTES, `${chunk.length} B`);
          const text = new TextDecoder().decode(Buffer.concat(chunks));
          assert.equal(text, expected[n]);
        });
      });
    }
  }

  test('a rebuild with a changed entry matches a build from scratch', () => {
    const memo = newRestMemo();
    const before = restsOf(buildSitemapLines(entries, memo));
    const changed = entries.map((entry, i) =>
      i === 10 ? { ...entry, page: { ...entry.page, lastModified: BASE_MS - 86_400_000 } } : entry,
    );
    const again = buildSitemapLines(changed, memo);
    const fresh = buildSitemapLines(changed, newRestMemo());
    assert.deepEqual(restsOf(again), restsOf(fresh));
    assert.deepEqual(again.restOffsets, fresh.restOffsets);
    assert.notDeepEqual(restsOf(again), before);
  });

  test('a rebuild after moves, removals and additions matches a build from scratch', () => {
    const memo = newRestMemo();
    buildSitemapLines(entries, memo);
    const changed = entries
      .filter((_, i) => i % 7 !== 3)
      .map((entry, i) =>
        i % 11 === 5 ? { ...entry, canonicalPath: `/moved${entry.canonicalPath}` } : entry,
      );
    changed.push(entryFor(ENTRIES + 1));
    for (const round of [changed, changed.slice(0, 100), entries]) {
      const again = buildSitemapLines(round, memo);
      const fresh = buildSitemapLines(round, newRestMemo());
      assert.deepEqual(restsOf(again), restsOf(fresh));
      assert.deepEqual(again.restOffsets, fresh.restOffsets);
      assert.deepEqual(again.pathLengths, fresh.pathLengths);
      assert.deepEqual(again.lastModified, fresh.lastModified);
    }
  });
});

test('rebuilds through the memo equal builds from scratch over random rounds', () => {
  // Canonical paths shared by other documents, moved, dropped, duplicated, lastmods in the
  // same second (other ms) and in other seconds; lists in order and out of order.
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const pool = Array.from({ length: 800 }, (_, i) =>
    i % 5 === 0 ? `/a/${i}` : i % 5 === 1 ? `${TWO_BYTE}/${i}` : `/id/${(i * 7919).toString(16)}`,
  );
  const memo = newRestMemo();
  for (let round = 0; round < 30; round++) {
    const list: SiteEntry[] = [];
    for (let k = 0; k < 600; k++) {
      const canonicalPath = pool[random(pool.length)] as string;
      const lastModified = BASE_MS + random(3) * 1000 + random(1000);
      const page = { path: `doc-${random(900)}.md`, lastModified } as PageMeta;
      list.push({ page, idPath: canonicalPath, aliasPath: null, canonicalPath, listed: true });
    }
    if (round % 3 !== 2) {
      list.sort((a, b) =>
        a.canonicalPath < b.canonicalPath ? -1 : a.canonicalPath > b.canonicalPath ? 1 : 0,
      );
    }
    const again = buildSitemapLines(list, memo);
    const fresh = buildSitemapLines(list, newRestMemo());
    assert.deepEqual(restsOf(again), restsOf(fresh));
    assert.deepEqual(again.restOffsets, fresh.restOffsets);
    assert.deepEqual(again.pathLengths, fresh.pathLengths);
    assert.deepEqual(again.lastModified, fresh.lastModified);
  }
});

describe('layouts and plans per origin length', () => {
  // Origins of ten lengths: under the long ones the LONG entries are left out.
  const origins = Array.from({ length: 10 }, (_, i) => `https://${'h'.repeat(3 + i * 9)}.example`);
  const limits = { maxUrls: 4_000, maxBytes: 50 * 1024 * 1024 };

  test("a plan (all an answer but a sitemap's body needs) is the layout's, made without laying anything out", () => {
    const lines = buildSitemapLines(entries, newRestMemo());
    for (const origin of origins) {
      const piece = originPiece(origin) as string;
      const plan = sitemapPlan(lines, piece, limits);
      assert.equal(lines.layouts.size, 0, 'no layout for a plan');
      const layout = sitemapLayout(buildSitemapLines(entries, newRestMemo()), piece, limits);
      assert.deepEqual(plan, { parts: layout.parts, urls: layout.urls }, origin);
    }
    const urls = origins.map((o) => sitemapPlan(lines, originPiece(o) as string, limits).urls);
    assert.ok(new Set(urls).size > 1, 'the long origins leave the long entries out');
    assert.equal(lines.plans.size, origins.length);
  });

  test('past four layouts the least recently used goes, not all of them', () => {
    const lines = buildSitemapLines(entries, newRestMemo());
    const layout = (origin: string) => sitemapLayout(lines, originPiece(origin) as string, limits);
    const [a, b, c, d, e] = origins as [string, string, string, string, string];
    const first = layout(a);
    for (const origin of [b, c, d]) layout(origin);
    assert.equal(layout(a), first, 'kept, and now the most recent');
    layout(e);
    assert.equal(lines.layouts.size, 4);
    assert.equal(layout(a), first, 'a was used after b: b went');
    assert.equal(lines.layouts.size, 4);
    const keys = [...lines.layouts.keys()];
    assert.ok(!keys.includes(Buffer.byteLength(originPiece(b) as string)));
  });
});

describe('what the site handler writes of each page', () => {
  test('a full timestamp with its zone, to the second; no changefreq or priority', () => {
    const times = [Date.UTC(2026, 10, 24, 10, 15), Date.UTC(2026, 10, 24, 10, 15, 7, 999), 0];
    const pages = times.map(
      (lastModified, i): SiteEntry => ({
        page: { path: `p${i}.md`, lastModified } as PageMeta,
        idPath: `/p${i}`,
        aliasPath: null,
        canonicalPath: `/p${i}`,
        listed: true,
      }),
    );
    const lines = buildSitemapLines(pages, newRestMemo());
    assert.deepEqual(restsOf(lines), [
      '/p0</loc><lastmod>2026-11-24T10:15:00Z</lastmod></url>\n',
      '/p1</loc><lastmod>2026-11-24T10:15:07Z</lastmod></url>\n',
      '/p2</loc><lastmod>1970-01-01T00:00:00Z</lastmod></url>\n',
    ]);
    assert.doesNotMatch(lines.head + restsOf(lines).join('') + lines.tail, /changefreq|priority/);
  });

  test('w3cSeconds: UTC, to the second, never a date alone', () => {
    const cases: [number, string][] = [
      [Date.UTC(2026, 10, 24, 10, 15), '2026-11-24T10:15:00Z'],
      [Date.UTC(2026, 10, 24, 23, 59, 59, 999), '2026-11-24T23:59:59Z'],
      [Date.UTC(2026, 10, 24), '2026-11-24T00:00:00Z'],
    ];
    for (const [ms, expected] of cases) assert.equal(w3cSeconds(ms), expected);
  });
});
