// A crawl state of N URLs for the report benchmark, filled through the real CrawlState API
// (create, add, steps with results, links and facts; robots.txt; sitemap files), so the
// report reads what a crawl of that size leaves behind, in a fraction of a crawl's time.

import type { CrawlResultFields, FinishedItem, FrontierItem } from '../../src/crawl/index.ts';
import { openSqliteCrawlState } from '../../src/crawl/index.ts';
import { seededRandom } from '../../src/test-support/seeded-random.ts';

const ORIGIN = 'https://shop.example';
const ROBOTS =
  'User-agent: *\nDisallow: /cart/\nDisallow: /search\nAllow: /search/help\n\nSitemap: https://shop.example/sitemap.xml\n';
/** Links each page has to other pages (menus, related items). */
const LINKS_PER_PAGE = 20;

/** What became of a page, by its number: a realistic mix of outcomes. */
function resultOf(n: number, random: () => number): CrawlResultFields {
  const facts = {
    title: `Product ${n}: a fairly ordinary page title of average length`,
    contentType: 'text/html',
    lastModified: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    ms: Math.round(20 + random() * 400),
  };
  const plain = { lastmod: null, finalUrl: null, facts } as const;
  const roll = n % 100;
  if (roll < 80) {
    return {
      ...plain,
      status: 200,
      outcome: 'listed',
      reason: null,
      data: null,
      lastmod: facts.lastModified,
    };
  }
  if (roll < 85)
    return { ...plain, status: 200, outcome: 'skipped', reason: 'noindex-meta', data: null };
  if (roll < 88) {
    return {
      ...plain,
      status: 200,
      outcome: 'skipped',
      reason: 'canonical-elsewhere',
      data: pageUrl(n - 1),
    };
  }
  if (roll < 92)
    return { ...plain, status: 301, outcome: 'skipped', reason: 'redirect', data: pageUrl(n + 1) };
  if (roll < 95)
    return { ...plain, status: 404, outcome: 'skipped', reason: 'client-error', data: null };
  if (roll < 96)
    return { ...plain, status: 500, outcome: 'skipped', reason: 'server-error', data: null };
  if (roll < 98) {
    return {
      ...plain,
      status: 200,
      outcome: 'skipped',
      reason: 'non-html',
      data: 'application/pdf',
      facts: { ...facts, title: null, contentType: 'application/pdf' },
    };
  }
  return {
    status: null,
    outcome: 'error',
    reason: 'timeout',
    lastmod: null,
    finalUrl: null,
    data: 'timed out after 15000 ms',
    facts: { ...facts, contentType: null, title: null, lastModified: null, ms: 15_000 },
  };
}

function pageUrl(n: number): string {
  return n % 50 === 49
    ? `${ORIGIN}/cart/item-${n}`
    : `${ORIGIN}/products/${Math.floor(n / 1000)}/item-${n}`;
}

/** Fills an SQLite crawl state at `path` with `urls` URLs; returns how many it holds. */
export async function fillReportState(path: string, urls: number): Promise<number> {
  const random = seededRandom(12);
  const state = openSqliteCrawlState(path, { resume: false });
  try {
    await state.create({ start: `${ORIGIN}/`, options: '{}', gapMs: 0 });
    const item = (
      n: number,
      via: string | null,
      kind: 'page' | 'sitemap' = 'page',
    ): FrontierItem => ({
      url: n === 0 ? `${ORIGIN}/` : pageUrl(n),
      origin: ORIGIN,
      priority: kind === 'sitemap' ? 10 : 100,
      depth: 1,
      via,
      kind,
      ...(kind === 'sitemap' ? { lastmod: '2025-06-01' } : {}),
    });
    // The sitemap names half of the site, ahead of links (as a crawl reads it first).
    for (let n = 0; n < urls / 2; n += 1000) {
      const batch: FrontierItem[] = [];
      for (let i = n; i < Math.min(n + 1000, urls / 2); i++)
        batch.push(item(i, 'sitemap', 'sitemap'));
      await state.add(batch);
    }
    await state.add([item(0, null)]);
    if (await state.claimSitemaps()) {
      await state.settleSitemaps(Math.floor(urls / 2), [
        {
          url: `${ORIGIN}/sitemap.xml`,
          parent: null,
          status: 200,
          kind: 'urlset',
          entries: Math.floor(urls / 2),
          skipped: null,
          diagnostics: [],
          diagnosticsDropped: 0,
          readAt: Date.now(),
        },
      ]);
    }
    let finished: FinishedItem[] = [];
    let next = 1;
    for (;;) {
      const step = await state.step({ finished, released: [], take: 500 });
      for (const origin of step.robots) {
        const body = new TextEncoder().encode(ROBOTS);
        await state.settleRobots(origin, {
          status: 200,
          detail: null,
          url: `${origin}/robots.txt`,
          body,
          gapMs: 0,
        });
      }
      if (!step.open) break;
      finished = step.taken.map((taken) => {
        const n = numberOf(taken.url);
        const discovered: FrontierItem[] = [];
        for (let i = 0; i < LINKS_PER_PAGE; i++) {
          // Mostly links to pages known already (menus), some to new ones until N are met.
          const target =
            next < urls && i < 3 ? next++ : Math.floor(random() * Math.min(next, urls));
          if (target !== n) discovered.push(item(target, taken.url));
        }
        const disallowed = taken.url.includes('/cart/');
        const result: CrawlResultFields = disallowed
          ? {
              status: null,
              outcome: 'skipped',
              reason: 'robots-disallowed',
              lastmod: null,
              finalUrl: null,
              data: null,
            }
          : resultOf(n, random);
        return { item: taken, result, discovered, depthCut: 0, requested: !disallowed };
      });
    }
    await state.claimFinish();
    return (await state.counts()).done;
  } finally {
    await state.close();
  }
}

function numberOf(url: string): number {
  const match = /item-(\d+)$/.exec(url);
  return match === null ? 0 : Number(match[1]);
}
