import { utf8Length } from '../../shared/xml/xml-escape.ts';
import { MAX_SITEMAP_URLS, UrlsetWriter } from '../../sitemap/index.ts';
import type { SiteEntry } from './site-index.ts';

/**
 * The sitemap of a content root, written by `UrlsetWriter` once per change with a
 * placeholder origin and kept as per-entry pieces, so a request only joins them with its
 * own origin. Every `<url>` is the writer's own markup (escaped and validated by it); the
 * origin piece is the writer's markup for the request's origin. This is what keeps a live
 * 50,000-URL sitemap close to the speed of a static file.
 */
export interface SitemapLines {
  /** `<?xml ...?>\n<urlset ...>\n` */
  readonly head: string;
  /** `</urlset>\n` */
  readonly tail: string;
  /**
   * Every entry's markup after the origin (`/about/team</loc><lastmod>...</url>\n`), as
   * UTF-8, back to back; entry i is bytes [restOffsets[i], restOffsets[i + 1]).
   */
  readonly restBytes: Uint8Array;
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
/** What every `<url>` starts with: `loc` is its first child. */
const URL_OPEN = '<url><loc>';
// sitemaps.org tLoc bounds; the writer checks them with the placeholder, we with the real origin.
const MIN_LOC = 12;
const MAX_LOC = 2048;

/** A memo of rests by entry, so a change rewrites only what changed. */
export type RestMemo = Map<
  string,
  { readonly key: string; readonly rest: string; readonly length: number }
>;

export function buildSitemapLines(listed: readonly SiteEntry[], memo: RestMemo): SitemapLines {
  const probe = new UrlsetWriter();
  const head = probe.open();
  const tail = probe.close();
  const rests: string[] = [];
  const pathLengths: number[] = [];
  const lastModified: number[] = [];
  let writer: UrlsetWriter | null = null;
  const next = new Map<string, { key: string; rest: string; length: number }>();
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
      const rest = result.xml.slice(at + PLACEHOLDER.length);
      piece = { key, rest, length: rest.indexOf('</loc>') };
    }
    next.set(entry.page.path, piece);
    rests.push(piece.rest);
    pathLengths.push(piece.length);
    lastModified.push(entry.page.lastModified);
  }
  memo.clear();
  for (const [path, piece] of next) memo.set(path, piece);
  const restBytes = ENCODER.encode(rests.join(''));
  const restOffsets = new Uint32Array(rests.length + 1);
  let offset = 0;
  rests.forEach((rest, i) => {
    restOffsets[i] = offset;
    offset += utf8Length(rest);
  });
  restOffsets[rests.length] = offset;
  return { head, tail, restBytes, restOffsets, pathLengths, lastModified, layouts: new Map() };
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

/** Entries per chunk of a streamed part: about 100 KB. */
const CHUNK_ENTRIES = 1024;

/**
 * One part's bytes, in chunks of about 100 KB: the writer's head, each entry's origin
 * piece and rest, the writer's tail, copied straight into buffers (no string joins, no
 * re-encoding), so the first bytes leave before the last are made. Altogether exactly the
 * `bytes` the layout counted.
 */
export function* sitemapPartChunks(
  lines: SitemapLines,
  layout: SitemapLayout,
  part: SitemapPart,
  piece: string,
): Generator<Uint8Array<ArrayBuffer>> {
  const pieceBytes = ENCODER.encode(piece);
  const pieceLength = pieceBytes.length;
  const { restBytes, restOffsets } = lines;
  const skipped = layout.skipped;
  const head = ENCODER.encode(lines.head);
  const tail = ENCODER.encode(lines.tail);
  let total = 0;
  for (let start = part.start; start < part.end || start === part.start; start += CHUNK_ENTRIES) {
    const end = Math.min(part.end, start + CHUNK_ENTRIES);
    const first = start === part.start;
    const last = end === part.end;
    let size = (first ? head.length : 0) + (last ? tail.length : 0);
    for (let i = start; i < end; i++) {
      if (skipped.size === 0 || !skipped.has(i))
        size += pieceLength + (restOffsets[i + 1] as number) - (restOffsets[i] as number);
    }
    const out = new Uint8Array(size);
    let pos = 0;
    if (first) {
      out.set(head);
      pos = head.length;
    }
    for (let i = start; i < end; i++) {
      if (skipped.size > 0 && skipped.has(i)) continue;
      // The origin piece is a few dozen bytes: a plain loop beats a native call per entry.
      for (let k = 0; k < pieceLength; k++) out[pos + k] = pieceBytes[k] as number;
      pos += pieceLength;
      const from = restOffsets[i] as number;
      const to = restOffsets[i + 1] as number;
      out.set(restBytes.subarray(from, to), pos);
      pos += to - from;
    }
    if (last) out.set(tail, pos);
    total += size;
    yield out;
    if (last) break;
  }
  if (total !== part.bytes)
    throw new Error(`sitemap part is ${total} bytes, laid out as ${part.bytes}`);
}

/** `2024-05-01T10:00:00Z`: W3C Datetime to the second. */
export function w3cSeconds(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
