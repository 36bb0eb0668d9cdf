import { MAX_SITEMAP_URLS, SitemapIndexWriter } from '../../sitemap/index.ts';
import { type SitemapPlan, w3cSeconds } from './sitemap-lines.ts';

const PLACEHOLDER = 'http://waymark.invalid';
/** What `originPiece` starts with; the rest of it is the origin as the writers escape it. */
const URL_OPEN = '<url><loc>';
/** Origins longer than this take the writer's own path (a part's URL may pass 2,048). */
const NEAR_URL_LIMIT = 1900;

/** A sitemap index written once per layout with a placeholder origin, split around it. */
interface IndexPieces {
  readonly head: string;
  /** Each `<sitemap>` up to its origin: `<sitemap><loc>`. */
  readonly opens: readonly string[];
  /** Each `<sitemap>` after its origin: `/sitemaps/sitemap-0001.xml</loc>...`. */
  readonly rests: readonly string[];
  readonly tail: string;
}

/** By layout, which belongs to one state: gone with it, so never stale. */
const piecesByLayout = new WeakMap<SitemapPlan, IndexPieces>();

/**
 * The sitemap index of `layout` for the origin whose `originPiece` is `piece`: the index
 * writer's markup, made once per layout with a placeholder origin, joined with the
 * request's origin. The same text as {@link writeIndexBody} (a differential test holds it).
 */
export function indexBody(
  layout: SitemapPlan,
  modifiedAt: number,
  origin: string,
  piece: string,
): string {
  // Near the protocol's URL limit the writer decides (and refuses) with the real origin.
  if (origin.length > NEAR_URL_LIMIT) return writeIndexBody(layout, modifiedAt, origin);
  let pieces = piecesByLayout.get(layout);
  if (pieces === undefined) {
    pieces = indexPieces(layout, modifiedAt);
    piecesByLayout.set(layout, pieces);
  }
  const escaped = piece.slice(URL_OPEN.length);
  let xml = pieces.head;
  for (let i = 0; i < pieces.rests.length; i++) xml += pieces.opens[i] + escaped + pieces.rests[i];
  return xml + pieces.tail;
}

function indexPieces(layout: SitemapPlan, modifiedAt: number): IndexPieces {
  const writer = new SitemapIndexWriter({ maxUrls: MAX_SITEMAP_URLS });
  const head = writer.open();
  const opens: string[] = [];
  const rests: string[] = [];
  layout.parts.forEach((part, i) => {
    const result = writer.write({
      loc: `${PLACEHOLDER}${partPath(i)}`,
      lastmod: w3cSeconds(part.lastModified || modifiedAt),
    });
    // Past 50,000 parts the index is full; the rest cannot be named (2.5 billion URLs).
    if (!result.written) return;
    const at = result.xml.indexOf(PLACEHOLDER);
    opens.push(result.xml.slice(0, at));
    rests.push(result.xml.slice(at + PLACEHOLDER.length));
  });
  return { head, opens, rests, tail: writer.close() };
}

/** The index written whole for one origin, per request: the slow twin of {@link indexBody}. */
export function writeIndexBody(layout: SitemapPlan, modifiedAt: number, origin: string): string {
  const writer = new SitemapIndexWriter({ maxUrls: MAX_SITEMAP_URLS });
  let xml = writer.open();
  layout.parts.forEach((part, i) => {
    const result = writer.write({
      loc: `${origin}${partPath(i)}`,
      lastmod: w3cSeconds(part.lastModified || modifiedAt),
    });
    if (result.written) xml += result.xml;
  });
  return xml + writer.close();
}

function partPath(i: number): string {
  return `/sitemaps/sitemap-${String(i + 1).padStart(4, '0')}.xml`;
}
