// `strictSitemapDiagnostics` (what `waymark sitemap validate` reports) must agree with the
// official XSDs, run by libxml2 (xmllint-wasm), on every URL set and index among the shared
// sample documents: a document has strict errors exactly when the schemas reject it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { fixturePath, needsFixtures, readFixtureJson } from '../test-support/fixtures.ts';
import { readSitemap, strictSitemapDiagnostics } from './index.ts';
import { SCHEMA_FIXTURES, validateSitemap } from './test-support/xsd.ts';

/** Documents where the two must differ, and why. */
const EXPECTED_DIFFERENCES: Readonly<Record<string, string>> = {
  'own-encoding-windows-1252': 'libxml2 in WebAssembly has no Windows-1252; waymark reads it',
  'own-encoding-utf-16le-bom':
    'the test hands libxml2 UTF-16 text as a JS string; waymark reads the bytes',
  'own-encoding-undeclared-latin1-bytes':
    'the test decodes the stray byte to U+FFFD first; waymark reports the byte',
  'usp-billion-laughs':
    'its DTD is not well-formed (an entity reference broken over two lines); waymark never reads a DTD, so it reads the rest',
  'own-urlset-50001': 'the XSD sets no URL limit; the protocol allows 50,000',
};

interface SitemapCase {
  id: string;
  file: string;
  kind: string;
}

const needs = needsFixtures('sitemaps/cases/cases.json', ...SCHEMA_FIXTURES);
describe('validate agrees with the official XSDs', needs, () => {
  const { cases } = readFixtureJson<{ cases: SitemapCase[] }>('sitemaps/cases/cases.json');
  const documents = cases.filter((c) => c.kind === 'urlset' || c.kind === 'index');
  test('there are documents to compare', () => assert.ok(documents.length >= 40));
  for (const c of documents) {
    test(c.id, async () => {
      let bytes = readFileSync(fixturePath(`sitemaps/cases/${c.file}`));
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      const { kind, entries, diagnostics } = await readSitemap(bytes);
      const strict = strictSitemapDiagnostics(diagnostics, {
        kind,
        entryCount: entries.length,
      }).filter((d) => d.severity === 'error');
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

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

// Documents the shared samples lack: the empty ones (both schemas want at least one entry)
// beside their smallest valid neighbours, and entries skipped for another reason.
const EDGES: { name: string; kind: 'urlset' | 'index'; xml: string; valid: boolean }[] = [
  { name: 'empty <urlset/>', kind: 'urlset', xml: `<urlset xmlns="${NS}"/>`, valid: false },
  {
    name: 'empty <urlset></urlset> with a declaration, a comment and whitespace',
    kind: 'urlset',
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n  <!-- none -->\n</urlset>\n`,
    valid: false,
  },
  {
    name: 'empty <sitemapindex/>',
    kind: 'index',
    xml: `<sitemapindex xmlns="${NS}"/>`,
    valid: false,
  },
  {
    name: 'empty <sitemapindex></sitemapindex>',
    kind: 'index',
    xml: `<sitemapindex xmlns="${NS}">\n</sitemapindex>`,
    valid: false,
  },
  {
    name: 'one <url>',
    kind: 'urlset',
    xml: `<urlset xmlns="${NS}"><url><loc>https://example.com/</loc></url></urlset>`,
    valid: true,
  },
  {
    name: 'one <sitemap>',
    kind: 'index',
    xml: `<sitemapindex xmlns="${NS}"><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
    valid: true,
  },
  {
    name: 'a <url> without <loc> (read as no entries)',
    kind: 'urlset',
    xml: `<urlset xmlns="${NS}"><url></url></urlset>`,
    valid: false,
  },
];

describe(
  'validate agrees with the official XSDs on empty documents',
  needsFixtures(...SCHEMA_FIXTURES),
  () => {
    for (const edge of EDGES) {
      test(edge.name, async () => {
        const { kind, entries, diagnostics } = await readSitemap(edge.xml);
        assert.equal(kind, edge.kind);
        const strict = strictSitemapDiagnostics(diagnostics, { kind, entryCount: entries.length });
        const errors = strict.filter((d) => d.severity === 'error').map((d) => d.code);
        const xsd = await validateSitemap(edge.xml, edge.kind === 'index' ? 'index' : 'urlset');
        assert.equal(xsd.valid, edge.valid, xsd.errors.join('; '));
        assert.equal(errors.length === 0, edge.valid, errors.join(', '));
        if (entries.length === 0 && !diagnostics.some((d) => d.severity !== 'info')) {
          assert.deepEqual(errors, ['no-entries']);
        }
      });
    }

    test('without the counts, the check sees only the diagnostics (as before)', async () => {
      const { diagnostics } = await readSitemap(`<urlset xmlns="${NS}"/>`);
      assert.deepEqual(strictSitemapDiagnostics(diagnostics), []);
    });
  },
);
