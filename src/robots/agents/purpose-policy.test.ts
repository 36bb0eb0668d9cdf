import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { formatRobots } from '../format-robots.ts';
import { isWritableUserAgent } from '../internal/user-agent.ts';
import { parseRobots } from '../parse-robots.ts';
import type { RobotsPolicyGroup } from '../types.ts';
import { auditRobots } from './audit-robots.ts';
import { CRAWLER_PURPOSES, type CrawlerPurpose, type CrawlerRegistry } from './crawler-registry.ts';
import { KNOWN_CRAWLERS } from './known-crawlers.ts';
import { parseCrawlerRegistry } from './parse-crawler-registry.ts';
import { expandPurposePolicy, type PurposeDecision, type PurposePolicy } from './purpose-policy.ts';

const testRegistry = parseCrawlerRegistry(
  readFileSync(new URL('./testdata/test-crawlers.json', import.meta.url), 'utf8'),
).registry;

type Purposes = Partial<Record<CrawlerPurpose, PurposeDecision>>;

/** The `*` groups the round trip is tried with. */
const STAR_GROUPS: { name: string; group: RobotsPolicyGroup | null; blocks: string[] }[] = [
  { name: 'no * group', group: null, blocks: [] },
  {
    name: '* allows all',
    group: { userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '' }] },
    blocks: [],
  },
  {
    name: '* keeps out /admin/ and *.php',
    group: {
      userAgents: ['*'],
      rules: [
        { directive: 'disallow', pattern: '/admin/' },
        { directive: 'disallow', pattern: '/*.php$' },
        { directive: 'allow', pattern: '/admin/public/' },
      ],
    },
    blocks: ['/admin/x', '/a/b.php'],
  },
  {
    name: '* blocks everything but /admin/ too (for unknown crawlers)',
    group: {
      userAgents: ['*'],
      crawlDelay: 5,
      rules: [
        { directive: 'disallow', pattern: '/' },
        { directive: 'disallow', pattern: '/admin/' },
      ],
    },
    blocks: ['/admin/x', '/admin/public/y'],
  },
];
const PROBES = ['/admin/x', '/a/b.php', '/admin/public/y', '/blog/post'];

/**
 * The round trip the contract asks for: the audit of what was written reports exactly the
 * requested decision for every crawler of each requested purpose.
 */
function checkRoundTrip(
  registry: CrawlerRegistry,
  purposes: Purposes,
  star: (typeof STAR_GROUPS)[number],
) {
  const policy: PurposePolicy = {
    purposes,
    ...(star.group === null ? {} : { groups: [star.group] }),
  };
  const text = formatRobots(expandPurposePolicy(policy, registry));
  const audit = auditRobots(parseRobots(text), { registry, paths: PROBES });
  const where = `${star.name}, ${JSON.stringify(purposes)}\n${text}`;
  for (const { crawlers } of audit.purposes) {
    for (const result of crawlers) {
      const decision = purposes[result.crawler.purpose];
      if (decision === undefined || !isWritableUserAgent(result.crawler.token)) continue;
      assert.equal(result.matchedBy, 'token', `${result.crawler.token} is named: ${where}`);
      if (decision === 'disallow') {
        assert.equal(result.verdict, 'blocked', `${result.crawler.token}: ${where}`);
        continue;
      }
      const [root, ...probes] = result.decisions;
      assert.equal(root?.allowed, true, `${result.crawler.token} may fetch /: ${where}`);
      probes.forEach((probe, i) => {
        const blocked = star.blocks.includes(PROBES[i] as string);
        assert.equal(probe.allowed, !blocked, `${result.crawler.token} ${probe.path}: ${where}`);
      });
    }
  }
  return { audit, text };
}

describe('expandPurposePolicy', () => {
  test('every allow/disallow assignment of every purpose round-trips through the audit', () => {
    for (let mask = 0; mask < 2 ** CRAWLER_PURPOSES.length; mask++) {
      const purposes: Purposes = {};
      CRAWLER_PURPOSES.forEach((purpose, bit) => {
        purposes[purpose] = mask & (1 << bit) ? 'disallow' : 'allow';
      });
      for (const star of STAR_GROUPS) checkRoundTrip(testRegistry, purposes, star);
    }
  });

  test('random partial policies over the bundled registry round-trip too', () => {
    const random = seededRandom(13);
    for (let i = 0; i < 120; i++) {
      const purposes: Purposes = {};
      for (const purpose of CRAWLER_PURPOSES) {
        const r = random();
        if (r < 0.35) purposes[purpose] = 'allow';
        else if (r < 0.7) purposes[purpose] = 'disallow';
      }
      const star = STAR_GROUPS[Math.floor(random() * STAR_GROUPS.length)] ?? STAR_GROUPS[0];
      if (star !== undefined) checkRoundTrip(KNOWN_CRAWLERS, purposes, star);
    }
  });

  test('the usual policy: one group per purpose, * last as given, no error or warning findings', () => {
    const policy = expandPurposePolicy(
      {
        purposes: { 'ai-training': 'disallow', search: 'allow' },
        groups: [{ userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] }],
        sitemaps: ['https://example.com/sitemap.xml'],
      },
      testRegistry,
    );
    assert.deepEqual(policy, {
      groups: [
        { userAgents: ['*'], rules: [{ directive: 'disallow', pattern: '/admin/' }] },
        {
          userAgents: ['Googlebot', 'Googlebot-Image', 'Bingbot'],
          rules: [{ directive: 'disallow', pattern: '/admin/' }],
        },
        {
          userAgents: ['Google-Extended', 'GPTBot', 'ClaudeBot', 'CCBot'],
          rules: [{ directive: 'disallow', pattern: '/' }],
        },
      ],
      sitemaps: ['https://example.com/sitemap.xml'],
    });
    const audit = auditRobots(parseRobots(formatRobots(policy)), { registry: testRegistry });
    assert.deepEqual(
      audit.findings.filter((f) => f.severity !== 'info'),
      [],
    );
  });

  test('control tokens (fetches: false) are written in their purpose group', () => {
    const policy = expandPurposePolicy({ purposes: { 'ai-training': 'disallow' } }, testRegistry);
    assert.ok(policy.groups[0]?.userAgents.includes('Google-Extended'));
  });

  test('explicit groups win: a token they name is left out of its purpose group', () => {
    const policy = expandPurposePolicy(
      {
        purposes: { 'ai-training': 'disallow' },
        groups: [{ userAgents: ['gptbot'], rules: [{ directive: 'allow', pattern: '/' }] }],
      },
      testRegistry,
    );
    assert.deepEqual(
      policy.groups.map((g) => g.userAgents),
      [['gptbot'], ['Google-Extended', 'ClaudeBot', 'CCBot']],
    );
    const audit = auditRobots(parseRobots(formatRobots(policy)), { registry: testRegistry });
    const gpt = audit.purposes.flatMap((p) => p.crawlers).find((c) => c.crawler.token === 'GPTBot');
    assert.equal(gpt?.verdict, 'allowed');
  });

  test("the * group's Crawl-delay is repeated except for crawlers documented to ignore it", () => {
    const policy = expandPurposePolicy(
      {
        purposes: { search: 'allow' },
        groups: [
          { userAgents: ['*'], crawlDelay: 3, rules: [{ directive: 'disallow', pattern: '' }] },
        ],
      },
      testRegistry,
    );
    assert.deepEqual(
      policy.groups.slice(1).map((g) => [g.userAgents, g.crawlDelay ?? null]),
      [
        [['Bingbot'], 3],
        [['Googlebot', 'Googlebot-Image'], null],
      ],
    );
    const audit = auditRobots(parseRobots(formatRobots(policy)), { registry: testRegistry });
    assert.deepEqual(
      audit.findings.map((f) => f.code),
      [],
    );
  });

  test('documented names that are not product tokens are written as documented; names a line cannot hold are skipped', () => {
    const registry = parseCrawlerRegistry({
      checked: '2026-11-20',
      crawlers: [
        { token: 'MJ12bot', operator: 'Majestic', purpose: 'seo' },
        { token: 'Screaming Frog SEO Spider', operator: 'Screaming Frog', purpose: 'seo' },
        { token: 'AhrefsBot', operator: 'Ahrefs', purpose: 'seo' },
      ],
    }).registry;
    const policy = expandPurposePolicy({ purposes: { seo: 'disallow' } }, registry);
    assert.deepEqual(
      policy.groups.map((g) => g.userAgents),
      [['MJ12bot', 'AhrefsBot']],
    );
    const text = formatRobots(policy);
    assert.match(text, /User-agent: MJ12bot\nUser-agent: AhrefsBot\nDisallow: \/\n/);
    // The audit takes the line naming MJ12bot whole as naming it, and finds it blocked.
    const audit = auditRobots(parseRobots(text), { registry });
    const seo = audit.purposes.find((p) => p.purpose === 'seo');
    assert.deepEqual(
      seo?.crawlers.map((c) => [c.crawler.token, c.verdict]),
      [
        ['MJ12bot', 'blocked'],
        ['Screaming Frog SEO Spider', 'allowed'],
        ['AhrefsBot', 'blocked'],
      ],
    );
  });

  test('no purposes: the policy as given', () => {
    assert.deepEqual(expandPurposePolicy({}, testRegistry), { groups: [] });
  });
});
