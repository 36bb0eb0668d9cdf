/**
 * The standard-sitemap namespace: elements of a navigational sitemap, and discovery's key.
 *
 * @example
 * ```ts
 * const opt = `"${NAVMAP_NS}"; ns=42`; // an Opt header value that declares it
 * ```
 */
export const NAVMAP_NS = 'http://standard-sitemap.org/2007/ns';
export const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** The `Accept` a navigational sitemap is fetched with; only this differs from the page's. */
export const NAVMAP_ACCEPT = 'application/xml, text/xml';

/**
 * Most files one navigational sitemap may be made of (the root and its externals).
 *
 * @example
 * ```ts
 * await loadNavmapFile(url, { maxFiles: Math.min(8, MAX_NAVMAP_FILES) });
 * ```
 */
export const MAX_NAVMAP_FILES = 32;
/**
 * Most bytes read from one navigational sitemap document (UTF-16 code units when it is given
 * as a string): 64 MiB. Past it the rest is left out with a `too-large` error diagnostic;
 * {@link MAX_ELEMENTS} elements fit in far less.
 *
 * @example
 * ```ts
 * if (file.size > MAX_NAVMAP_BYTES) console.warn('only the first 64 MiB will be read');
 * ```
 */
export const MAX_NAVMAP_BYTES = 64 * 1024 * 1024;
export { MAX_XML_DEPTH } from '../shared/xml/xml-limits.ts';
/** Deepest navigation level built (externals can splice deeper than one file nests). */
export const MAX_TREE_DEPTH = 128;
/** Most elements kept from one document. */
export const MAX_ELEMENTS = 100_000;
/** Default cap on nodes in the assembled tree (a node under several parents counts each time). */
export const DEFAULT_MAX_NODES = 100_000;
/** Characters of text kept for an `<image>` or `<style>` kept as data. */
export const MAX_EXTRA_TEXT = 4_096;
