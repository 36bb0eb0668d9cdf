import { Buffer } from 'node:buffer';
import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { MAX_SITEMAP_URLS, UrlsetWriter } from '../../sitemap/index.ts';
import { PLAIN_REST_EXTRA, plainRest, writePlainRest } from './plain-rest.ts';
import type { SiteEntry } from './site-index.ts';

export { plainRest };

/**
 * The sitemap of a content root, written by `UrlsetWriter` once per change with a
 * placeholder origin and kept as per-entry bytes, so a request only writes them with its
 * own origin between them. Every `<url>` is the writer's own markup (escaped and validated
 * by it); the origin piece is the writer's markup for the request's origin. Only markup
 * derived from metadata is kept: a response body is written anew for every request, never
 * stored.
 */
export interface SitemapLines {
  /** `<?xml ...?>\n<urlset ...>\n` */
  readonly head: string;
  /** `</urlset>\n` */
  readonly tail: string;
  readonly headBytes: Buffer;
  readonly tailBytes: Buffer;
  /**
   * Every entry's markup after the origin (`/about/team</loc><lastmod>...</url>\n`), UTF-8,
   * one after the other: the static bytes between two origin insertion points.
   */
  readonly restBytes: Buffer;
  /** Entry i's rest is bytes [restOffsets[i], restOffsets[i + 1]) of `restBytes`. */
  readonly restOffsets: Uint32Array;
  /** Per entry, the length of the URL after the origin (for the protocol's URL limits). */
  readonly pathLengths: Uint32Array;
  /** Per entry, epoch ms. */
  readonly lastModified: Float64Array;
  /** Part layouts, by the byte length of the origin piece, least recently used first. */
  readonly layouts: Map<number, SitemapLayout>;
  /** The plans of the layouts, by the same key: no bytes, so kept for many more. */
  readonly plans: Map<number, SitemapPlan>;
}

/**
 * How the entries split into documents for one origin length, without their bytes: all an
 * answer needs but a sitemap's body (robots.txt, the index, 404, 304, HEAD).
 */
export interface SitemapPlan {
  readonly parts: readonly SitemapPart[];
  /** URLs in all parts together (0: there is no sitemap to serve). */
  readonly urls: number;
}

/** How the entries split into documents for one origin length. */
export interface SitemapLayout {
  readonly parts: readonly SitemapPart[];
  /** URLs in all parts together (0: there is no sitemap to serve). */
  readonly urls: number;
  /** Entries whose URL would be too short or too long with this origin. */
  readonly skipped: ReadonlySet<number>;
  /**
   * The listed entries' rests laid out for this origin length: before each, a gap as long
   * as the origin piece, which a response fills with its own origin. No origin is ever
   * kept in it: it is the entries' bytes spaced out, shared by every origin of this length.
   */
  readonly spaced: Buffer;
  /**
   * Entry i's gap starts at byte spacedAt[i] of `spaced`; its rest ends at spacedAt[i + 1]
   * (equal for a skipped entry).
   */
  readonly spacedAt: Uint32Array;
}

export interface SitemapPart {
  /** Entry indexes [start, end). */
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
  readonly lastModified: number;
}

const PLACEHOLDER = 'http://waymark.invalid';
/** What every `<url>` starts with: `loc` is its first child. */
const URL_OPEN = '<url><loc>';
// sitemaps.org tLoc bounds; the writer checks them with the placeholder, we with the real origin.
const MIN_LOC = 12;
const MAX_LOC = 2048;
/** Layouts kept per lines (each holds its entries spaced out, megabytes for a large root). */
const MAX_LAYOUTS = 4;
/** Plans kept per lines: a few parts each. */
const MAX_PLANS = 256;

/**
 * A memo of rests, so a change rewrites only what changed: the previous lines' own arrays
 * (no object per entry, no map). A rest is a function of its canonical path and lastmod
 * second alone, and both lists are in canonical path order: one walk along both finds it.
 */
export interface RestMemo {
  /** Per entry, the canonical path its rest was written for, in the order of the lines. */
  canonicalPaths: readonly string[];
  /** The previous lines' `restBytes`, `restOffsets`, `pathLengths` and `lastModified`. */
  bytes: Buffer;
  offsets: Uint32Array;
  pathLengths: Uint32Array;
  lastModified: Float64Array;
}

export function newRestMemo(): RestMemo {
  return {
    canonicalPaths: [],
    bytes: Buffer.alloc(0),
    offsets: new Uint32Array(1),
    pathLengths: new Uint32Array(0),
    lastModified: new Float64Array(0),
  };
}

export function buildSitemapLines(listed: readonly SiteEntry[], memo: RestMemo): SitemapLines {
  const probe = new UrlsetWriter();
  const head = probe.open();
  const tail = probe.close();
  const n = listed.length;
  // Per entry: the memo's index of a rest kept from it (-1: none), or the text of a new one.
  const kept = new Int32Array(n);
  const fresh: (string | null)[] = new Array(n);
  const freshLengths = new Uint32Array(n);
  let writer: UrlsetWriter | null = null;
  let count = 0;
  let total = 0;
  const memoPaths = memo.canonicalPaths;
  // The first memo entry not before the current canonical path. Should `listed` not be in
  // order, a rest is only found less often (written anew), never wrongly.
  let cursor = 0;
  for (const entry of listed) {
    const second = Math.floor(entry.page.lastModified / 1000);
    const path = entry.canonicalPath;
    while (cursor < memoPaths.length && (memoPaths[cursor] as string) < path) cursor++;
    const known = cursor;
    if (
      known < memoPaths.length &&
      memoPaths[known] === path &&
      Math.floor((memo.lastModified[known] as number) / 1000) === second
    ) {
      kept[count] = known;
      fresh[count] = null;
      total += (memo.offsets[known + 1] as number) - (memo.offsets[known] as number);
    } else if (plainRest(entry.canonicalPath, entry.page.lastModified)) {
      // The writer's markup for this URL, without its checks (they cannot fail here),
      // written as bytes below: no string per entry.
      const bytes = entry.canonicalPath.length + PLAIN_REST_EXTRA;
      kept[count] = PLAIN;
      fresh[count] = null;
      freshLengths[count] = bytes;
      total += bytes;
    } else {
      if (writer === null || writer.count >= MAX_SITEMAP_URLS) {
        writer = new UrlsetWriter();
        writer.open();
      }
      const lastmod = w3cSeconds(entry.page.lastModified);
      const result = writer.write({ loc: PLACEHOLDER + entry.canonicalPath, lastmod });
      if (!result.written) {
        writer = null;
        continue;
      }
      const at = result.xml.indexOf(PLACEHOLDER);
      if (!result.xml.startsWith(URL_OPEN) || at !== URL_OPEN.length) continue;
      const rest = result.xml.slice(at + PLACEHOLDER.length);
      kept[count] = -1;
      fresh[count] = rest;
      freshLengths[count] = utf8Length(rest);
      total += freshLengths[count] as number;
    }
    listedAt[count] = entry;
    count++;
  }
  const restBytes = Buffer.allocUnsafeSlow(total);
  const restOffsets = new Uint32Array(count + 1);
  const pathLengths = new Uint32Array(count);
  const lastModified = new Float64Array(count);
  const canonicalPaths: string[] = new Array(count);
  let pos = 0;
  for (let i = 0; i < count; i++) {
    const entry = listedAt[i] as SiteEntry;
    const old = kept[i] as number;
    if (old >= 0) {
      const from = memo.offsets[old] as number;
      const to = memo.offsets[old + 1] as number;
      memo.bytes.copy(restBytes, pos, from, to);
      pos += to - from;
      pathLengths[i] = memo.pathLengths[old] as number;
    } else if (old === PLAIN) {
      const end = writePlainRest(restBytes, pos, entry.canonicalPath, entry.page.lastModified);
      if (end - pos !== freshLengths[i])
        throw new Error('a sitemap entry is not the bytes it was counted as');
      pos = end;
      pathLengths[i] = entry.canonicalPath.length;
    } else {
      const text = fresh[i] as string;
      const bytes = freshLengths[i] as number;
      if (restBytes.write(text, pos, bytes, 'utf8') !== bytes)
        throw new Error('a sitemap entry is not the bytes it was counted as');
      pos += bytes;
      pathLengths[i] = text.indexOf('</loc>');
    }
    canonicalPaths[i] = entry.canonicalPath;
    restOffsets[i + 1] = pos;
    lastModified[i] = entry.page.lastModified;
  }
  listedAt.length = 0;
  memo.canonicalPaths = canonicalPaths;
  memo.bytes = restBytes;
  memo.offsets = restOffsets;
  memo.pathLengths = pathLengths;
  memo.lastModified = lastModified;
  return {
    head,
    tail,
    headBytes: Buffer.from(head),
    tailBytes: Buffer.from(tail),
    restBytes,
    restOffsets,
    pathLengths,
    lastModified,
    layouts: new Map(),
    plans: new Map(),
  };
}

/** `kept` of an entry whose rest {@link writePlainRest} writes. */
const PLAIN = -2;

/** Scratch for `buildSitemapLines`: the entries kept, by their new index. */
const listedAt: SiteEntry[] = [];

/**
 * `<url><loc>` plus the origin as the writer spells and escapes it, for an origin such
 * as `https://example.com`; null when the writer refuses it.
 */
export function originPiece(origin: string): string | null {
  const known = originPieces.get(origin);
  if (known !== undefined) return known;
  const piece = writeOriginPiece(origin);
  // A handful of origins serve a site; do not let hostile Host headers grow this.
  if (originPieces.size >= MAX_ORIGIN_PIECES) originPieces.clear();
  originPieces.set(origin, piece);
  return piece;
}

/**
 * The writer's markup per origin, made once: a function of the origin string alone (no
 * document, no state), so it is never stale.
 */
const originPieces = new Map<string, string | null>();
const MAX_ORIGIN_PIECES = 64;

function writeOriginPiece(origin: string): string | null {
  const writer = new UrlsetWriter();
  writer.open();
  try {
    const result = writer.write({ loc: `${origin}/` });
    if (!result.written) return null;
    const end = result.xml.indexOf('/</loc>');
    return result.xml.startsWith(URL_OPEN) && end > URL_OPEN.length
      ? result.xml.slice(0, end)
      : null;
  } catch {
    return null;
  }
}

/**
 * The parts for this origin piece: computed once per origin length and kept, the least
 * recently used evicted past {@link MAX_LAYOUTS} (a site is served under a handful of
 * origins; hostile Host headers of many lengths cost their own requests, not the cache).
 */
export function sitemapLayout(
  lines: SitemapLines,
  piece: string,
  limits: { readonly maxUrls: number; readonly maxBytes: number },
): SitemapLayout {
  const pieceBytes = utf8Length(piece);
  const known = lines.layouts.get(pieceBytes);
  if (known !== undefined) {
    lines.layouts.delete(pieceBytes);
    lines.layouts.set(pieceBytes, known);
    return known;
  }
  const n = lines.pathLengths.length;
  const spacedAt = new Uint32Array(n + 1);
  const { parts, skipped, spacedBytes } = planParts(lines, piece, limits, spacedAt);
  const offsets = lines.restOffsets;
  // Zeroed: the gaps stay zeros (each response fills its own copy), never stale memory.
  const spaced = Buffer.alloc(spacedBytes);
  for (let i = 0; i < n; i++) {
    const at = spacedAt[i] as number;
    if (at === spacedAt[i + 1]) continue;
    lines.restBytes.copy(spaced, at + pieceBytes, offsets[i] as number, offsets[i + 1] as number);
  }
  const layout: SitemapLayout = { parts, urls: n - skipped.size, skipped, spaced, spacedAt };
  if (lines.layouts.size >= MAX_LAYOUTS) {
    lines.layouts.delete(lines.layouts.keys().next().value as number);
  }
  lines.layouts.set(pieceBytes, layout);
  return layout;
}

/**
 * The plan for this origin piece, without laying the entries out: a request under a new Host
 * length that needs no sitemap body (robots.txt, the index, a 404, a 304, a HEAD) costs one
 * pass over the entries' lengths, never a copy of their bytes.
 */
export function sitemapPlan(
  lines: SitemapLines,
  piece: string,
  limits: { readonly maxUrls: number; readonly maxBytes: number },
): SitemapPlan {
  const pieceBytes = utf8Length(piece);
  const known = lines.plans.get(pieceBytes);
  if (known !== undefined) return known;
  const { parts, skipped } = planParts(lines, piece, limits, null);
  const plan: SitemapPlan = { parts, urls: lines.pathLengths.length - skipped.size };
  if (lines.plans.size >= MAX_PLANS) {
    lines.plans.delete(lines.plans.keys().next().value as number);
  }
  lines.plans.set(pieceBytes, plan);
  return plan;
}

/**
 * How the entries split into parts under this origin piece, which are left out (a URL the
 * protocol's bounds refuse with this origin), and, when `spacedAt` is given, where each
 * entry's gap starts in the spaced bytes.
 */
function planParts(
  lines: SitemapLines,
  piece: string,
  limits: { readonly maxUrls: number; readonly maxBytes: number },
  spacedAt: Uint32Array | null,
): { parts: SitemapPart[]; skipped: Set<number>; spacedBytes: number } {
  const pieceBytes = utf8Length(piece);
  const originLength = piece.length - URL_OPEN.length;
  const frame = lines.headBytes.length + lines.tailBytes.length;
  const parts: SitemapPart[] = [];
  const skipped = new Set<number>();
  let start = 0;
  let count = 0;
  let bytes = frame;
  let newest = 0;
  const n = lines.pathLengths.length;
  const offsets = lines.restOffsets;
  let spacedBytes = 0;
  for (let i = 0; i < n; i++) {
    if (spacedAt !== null) spacedAt[i] = spacedBytes;
    const loc = originLength + (lines.pathLengths[i] ?? 0);
    const size = pieceBytes + (offsets[i + 1] ?? 0) - (offsets[i] ?? 0);
    if (loc < MIN_LOC || loc > MAX_LOC || frame + size > limits.maxBytes) {
      skipped.add(i);
      continue;
    }
    spacedBytes += size;
    if (count > 0 && (count >= limits.maxUrls || bytes + size > limits.maxBytes)) {
      parts.push({ start, end: i, bytes, lastModified: newest });
      start = i;
      count = 0;
      bytes = frame;
      newest = 0;
    }
    count++;
    bytes += size;
    newest = Math.max(newest, lines.lastModified[i] ?? 0);
  }
  if (spacedAt !== null) spacedAt[n] = spacedBytes;
  if (count > 0 || parts.length === 0) parts.push({ start, end: n, bytes, lastModified: newest });
  return { parts, skipped, spacedBytes };
}

/** `2024-05-01T10:00:00Z`: W3C Datetime to the second. */
export function w3cSeconds(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
