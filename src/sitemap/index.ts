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
  SitemapDiff,
  SitemapDiffEntry,
  SitemapDiffSource,
  SitemapLastmodChange,
} from './diff-sitemaps.ts';
export { diffSitemaps } from './diff-sitemaps.ts';
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
export type {
  LastmodEntry,
  LastmodExample,
  LastmodFinding,
  LastmodFindingCode,
  LastmodSanity,
  LastmodSanityOptions,
} from './lastmod-sanity.ts';
export {
  checkLastmodSanity,
  LASTMOD_CLOCK_SKEW_MS,
  LASTMOD_GENERATION_SHARE,
  LASTMOD_IDENTICAL_MIN,
  LastmodSanityCheck,
} from './lastmod-sanity.ts';
export type { ReadSitemapOptions, SitemapReading } from './read-sitemap.ts';
export { DEFAULT_MAX_SITEMAP_BYTES, parseSitemap, readSitemap } from './read-sitemap.ts';
export type { SitemapEndOptions, SitemapParserOptions } from './sitemap-parser.ts';
export { DEFAULT_MAX_ENTRIES, SitemapParser } from './sitemap-parser.ts';
export { strictSitemapDiagnostics } from './strict-diagnostics.ts';
export type {
  Changefreq,
  Diagnostic,
  LastmodInput,
  SitemapAlternate,
  SitemapDocument,
  SitemapEntry,
  SitemapImage,
  SitemapIndexEntry,
  SitemapIndexEntryInput,
  SitemapKind,
  SitemapNews,
  SitemapUrl,
  SitemapUrlInput,
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
