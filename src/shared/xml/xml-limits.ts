/**
 * Elements kept open at once by waymark's XML readers (sitemaps, navigational sitemaps):
 * the tokenizer's `maxDepth`. Real documents nest a few levels; deeper elements are skipped
 * with a diagnostic rather than tracked level by level, so nesting costs no memory per level.
 */
export const MAX_XML_DEPTH = 256;
