import type { Diagnostic } from '../shared/diagnostic.ts';

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

/**
 * The diagnostics of a lenient read as a validator reports them: every problem that makes
 * the document fail the official schemas or the protocol becomes an error. Strict mode is
 * this check over the same diagnostics, not a second parser.
 *
 * @example
 * ```ts
 * const { diagnostics } = await readSitemap(bytes);
 * const valid = !strictSitemapDiagnostics(diagnostics).some((d) => d.severity === 'error');
 * ```
 */
export function strictSitemapDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) =>
    STRICT_ERRORS.has(d.code) && d.severity !== 'error' ? { ...d, severity: 'error' } : d,
  );
}
