import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CrawlResult } from '../crawl-state.ts';
import { pageData, pageDetail } from './feed-candidates.ts';

function result(outcome: CrawlResult['outcome'], reason: string | null, data: string | null) {
  const fields = { status: 200, lastmod: null, finalUrl: null, linked: true, inSitemap: false };
  return {
    url: 'https://a.test/',
    kind: 'page',
    depth: 0,
    via: null,
    outcome,
    reason,
    data,
    ...fields,
  } as const;
}

test('pageDetail reads back the detail pageData kept, and only where it may be JSON', () => {
  const feeds = ['https://a.test/feed.xml'];
  const cases: [string, CrawlResult, string | null][] = [
    [
      'a canonical, no feeds',
      result('skipped', 'canonical-elsewhere', pageData('https://a.test/b', [])),
      'https://a.test/b',
    ],
    [
      'a canonical and feeds',
      result('skipped', 'canonical-elsewhere', pageData('https://a.test/b', feeds)),
      'https://a.test/b',
    ],
    [
      'noindex naming feeds: no detail',
      result('skipped', 'noindex-meta', pageData(null, feeds)),
      null,
    ],
    [
      'a media type that looks like JSON',
      result('skipped', 'non-html', '{"detail":"x"}'),
      '{"detail":"x"}',
    ],
    ['an error message', result('error', 'timeout', 'timed out'), 'timed out'],
    ['a listed page: its data is sitemap extras', result('listed', null, '{"images":[]}'), null],
    ['nothing kept', result('skipped', 'client-error', null), null],
  ];
  for (const [name, given, detail] of cases) assert.equal(pageDetail(given), detail, name);
});
