import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditRobots } from './agents/audit-robots.ts';
import type { CrawlerRegistry } from './agents/crawler-registry.ts';
import { formatRobots } from './format-robots.ts';
import { parseRobots } from './parse-robots.ts';

const registry: CrawlerRegistry = {
  checked: '2026-11-24',
  crawlers: [
    crawler('SearchBot', 'search'),
    crawler('TrainBot', 'ai-training'),
    crawler('AnswerBot', 'ai-search'),
  ],
};

test('formatRobots expands purposes from the registry it is given, and the audit agrees', () => {
  const text = formatRobots(
    {
      purposes: { 'ai-training': 'disallow', 'ai-search': 'allow', search: 'allow' },
      groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] }],
      sitemaps: ['https://example.com/sitemap.xml'],
    },
    { registry, comment: 'by purpose' },
  );
  assert.match(text, /^# by purpose\n/);
  assert.match(text, /User-agent: TrainBot\nDisallow: \/\n/);
  assert.match(text, /Sitemap: https:\/\/example\.com\/sitemap\.xml\n$/);
  const robots = parseRobots(text);
  const verdicts = Object.fromEntries(
    auditRobots(robots, { registry }).purposes.map((p) => [p.purpose, p.verdict]),
  );
  assert.equal(verdicts['ai-training'], 'all-blocked');
  assert.equal(verdicts['ai-search'], 'all-allowed');
  assert.equal(verdicts['search'], 'all-allowed');
  // Allowed crawlers still keep out of what `*` disallows.
  const audit = auditRobots(robots, { registry, paths: ['/admin/x'] });
  const search = audit.purposes.find((p) => p.purpose === 'search')?.crawlers[0];
  assert.deepEqual(
    search?.decisions.map((d) => [d.path, d.allowed]),
    [
      ['/', true],
      ['/admin/x', false],
    ],
  );
});

test('formatRobots without purposes writes the policy as given (the bundled registry unused)', () => {
  const plain = {
    groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow' as const, pattern: '/x' }] }],
  };
  assert.equal(formatRobots(plain), 'User-agent: *\nDisallow: /x\n');
  assert.equal(formatRobots({ ...plain, purposes: {} }), 'User-agent: *\nDisallow: /x\n');
});

function crawler(token: string, purpose: 'search' | 'ai-training' | 'ai-search') {
  return {
    token,
    operator: 'Example',
    purpose,
    description: `${token} for tests`,
    honoursRobotsTxt: true,
    honoursCrawlDelay: null,
    fetches: true,
    documentation: 'https://example.com/bots',
    verify: {},
    source: 'https://example.com/bots',
    checked: '2026-11-24',
  } as const;
}
