// Report data for tests and the bench: a small hand-made crawl that gives every section and
// check something to show (the counts the tests assert are listed in SAMPLE_COUNTS), and a
// seeded generator of any number of rows for size and speed.

import { seededRandom } from '../../test-support/seeded-random.ts';
import {
  REPORT_DATA_VERSION,
  type ReportData,
  type ReportPageRow,
  type ReportRobots,
  type ReportSitemap,
} from '../report-data.ts';

const SITE = 'https://example.com';

/** The sample's robots.txt: `Disallow: /private/` is line 2, `Disallow: /tmp` line 3. */
export const SAMPLE_ROBOTS_TXT = `User-agent: *
Disallow: /private/
Disallow: /tmp
Allow: /private/press

Sitemap: ${SITE}/sitemap_index.xml
`;

/** A title that would run script if it were ever parsed as HTML. */
export const HOSTILE_TITLE = '</script><img src=x onerror=alert(1)>';

type Row = ReportPageRow;

// biome-ignore format: one row per line reads as the table it is
const SAMPLE_ROWS: Row[] = [
  // url, status, outcome, reason, detail, depth, via, linked, sitemaps, sitemapLastmod, lastModified, contentType, ms, title, inlinks, rule, lastmod
  [`${SITE}/`, 200, 'listed', null, null, 0, null, 1, 1, '2026-02-20T10:00:00+00:00', '2026-02-20T10:00:00.000Z', 'text/html', 120, 'Home', 5, null, '2026-02-20T10:00:00Z'],
  [`${SITE}/about`, 200, 'listed', null, null, 1, 0, 1, 1, '2026-01-10', '2026-02-15T08:00:00.000Z', 'text/html', 80, 'About us', 3, null, '2026-02-15T08:00:00Z'],
  [`${SITE}/blog/`, 200, 'listed', null, null, 1, 0, 1, 2, '2026-03-01T11:58:06Z', null, 'text/html', 300, 'Blog', 4, null, '2026-03-01T11:58:06Z'],
  [`${SITE}/blog/post-1`, 200, 'listed', null, null, 2, 2, 1, 1, '2026-04-01T00:00:00Z', null, 'text/html', 450, 'First post', 2, null, null],
  [`${SITE}/blog/post-2`, 200, 'skipped', 'noindex-meta', null, 2, 2, 1, 1, '2026-02-01T00:00:00Z', null, 'text/html', 1200, 'Second post', 1, null, null],
  [`${SITE}/old-page`, 301, 'skipped', 'redirect', `${SITE}/older-page`, 1, 0, 1, 1, null, null, null, 40, null, 1, null, null],
  [`${SITE}/older-page`, 302, 'skipped', 'redirect', `${SITE}/about`, 2, 5, 1, 0, null, null, null, 35, null, 0, null, null],
  [`${SITE}/gone`, 404, 'skipped', 'client-error', null, 1, 0, 1, 1, null, null, 'text/html', 30, 'Not found', 1, null, null],
  [`${SITE}/orphan`, 200, 'listed', null, null, 0, 'sitemap', 0, 1, 'not-a-date', null, 'text/html', 95, 'Orphan page', 0, null, null],
  [`${SITE}/private/data`, null, 'skipped', 'robots-disallowed', null, 1, 0, 1, 0, null, null, null, null, null, 1, ['disallow', '/private/', 2], null],
  [`${SITE}/tmp/cache`, null, 'skipped', 'robots-disallowed', null, 2, 3, 1, 0, null, null, null, null, null, 1, ['disallow', '/tmp', 3], null],
  [`${SITE}/products`, 200, 'listed', null, null, 1, 0, 1, 0, null, null, 'text/html', 2500, 'Products', 2, null, null],
  [`${SITE}/products?sort=price`, 200, 'skipped', 'canonical-elsewhere', `${SITE}/products`, 2, 11, 1, 0, null, null, 'text/html', 600, 'Products', 1, null, null],
  [`${SITE}/brochure.pdf`, 200, 'skipped', 'non-html', 'application/pdf', 2, 11, 1, 0, null, null, 'application/pdf', 5200, null, 1, null, null],
  [`${SITE}/api`, 500, 'skipped', 'server-error', null, 1, 0, 1, 0, null, null, 'text/html', 11000, null, 1, null, null],
  [`${SITE}/slow`, null, 'error', 'timeout', 'timed out after 30 s', 2, 11, 1, 0, null, null, null, null, null, 1, null, null],
  [`${SITE}/search?q=%3C/script%3E`, 200, 'listed', null, '<!-- </script>', 1, 0, 1, 0, null, null, 'text/html', 150, HOSTILE_TITLE, 1, null, null],
  [`${SITE}/cdn-redirect`, 301, 'skipped', 'redirect-off-origin', 'https://cdn.example.net/x', 1, 0, 1, 0, null, null, null, 25, null, 1, null, null],
  [`${SITE}/blog/post-3`, 200, 'skipped', 'noindex-header', null, 2, 2, 1, 1, '2026-02-24T09:00:00+01:00', '2026-02-25T00:00:00.000Z', 'text/html', 210, 'Third post', 1, null, null],
  [`${SITE}/sale`, 200, 'listed', null, null, 1, 0, 1, 1, '2026-02-10T00:00:00Z', null, 'text/html', 70, '=HYPERLINK("http://evil.example") Sale, "50%" off', 1, null, '2026-02-10T00:00:00Z'],
  ['http://static.example.com/img.png', null, 'skipped', 'robots-unreachable', null, 1, 0, 1, 0, null, null, null, null, null, 1, null, null],
];

/** What the sample's sections must show, as the tests assert it. */
export const SAMPLE_COUNTS = {
  rows: 21,
  listed: 8,
  /** Rows under /blog on example.com: what `Disallow: /blog` blocks. */
  blogRows: [`${SITE}/blog/`, `${SITE}/blog/post-1`, `${SITE}/blog/post-2`, `${SITE}/blog/post-3`],
  listedNotIndexable: [`${SITE}/blog/post-2`, `${SITE}/blog/post-3`],
  listedRedirectOr4xx: [`${SITE}/old-page`, `${SITE}/gone`],
  orphans: [`${SITE}/orphan`],
  missingFromSitemap: [`${SITE}/products`, `${SITE}/search?q=%3C/script%3E`],
  inSeveralSitemaps: [`${SITE}/blog/`],
  sitemapsOverLimits: [`${SITE}/sitemap-blog.xml`],
  lastmodDateOnly: [`${SITE}/about`],
  lastmodGenerationTime: [`${SITE}/blog/`],
  lastmodFuture: [`${SITE}/blog/post-1`],
  lastmodOlder: [`${SITE}/about`, `${SITE}/blog/post-3`],
  lastmodInvalid: [`${SITE}/orphan`],
  blocked: [`${SITE}/private/data`, `${SITE}/tmp/cache`, 'http://static.example.com/img.png'],
  /** Redirect chains of more than one hop: old-page -> older-page -> about. */
  chains: 1,
  status4xx: 1,
  status5xx: 1,
} as const;

const SAMPLE_ROBOTS: ReportRobots[] = [
  {
    origin: SITE,
    url: `${SITE}/robots.txt`,
    status: 200,
    source: 'file',
    detail: null,
    text: SAMPLE_ROBOTS_TXT,
    unreachableAllowed: false,
  },
  {
    origin: 'http://static.example.com',
    url: 'http://static.example.com/robots.txt',
    status: 503,
    source: 'unreachable',
    detail: 'robots.txt answered 503',
    text: null,
    unreachableAllowed: false,
  },
];

const SAMPLE_SITEMAPS: ReportSitemap[] = [
  sitemap(`${SITE}/sitemap_index.xml`, null, 'index', 3, '2026-03-01T11:58:05.000Z'),
  {
    ...sitemap(
      `${SITE}/sitemap-pages.xml`,
      `${SITE}/sitemap_index.xml`,
      'urlset',
      8,
      '2026-03-01T11:58:06.000Z',
    ),
    diagnostics: [
      {
        code: 'invalid-lastmod',
        severity: 'warning',
        message: 'lastmod "not-a-date" is not a date',
        line: 12,
        column: 5,
      },
    ],
  },
  {
    ...sitemap(
      `${SITE}/sitemap-blog.xml`,
      `${SITE}/sitemap_index.xml`,
      'urlset',
      60_000,
      '2026-03-01T11:58:07.000Z',
    ),
    diagnostics: [
      {
        code: 'over-protocol-urls',
        severity: 'warning',
        message: '60000 entries: the protocol allows 50000 per sitemap',
        line: 1,
        column: 1,
      },
      {
        code: 'invalid-loc',
        severity: 'error',
        message: 'loc is not a URL: <b>x</b>',
        line: 40,
        column: 3,
      },
    ],
    diagnosticsDropped: 3,
  },
  {
    ...sitemap(
      `${SITE}/sitemap-missing.xml`,
      `${SITE}/sitemap_index.xml`,
      null,
      0,
      '2026-03-01T11:58:07.000Z',
    ),
    status: 404,
    skipped: 'answered 404',
  },
];

function sitemap(
  url: string,
  parent: string | null,
  kind: string | null,
  entries: number,
  fetchedAt: string,
): ReportSitemap {
  return {
    url,
    parent,
    status: 200,
    kind,
    entries,
    skipped: null,
    diagnostics: [],
    diagnosticsDropped: 0,
    fetchedAt,
  };
}

function skippedCounts(rows: readonly Row[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    if (row[2] === 'skipped' && row[3] !== null) counts[row[3]] = (counts[row[3]] ?? 0) + 1;
  }
  return counts;
}

/** The hand-made sample: 21 URLs of https://example.com (and one of a static host). */
export function sampleReport(): ReportData {
  return {
    version: REPORT_DATA_VERSION,
    generatedAt: '2026-03-01T12:00:00.000Z',
    generator: 'waymark 0.1.0',
    crawl: {
      start: `${SITE}/`,
      userAgent: 'waymark/0.1.0 (+https://github.com/waymark/waymark)',
      robotsAgent: 'waymark',
      createdAt: '2026-03-01T11:58:00.000Z',
      finishedAt: '2026-03-01T11:59:30.000Z',
      durationMs: 90_000,
      pagesPerSecond: 0.2,
      stoppedBy: null,
      notFetched: 0,
      depthCut: 4,
      respectRobots: true,
      fetched: 18,
      listed: 8,
      skipped: skippedCounts(SAMPLE_ROWS),
      errors: 1,
      unreachable: null,
    },
    robots: SAMPLE_ROBOTS,
    sitemaps: SAMPLE_SITEMAPS,
    pages: SAMPLE_ROWS,
  };
}

const REASONS = [
  'noindex-meta',
  'canonical-elsewhere',
  'non-html',
  'redirect',
  'client-error',
  'server-error',
  'robots-disallowed',
] as const;
const TYPES = ['text/html', 'text/html', 'text/html', 'application/pdf', 'image/png'] as const;

/**
 * `rows` URLs of https://gen.example, the same for the same arguments: about 80 % listed,
 * the rest spread over the common skip reasons, some in sitemaps, all with titles.
 * URLs under /private/ are the robots-disallowed ones (the generated robots.txt says so).
 */
export function generatedReport(rows: number, seed = 1): ReportData {
  const next = seededRandom(seed);
  const origin = 'https://gen.example';
  const pages: Row[] = [];
  for (let index = 0; index < rows; index++) {
    const roll = next();
    const section = Math.floor(next() * 50);
    const reason = roll < 0.8 ? null : (REASONS[Math.floor(next() * REASONS.length)] as string);
    const blocked = reason === 'robots-disallowed';
    const url =
      index === 0
        ? `${origin}/`
        : `${origin}/${blocked ? 'private' : `section-${section}`}/page-${index}`;
    const status = blocked
      ? null
      : reason === 'redirect'
        ? 301
        : reason === 'client-error'
          ? 404
          : reason === 'server-error'
            ? 503
            : 200;
    const inSitemaps = next() < 0.6 ? 1 : 0;
    const day = 1 + Math.floor(next() * 28);
    pages.push([
      url,
      status,
      reason === null ? 'listed' : 'skipped',
      reason,
      reason === 'redirect'
        ? `${origin}/section-${section}/page-${Math.floor(next() * rows)}`
        : null,
      index === 0 ? 0 : 1 + Math.floor(next() * 6),
      index === 0 ? null : Math.floor(next() * index),
      next() < 0.97 ? 1 : 0,
      inSitemaps,
      inSitemaps === 1 ? `2026-02-${String(day).padStart(2, '0')}T08:00:00Z` : null,
      next() < 0.5 ? `2026-02-${String(day).padStart(2, '0')}T08:00:00.000Z` : null,
      blocked
        ? null
        : reason === 'non-html'
          ? 'application/pdf'
          : (TYPES[Math.floor(next() * 3)] as string),
      blocked ? null : Math.round(20 + next() * next() * 3000),
      blocked ? null : `Page ${index} of section ${section}`,
      Math.floor(next() * 30),
      blocked ? ['disallow', '/private/', 2] : null,
      reason === null ? `2026-02-${String(day).padStart(2, '0')}T08:00:00Z` : null,
    ]);
  }
  const sample = sampleReport();
  return {
    ...sample,
    crawl: {
      ...sample.crawl,
      start: `${origin}/`,
      fetched: pages.filter((row) => row[1] !== null).length,
      listed: pages.filter((row) => row[2] === 'listed').length,
      skipped: skippedCounts(pages),
      errors: 0,
    },
    robots: [
      {
        ...(SAMPLE_ROBOTS[0] as ReportRobots),
        origin,
        url: `${origin}/robots.txt`,
        text: 'User-agent: *\nDisallow: /private/\n',
      },
    ],
    sitemaps: [
      sitemap(
        `${origin}/sitemap.xml`,
        null,
        'urlset',
        pages.filter((row) => row[8] > 0).length,
        '2026-03-01T11:58:06.000Z',
      ),
    ],
    pages,
  };
}
