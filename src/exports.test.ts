// The public names of every entry point, so a change to the public API is a visible diff.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const EXPECTED: Record<string, string[]> = {
  '.': ['WaymarkError', 'hasErrors', 'isWaymarkError'],
  './robots': [
    'DEFAULT_MAX_ROBOTS_BYTES',
    'RobotsTxt',
    'formatRobots',
    'isValidUserAgent',
    'parseRobots',
    'pathForMatching',
    'productToken',
    'robotsForStatus',
    'scanRobots',
  ],
  './sitemap': [
    'DEFAULT_MAX_ENTRIES',
    'DEFAULT_MAX_SITEMAP_BYTES',
    'MAX_SITEMAP_BYTES',
    'MAX_SITEMAP_URLS',
    'SitemapIndexWriter',
    'SitemapParser',
    'UrlsetWriter',
    'formatSitemapIndex',
    'formatUrlset',
    'parseSitemap',
    'readSitemap',
    'strictSitemapDiagnostics',
    'walkSitemaps',
  ],
  './sitemap/node': ['writeSitemaps'],
  './crawl': [
    'CRAWL_DEFAULTS',
    'PostgresCrawlState',
    'SqliteCrawlState',
    'crawl',
    'crawlSitemapPages',
    'openPostgresCrawlState',
    'openSqliteCrawlState',
  ],
  './report': [
    'PAGE_COLUMNS',
    'REPORT_DATA_VERSION',
    'collectReportData',
    'renderReportHtml',
    'writeReportFile',
  ],
  './http': ['DEFAULT_FETCH_LIMITS', 'fetchWithLimits', 'openWithLimits', 'retryAfterMs'],
  './navmap': [
    'MAX_NAVMAP_BYTES',
    'MAX_NAVMAP_FILES',
    'NAVMAP_NS',
    'discoverNavmap',
    'explainNavmapDiscovery',
    'loadNavmap',
    'loadNavmapFile',
    'parseNavmap',
    'renderNavmap',
  ],
  './site': [
    'DEFAULT_SITE_CONFIG',
    'MAX_ALIAS_LENGTH',
    'PageMetaCache',
    'ReservedPaths',
    'SITE_CONFIG_FILE',
    'createSiteHandler',
    'parseSiteConfig',
    'resolveSiteConfig',
    'startSiteServer',
    'toNodeListener',
    'validateAlias',
  ],
  './url': [
    'MAX_REQUEST_URL_LENGTH',
    'canonicalHostOf',
    'isTrackingParam',
    'isUrlTooLong',
    'normalizeUrl',
    'originOf',
    'pathFilter',
    'sameSite',
  ],
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};

test('package.json exports exactly the known entry points', () => {
  const entries = Object.keys(pkg.exports).filter((key) => key !== './package.json');
  assert.deepEqual(entries.sort(), Object.keys(EXPECTED).sort());
});

for (const [entry, names] of Object.entries(EXPECTED)) {
  test(`${entry} exports ${names.length} names`, async () => {
    // The source of each entry point, so the test needs no build.
    const source =
      entry === '.'
        ? './index.ts'
        : entry.endsWith('/node')
          ? `./${entry.slice(2)}.ts`
          : `./${entry.slice(2)}/index.ts`;
    const module = (await import(source)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(module).sort(), names);
  });
}

// What users install: the built JavaScript behind package.json `exports`, reached through the
// package's own name (self-reference). `npm ci` (prepare) and `npm test` build it first.
for (const [entry, names] of Object.entries(EXPECTED)) {
  const specifier = entry === '.' ? 'waymark' : `waymark/${entry.slice(2)}`;
  test(`${specifier} resolves to the build and exports the same names`, async () => {
    const module = (await import(specifier)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(module).sort(), names);
  });
}

test('every exports target and its declarations exist in the build', async () => {
  const { existsSync } = await import('node:fs');
  for (const target of Object.values(pkg.exports)) {
    if (typeof target === 'string') continue;
    assert.ok(existsSync(new URL(`../${target.default}`, import.meta.url)), target.default);
    assert.ok(existsSync(new URL(`../${target.types}`, import.meta.url)), target.types);
  }
});
