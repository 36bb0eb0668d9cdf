import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { fixturePath, needsFixtures } from '../../test-support/fixtures.ts';

/** Which official schema a document is checked against. */
export type SitemapSchema = 'urlset' | 'urlset-extensions' | 'index';

const ROOT: Record<SitemapSchema, string> = {
  urlset: 'sitemap.xsd',
  // all.xsd imports sitemaps.org and every extension by local path: they are preloaded.
  'urlset-extensions': 'all.xsd',
  index: 'siteindex.xsd',
};

const IMPORTED = [
  'sitemap.xsd',
  'sitemap-image.xsd',
  'sitemap-video.xsd',
  'sitemap-news.xsd',
  'sitemap-mobile.xsd',
  'xhtml1-strict.xsd',
  'xml.xsd',
];

/** Every schema file `validateSitemap` may read, as paths for `needsFixtures`. */
export const SCHEMA_FIXTURES = [...new Set([...Object.values(ROOT), ...IMPORTED])].map(
  (name) => `sitemaps/xsd/${name}`,
);

/** Options for a test that calls `validateSitemap`: skipped where the schemas are missing. */
export const needsSchemas = (): { skip?: string } => needsFixtures(...SCHEMA_FIXTURES);

// Read in place from ../shared/fixtures (never copied), once per test process.
const files = new Map<string, XMLFileInfo>();
function schemaFile(name: string): XMLFileInfo {
  let file = files.get(name);
  if (file === undefined) {
    file = { fileName: name, contents: readFileSync(fixturePath(`sitemaps/xsd/${name}`), 'utf8') };
    files.set(name, file);
  }
  return file;
}

export interface SchemaCheck {
  readonly valid: boolean;
  readonly errors: readonly string[];
}

/** Validates `xml` with libxml2 (xmllint compiled to WebAssembly), offline. */
export async function validateSitemap(xml: string, schema: SitemapSchema): Promise<SchemaCheck> {
  const root = ROOT[schema];
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [schemaFile(root)],
    preload: schema === 'urlset-extensions' ? IMPORTED.map(schemaFile) : [],
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}

/**
 * Asserts that `xml` is valid against the official schema, in a subtest of `t` that is
 * skipped where the schemas are missing: the rest of the calling test still runs.
 */
export async function assertValidSitemap(
  t: TestContext,
  xml: string,
  schema: SitemapSchema,
): Promise<void> {
  await t.test(`valid against the official XSD (${schema})`, needsSchemas(), async () => {
    const check = await validateSitemap(xml, schema);
    assert.ok(check.valid, check.errors.join('\n'));
  });
}
