// The public names of every entry point, so a change to the public API is a visible diff.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const EXPECTED: Record<string, string[]> = {
  '.': ['WaymarkError', 'hasErrors', 'isWaymarkError'],
  './robots': [
    'CRAWLER_PURPOSES',
    'DEFAULT_MAX_ROBOTS_BYTES',
    'KNOWN_CRAWLERS',
    'RobotsTxt',
    'USAGE_VOCABULARY',
    'auditRobots',
    'crawlersByPurpose',
    'expandPurposePolicy',
    'findCrawler',
    'formatRobots',
    'isAiPurpose',
    'isValidUserAgent',
    'mergeCrawlerRegistries',
    'parseCrawlerRegistry',
    'parseRobots',
    'parseUsageStatement',
    'pathForMatching',
    'productToken',
    'robotsForStatus',
    'scanRobots',
  ],
  './sitemap': [
    'DEFAULT_MAX_ENTRIES',
    'DEFAULT_MAX_SITEMAP_BYTES',
    'LASTMOD_CLOCK_SKEW_MS',
    'LASTMOD_GENERATION_SHARE',
    'LASTMOD_IDENTICAL_MIN',
    'LastmodSanityCheck',
    'MAX_SITEMAP_BYTES',
    'MAX_SITEMAP_URLS',
    'SitemapIndexWriter',
    'SitemapParser',
    'UrlsetWriter',
    'checkLastmodSanity',
    'diffSitemaps',
    'formatSitemapIndex',
    'formatUrlset',
    'parseSitemap',
    'readSitemap',
    'strictSitemapDiagnostics',
    'walkSitemaps',
  ],
  './sitemap/node': ['parseSitemapFile', 'readSitemapFile', 'writeSitemaps'],
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
  './indexnow': [
    'INDEXNOW_DEFAULT_ENDPOINT',
    'INDEXNOW_MAX_URLS_PER_REQUEST',
    'indexNowStatusMeaning',
    'isValidIndexNowKey',
    'planIndexNowSubmission',
    'submitIndexNow',
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
  const entries = Object.keys(pkg.exports).filter(
    (key) => key !== './package.json' && !key.endsWith('.json'),
  );
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

test('the crawler registry is also published as the plain data file it is read from', async () => {
  const target = pkg.exports['./robots/known-crawlers.json'];
  assert.equal(target, './dist/robots/agents/known-crawlers.json');
  // Through a variable: the type checker runs before the build that makes the file.
  const specifier = 'waymark/robots/known-crawlers.json';
  const { default: registry } = (await import(specifier, {
    with: { type: 'json' },
  })) as { default: { checked: string; crawlers: { token: string }[] } };
  const { KNOWN_CRAWLERS } = await import('./robots/index.ts');
  assert.deepEqual(
    registry.crawlers.map((crawler) => crawler.token),
    KNOWN_CRAWLERS.crawlers.map((crawler) => crawler.token),
  );
});
