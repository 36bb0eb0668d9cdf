// The sitemap readers' common face: read one document (a URL set, or an index and every
// part it names) and count its URLs, or also collect their locs for the agreement check.
// Each library's readers live in their own module and are loaded by name, so a process that
// measures one reader's memory loads only that library.

/** Read size for files: what `fs.createReadStream` uses by default. */
export const FILE_CHUNK = 64 * 1024;

/** One document as a file and as a URL on the shop. */
export interface ReadTarget {
  readonly kind: 'urlset' | 'index';
  /** For a URL set: the file (`.gz` is gzip). */
  readonly path: string;
  /** The same document's URL on the shop (`SHOP_ORIGIN`). */
  readonly url: string;
  /** The bench server standing in for the shop: every fetch goes there. */
  readonly server: string;
}

export interface ReadOutcome {
  /** URLs handed back (for an index, over every part). */
  readonly count: number;
  /** Their locs, in document order, when asked for; else empty. */
  readonly locs: readonly string[];
  /** What the reader reported as wrong: diagnostics, errors, failed fetches. */
  readonly problems: number;
}

export interface SitemapReader {
  readonly name: string;
  /** How a URL set reaches it, for the output. */
  readonly via: string;
  /** Whether a URL set reaches it over HTTP (an index always does). */
  readonly overHttp: boolean;
  /** How an index and its parts reach it, when that differs. */
  readonly viaIndex?: string;
  readonly reads: readonly ReadTarget['kind'][];
  read(target: ReadTarget, collect: boolean): Promise<ReadOutcome>;
}

/** Not a contender: Node's fetch draining a body unparsed, the memory floor over HTTP. */
export const REFERENCE_READER_NAME = 'fetch, no parsing';

/**
 * Not in the tables of readers: waymark's reader on a Node file stream, timed beside its file
 * reader in the whole-job section.
 */
export const WAYMARK_STREAM_READER_NAME = 'waymark (file stream)';

/** Every reader, in table order, each loaded with its own library only. */
const READER_LOADERS: readonly (readonly [string, () => Promise<SitemapReader>])[] = [
  ['waymark', async () => (await import('./sitemap-read-waymark.ts')).waymarkFile],
  [
    WAYMARK_STREAM_READER_NAME,
    async () => (await import('./sitemap-read-waymark.ts')).waymarkFileStream,
  ],
  ['waymark (HTTP)', async () => (await import('./sitemap-read-waymark.ts')).waymarkHttp],
  ['sitemap', async () => (await import('./sitemap-read-sitemapjs.ts')).sitemapJs],
  ['sitemapper', async () => (await import('./sitemap-read-sitemapper.ts')).sitemapper],
  [REFERENCE_READER_NAME, async () => (await import('./sitemap-read-fetch.ts')).fetchOnly],
];

/** The contenders, without the memory reference and the file-stream variant. */
export const READER_NAMES: readonly string[] = READER_LOADERS.map(([name]) => name).filter(
  (name) => name !== REFERENCE_READER_NAME && name !== WAYMARK_STREAM_READER_NAME,
);

/** Loads the reader called `name`, and only the library it needs. */
export function loadReader(name: string): Promise<SitemapReader> {
  const found = READER_LOADERS.find(([n]) => n === name);
  if (found === undefined) throw new Error(`no sitemap reader named ${name}`);
  return found[1]();
}

/**
 * Maps a URL on `publicOrigin` to the same path on the bench server; any other URL is
 * refused, so no reader can reach beyond 127.0.0.1 whatever a document names.
 */
export function localUrl(url: string, publicOrigin: string, serverOrigin: string): string {
  if (!url.startsWith(`${publicOrigin}/`)) {
    throw new Error(`the bench reads only from ${publicOrigin} (on ${serverOrigin}), not ${url}`);
  }
  return serverOrigin + url.slice(publicOrigin.length);
}

export function isWaymark(reader: SitemapReader): boolean {
  return reader.name.startsWith('waymark');
}
