import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { MAX_SITEMAP_URLS, UrlsetWriter } from '../../sitemap/index.ts';
import type { SiteEntry } from './site-index.ts';

/**
 * The sitemap of a content root, written by `UrlsetWriter` once per change with a
 * placeholder origin and kept as per-entry pieces, so a request only joins them with its
 * own origin. Every `<url>` is the writer's own markup (escaped and validated by it); the
 * origin piece is the writer's markup for the request's origin. Only markup derived from
 * metadata is kept: a response body is joined anew for every request, never stored.
 */
export interface SitemapLines {
  /** `<?xml ...?>\n<urlset ...>\n` */
  readonly head: string;
  /** `</urlset>\n` */
  readonly tail: string;
  /**
   * Every entry's markup after the origin (`/about/team</loc><lastmod>...</url>\n`): the
   * static text between two origin insertion points, so that a run of entries is the
   * origin piece followed by `rests.slice(a, b).join(originPiece)`.
   */
  readonly rests: readonly string[];
  /** Entry i's rest is UTF-8 bytes [restOffsets[i], restOffsets[i + 1]) of all rests. */
  readonly restOffsets: Uint32Array;
  /** Per entry, the length of the URL after the origin (for the protocol's URL limits). */
  readonly pathLengths: readonly number[];
  /** Per entry, epoch ms. */
  readonly lastModified: readonly number[];
  /** Part layouts, by the byte length of the origin piece. */
  readonly layouts: Map<number, SitemapLayout>;
}

/** How the entries split into documents for one origin length. */
export interface SitemapLayout {
  readonly parts: readonly SitemapPart[];
  /** URLs in all parts together (0: there is no sitemap to serve). */
  readonly urls: number;
  /** Entries whose URL would be too short or too long with this origin. */
  readonly skipped: ReadonlySet<number>;
}

export interface SitemapPart {
  /** Entry indexes [start, end). */
  readonly start: number;
  readonly end: number;
  readonly bytes: number;
  readonly lastModified: number;
}

const PLACEHOLDER = 'http://waymark.invalid';
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
/** What every `<url>` starts with: `loc` is its first child. */
const URL_OPEN = '<url><loc>';
// sitemaps.org tLoc bounds; the writer checks them with the placeholder, we with the real origin.
const MIN_LOC = 12;
const MAX_LOC = 2048;

/** One entry's rest, with its URL path length and UTF-8 byte length. */
interface Rest {
  readonly key: string;
  readonly rest: string;
  readonly length: number;
  readonly bytes: number;
}

/** A memo of rests by entry, so a change rewrites only what changed. */
export type RestMemo = Map<string, Rest>;

export function buildSitemapLines(listed: readonly SiteEntry[], memo: RestMemo): SitemapLines {
  const probe = new UrlsetWriter();
  const head = probe.open();
  const tail = probe.close();
  const rests: string[] = [];
  const offsets: number[] = [0];
  const pathLengths: number[] = [];
  const lastModified: number[] = [];
  let writer: UrlsetWriter | null = null;
  const next: RestMemo = new Map();
  for (const entry of listed) {
    const lastmod = w3cSeconds(entry.page.lastModified);
    const key = `${entry.canonicalPath}\n${lastmod}`;
    let piece = memo.get(entry.page.path);
    if (piece?.key !== key) {
      if (writer === null || writer.count >= MAX_SITEMAP_URLS) {
        writer = new UrlsetWriter();
        writer.open();
      }
      const result = writer.write({ loc: PLACEHOLDER + entry.canonicalPath, lastmod });
      if (!result.written) {
        writer = null;
        continue;
      }
      const at = result.xml.indexOf(PLACEHOLDER);
      if (!result.xml.startsWith(URL_OPEN) || at !== URL_OPEN.length) continue;
      const rest = flatCopy(result.xml.slice(at + PLACEHOLDER.length));
      piece = { key, rest, length: rest.indexOf('</loc>'), bytes: utf8Length(rest) };
    }
    next.set(entry.page.path, piece);
    rests.push(piece.rest);
    offsets.push((offsets[offsets.length - 1] as number) + piece.bytes);
    pathLengths.push(piece.length);
    lastModified.push(entry.page.lastModified);
  }
  memo.clear();
  for (const [path, piece] of next) memo.set(path, piece);
  const restOffsets = Uint32Array.from(offsets);
  return { head, tail, rests, restOffsets, pathLengths, lastModified, layouts: new Map() };
}

/**
 * `<url><loc>` plus the origin as the writer spells and escapes it, for an origin such
 * as `https://example.com`; null when the writer refuses it.
 */
export function originPiece(origin: string): string | null {
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

/** The parts for this origin piece: computed once per origin length and kept. */
export function sitemapLayout(
  lines: SitemapLines,
  piece: string,
  limits: { readonly maxUrls: number; readonly maxBytes: number },
): SitemapLayout {
  const pieceBytes = utf8Length(piece);
  const known = lines.layouts.get(pieceBytes);
  if (known !== undefined) return known;
  const originLength = piece.length - URL_OPEN.length;
  const frame = utf8Length(lines.head) + utf8Length(lines.tail);
  const parts: SitemapPart[] = [];
  const skipped = new Set<number>();
  let start = 0;
  let count = 0;
  let bytes = frame;
  let newest = 0;
  const n = lines.pathLengths.length;
  const offsets = lines.restOffsets;
  for (let i = 0; i < n; i++) {
    const loc = originLength + (lines.pathLengths[i] ?? 0);
    const size = pieceBytes + (offsets[i + 1] ?? 0) - (offsets[i] ?? 0);
    if (loc < MIN_LOC || loc > MAX_LOC || frame + size > limits.maxBytes) {
      skipped.add(i);
      continue;
    }
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
  if (count > 0 || parts.length === 0) parts.push({ start, end: n, bytes, lastModified: newest });
  const layout = { parts, urls: n - skipped.size, skipped };
  // A handful of origins serve a site; do not let hostile Host headers grow this.
  if (lines.layouts.size >= 16) lines.layouts.clear();
  lines.layouts.set(pieceBytes, layout);
  return layout;
}

/**
 * The size a streamed chunk is cut to (head and tail aside). Below V8's 128 KiB limit for
 * objects in the young generation: a chunk's string then dies in a cheap scavenge, while a
 * larger one goes to the large-object space, which only a full collection frees; with
 * 192 KiB chunks a 5 MB sitemap cost four times the CPU.
 */
const CHUNK_BYTES = 120 * 1024;

/**
 * One part's bytes, in chunks of about {@link CHUNK_BYTES}: the writer's head, each
 * entry's origin piece and rest, the writer's tail, so the first bytes leave before the
 * last are made. A chunk is one native `join` of its entries' rests with the origin piece
 * as the separator, encoded once into a buffer of the size counted beforehand: a handful
 * of allocations per chunk rather than one per entry. Nothing of it outlives the request.
 * Altogether exactly the `bytes` the layout counted.
 */
export function* sitemapPartChunks(
  lines: SitemapLines,
  layout: SitemapLayout,
  part: SitemapPart,
  piece: string,
): Generator<Uint8Array<ArrayBuffer>> {
  const pieceLength = utf8Length(piece);
  const { rests, restOffsets } = lines;
  const skipped = layout.skipped;
  let total = 0;
  let start = part.start;
  for (;;) {
    const end = chunkEnd(restOffsets, pieceLength, start, part.end);
    const first = start === part.start;
    const last = end === part.end;
    // Element 0 stands before the first separator: the head, or nothing.
    let texts: string[];
    let size = (restOffsets[end] as number) - (restOffsets[start] as number);
    if (skipped.size === 0) {
      texts = rests.slice(start, end);
      texts.unshift(first ? lines.head : '');
    } else {
      texts = [first ? lines.head : ''];
      for (let i = start; i < end; i++) {
        if (skipped.has(i)) size -= (restOffsets[i + 1] as number) - (restOffsets[i] as number);
        else texts.push(rests[i] as string);
      }
    }
    const entries = texts.length - 1;
    size += entries * pieceLength;
    if (first) size += utf8Length(lines.head);
    if (last) {
      size += utf8Length(lines.tail);
      texts[entries] += lines.tail;
    }
    const text = texts.join(piece);
    const out = new Uint8Array(size);
    const { read, written } = ENCODER.encodeInto(text, out);
    if (read !== text.length || written !== size)
      throw new Error(`sitemap chunk is ${utf8Length(text)} bytes, counted as ${size}`);
    total += size;
    yield out;
    if (last) break;
    start = end;
  }
  if (total !== part.bytes)
    throw new Error(`sitemap part is ${total} bytes, laid out as ${part.bytes}`);
}

/** The end of the chunk from `start`: the last entry that keeps it within CHUNK_BYTES. */
function chunkEnd(offsets: Uint32Array, pieceLength: number, start: number, end: number): number {
  const fits = (i: number): boolean =>
    (offsets[i] as number) - (offsets[start] as number) + (i - start) * pieceLength <= CHUNK_BYTES;
  if (fits(end)) return end;
  let low = start + 1; // always at least one entry
  let high = end;
  while (low + 1 < high) {
    const mid = (low + high) >>> 1;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * The same text in a string of its own. A slice is a view into the writer's whole output,
 * which it keeps alive, and joining tens of thousands of views per request was about 15%
 * slower than joining plain strings; the copy is made once per changed entry.
 */
function flatCopy(text: string): string {
  return DECODER.decode(ENCODER.encode(text));
}

/** `2024-05-01T10:00:00Z`: W3C Datetime to the second. */
export function w3cSeconds(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
