import type { Diagnostic } from '../shared/diagnostic.ts';
import type { SitemapKind } from './types.ts';

/**
 * Codes of problems that make a document fail the official XML Schemas (sitemaps.org 0.9
 * and Google's extensions), or break the protocol's rules, even though the lenient reader
 * recovers from them (or only notes them).
 */
const STRICT_ERRORS: ReadonlySet<string> = new Set([
  // What the XSDs reject.
  'missing-namespace',
  'wrong-namespace',
  'unknown-element',
  'element-order',
  'empty-element',
  'invalid-changefreq',
  'invalid-priority',
  'invalid-lastmod',
  'lastmod-not-xsd',
  'invalid-date',
  'empty-loc',
  'missing-loc',
  'loc-too-long',
  'incomplete-image',
  'incomplete-video',
  'incomplete-news',
  'unclosed-element',
  'malformed-markup',
  'xml-declaration-not-first',
  // What the protocol forbids.
  'lastmod-not-w3c',
  'date-not-w3c',
  'relative-loc',
  'invalid-loc',
  'unsupported-loc',
  'invalid-encoding',
  'unsupported-encoding',
  'over-protocol-urls',
  'over-protocol-size',
]);

/** The element a URL set or an index must hold at least one of. */
const REQUIRED_CHILD: Partial<Record<SitemapKind, string>> = {
  urlset: '<urlset> lists no <url>',
  index: '<sitemapindex> lists no <sitemap>',
};

/**
 * The diagnostics of a lenient read as a validator reports them: every problem that makes
 * the document fail the official schemas or the protocol becomes an error. Strict mode is
 * this check over the same diagnostics, not a second parser.
 *
 * Given the document's kind and how many entries were read (`entries.length` of a
 * `readSitemap` result, or a count kept while streaming), it also reports an empty URL set
 * or index (`no-entries`): the reader takes `<urlset/>` as a valid document with nothing in
 * it, but both schemas require at least one child. That error is added only when nothing
 * else is wrong: entries skipped for a bad `<loc>`, or a read cut short, already explain
 * the count (and may not mean the element is missing).
 *
 * @example
 * ```ts
 * const { kind, entries, diagnostics } = await readSitemap(bytes);
 * const strict = strictSitemapDiagnostics(diagnostics, { kind, entryCount: entries.length });
 * const valid = !strict.some((d) => d.severity === 'error');
 * ```
 */
export function strictSitemapDiagnostics(
  diagnostics: readonly Diagnostic[],
  counts?: { readonly kind: SitemapKind; readonly entryCount: number },
): Diagnostic[] {
  const strict = diagnostics.map((d) =>
    STRICT_ERRORS.has(d.code) && d.severity !== 'error' ? { ...d, severity: 'error' as const } : d,
  );
  const empty =
    counts === undefined || counts.entryCount > 0 ? undefined : REQUIRED_CHILD[counts.kind];
  if (empty !== undefined && !strict.some((d) => d.severity === 'error')) {
    strict.push({
      code: 'no-entries',
      severity: 'error',
      message: `${empty}; the schema requires at least one`,
      line: 1,
      column: 1,
    });
  }
  return strict;
}
