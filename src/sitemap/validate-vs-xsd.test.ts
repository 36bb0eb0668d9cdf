// `strictSitemapDiagnostics` (what `waymark sitemap validate` reports) must agree with the
// official XSDs, run by libxml2 (xmllint-wasm), on every URL set and index among the shared
// sample documents: a document has strict errors exactly when the schemas reject it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { fixturePath, readFixtureJson } from '../test-support/fixtures.ts';
import { readSitemap, strictSitemapDiagnostics } from './index.ts';
import { validateSitemap } from './test-support/xsd.ts';

/** Documents where the two must differ, and why. */
const EXPECTED_DIFFERENCES: Readonly<Record<string, string>> = {
  'own-encoding-windows-1252': 'libxml2 in WebAssembly has no Windows-1252; waymark reads it',
  'own-encoding-utf-16le-bom':
    'the test hands libxml2 UTF-16 text as a JS string; waymark reads the bytes',
  'own-encoding-undeclared-latin1-bytes':
    'the test decodes the stray byte to U+FFFD first; waymark reports the byte',
  'own-xxe-external-entity':
    'waymark refuses any DTD with entities; the schema itself says nothing about them',
  'own-urlset-50001': 'the XSD sets no URL limit; the protocol allows 50,000',
};

interface SitemapCase {
  id: string;
  file: string;
  kind: string;
}

describe('validate agrees with the official XSDs', () => {
  const { cases } = readFixtureJson<{ cases: SitemapCase[] }>('sitemaps/cases/cases.json');
  const documents = cases.filter((c) => c.kind === 'urlset' || c.kind === 'index');
  test('there are documents to compare', () => assert.ok(documents.length >= 40));
  for (const c of documents) {
    test(c.id, async () => {
      let bytes = readFileSync(fixturePath(`sitemaps/cases/${c.file}`));
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      const { diagnostics } = await readSitemap(bytes);
      const strict = strictSitemapDiagnostics(diagnostics).filter((d) => d.severity === 'error');
      const encoding = c.id.includes('8859-1') ? 'latin1' : 'utf-8';
      const xml = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
      const xsd = await validateSitemap(xml, c.kind === 'index' ? 'index' : 'urlset-extensions');
      const agree = xsd.valid === (strict.length === 0);
      const difference = EXPECTED_DIFFERENCES[c.id];
      const detail = `xsd: ${xsd.valid ? 'valid' : xsd.errors[0]}; waymark: ${strict.map((d) => d.code).join(', ') || 'valid'}`;
      if (difference === undefined) assert.ok(agree, detail);
      else
        assert.ok(!agree, `expected to differ (${difference}), but both say the same: ${detail}`);
    });
  }
});
