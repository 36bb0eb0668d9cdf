// The sitemaps.org protocol's limits and vocabulary, shared by the reader (which reports
// passing them) and the writer (which never passes them).
import type { Changefreq } from '../types.ts';

/** URLs in one sitemap document. */
export const MAX_SITEMAP_URLS = 50_000;
/** Bytes of one sitemap document, uncompressed: 50 MiB. */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Characters of one URL. */
export const MAX_URL_LENGTH = 2048;

/** The values `<changefreq>` may take. */
export const CHANGEFREQS: readonly Changefreq[] = [
  'always',
  'hourly',
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'never',
];
