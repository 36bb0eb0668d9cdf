/**
 * Sitemaps: a streaming reader for every real-world form (URL sets, indexes, gzip, plain
 * text, RSS, Atom, the image, video, news and hreflang extensions, broken XML), and a
 * writer that splits and validates.
 *
 * @example
 * ```ts
 * import { readSitemap } from 'waymark/sitemap';
 * const { kind, entries, diagnostics } = await readSitemap(bytes, { url: 'https://example.com/sitemap.xml' });
 * ```
 *
 * @module
 */
export type {
  SitemapExtension,
  SitemapWriteResult,
  SitemapWriterOptions,
  UrlsetOptions,
} from './format-sitemap.ts';
export {
  formatSitemapIndex,
  formatUrlset,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
  SitemapIndexWriter,
  UrlsetWriter,
} from './format-sitemap.ts';
export type { SitemapInput } from './internal/byte-source.ts';
export type { ReadSitemapOptions, SitemapReading } from './read-sitemap.ts';
export { DEFAULT_MAX_SITEMAP_BYTES, parseSitemap, readSitemap } from './read-sitemap.ts';
export type { SitemapEndOptions, SitemapParserOptions } from './sitemap-parser.ts';
export { DEFAULT_MAX_ENTRIES, SitemapParser } from './sitemap-parser.ts';
export { strictSitemapDiagnostics } from './strict-diagnostics.ts';
export type {
  Changefreq,
  Diagnostic,
  SitemapAlternate,
  SitemapDocument,
  SitemapEntry,
  SitemapImage,
  SitemapIndexEntry,
  SitemapKind,
  SitemapNews,
  SitemapUrl,
  SitemapVideo,
} from './types.ts';
export type {
  SitemapCandidate,
  SitemapReport,
  SitemapSkipCode,
  WalkedEntry,
  WalkSitemapsOptions,
} from './walk-sitemaps.ts';
export { walkSitemaps } from './walk-sitemaps.ts';
