import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseRobots } from '../parse-robots.ts';
import { robotsForStatus } from '../robots-for-status.ts';
import { auditRobots, type CrawlerAudit, type RobotsAudit } from './audit-robots.ts';
import { mergeCrawlerRegistries } from './crawler-registry.ts';
import { parseCrawlerRegistry } from './parse-crawler-registry.ts';

const registry = parseCrawlerRegistry(
  readFileSync(new URL('./testdata/test-crawlers.json', import.meta.url), 'utf8'),
).registry;

function audit(text: string, paths: readonly string[] = []): RobotsAudit {
  return auditRobots(parseRobots(text), { registry, paths });
}

function crawler(result: RobotsAudit, token: string): CrawlerAudit {
  const found = result.purposes.flatMap((p) => p.crawlers).find((c) => c.crawler.token === token);
  assert.ok(found, token);
  return found;
}

describe('auditRobots: decisions', () => {
  const text = [
    'User-agent: GPTBot', // 1
    'User-agent: CCBot',
    'Disallow: /',
    '',
    'User-agent: Googlebot', // 5
    'Disallow: /private/',
    '',
    'User-agent: *', // 8
    'Disallow: /admin/',
    '',
  ].join('\n');
  const result = audit(text, ['/admin/x', '/private/y']);

  test('every crawler of the registry, grouped by purpose in the standard order', () => {
    assert.deepEqual(
      result.purposes.map((p) => [p.purpose, p.crawlers.length]),
      [
        ['search', 3],
        ['ai-training', 4],
        ['ai-search', 2],
        ['ai-user-fetch', 2],
        ['ai-agent', 1],
        ['seo', 1],
        ['archive', 1],
        ['other', 1],
      ],
    );
    assert.deepEqual(result.paths, ['/', '/admin/x', '/private/y']);
    assert.equal(result.registryChecked, '2026-11-20');
  });

  test('the group and line that decided each path', () => {
    const gpt = crawler(result, 'GPTBot');
    assert.equal(gpt.matchedBy, 'token');
    assert.equal(gpt.verdict, 'blocked');
    assert.deepEqual(
      gpt.decisions.map((d) => [d.path, d.allowed, d.rule?.line, d.group?.line]),
      [
        ['/', false, 3, 1],
        ['/admin/x', false, 3, 1],
        ['/private/y', false, 3, 1],
      ],
    );
    const bing = crawler(result, 'Bingbot');
    assert.equal(bing.matchedBy, 'global');
    assert.equal(bing.matchedToken, '*');
    assert.equal(bing.verdict, 'partial');
    assert.deepEqual(
      bing.decisions.map((d) => [d.allowed, d.reason, d.rule?.line ?? null]),
      [
        [true, 'no-matching-rule', null],
        [false, 'rule', 9],
        [true, 'no-matching-rule', null],
      ],
    );
  });

  test('a fallback token decides when no group names the crawler (Googlebot-Image -> Googlebot)', () => {
    const image = crawler(result, 'Googlebot-Image');
    assert.equal(image.matchedBy, 'fallback');
    assert.equal(image.matchedToken, 'Googlebot');
    assert.deepEqual(
      image.decisions.map((d) => d.allowed),
      [true, true, false],
      '/admin/ is allowed: the Googlebot group replaces *',
    );
    const own = audit(
      'User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nAllow: /\n',
    );
    assert.equal(crawler(own, 'Googlebot-Image').matchedBy, 'token');
    assert.equal(crawler(own, 'Googlebot-Image').verdict, 'allowed');
  });

  test('per purpose: all allowed, all blocked or mixed, with counts', () => {
    const purposes = Object.fromEntries(result.purposes.map((p) => [p.purpose, p]));
    assert.equal(purposes['search']?.verdict, 'mixed');
    assert.equal(purposes['ai-training']?.verdict, 'mixed');
    const simple = audit(
      'User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nDisallow: /\n',
    );
    const training = simple.purposes.find((p) => p.purpose === 'ai-training');
    assert.deepEqual(
      [training?.verdict, training?.blocked, training?.allowed],
      ['all-blocked', 4, 0],
    );
    assert.equal(simple.purposes.find((p) => p.purpose === 'search')?.verdict, 'all-allowed');
  });

  test('no robots.txt (4xx) allows all; unreachable (5xx) blocks all, with a finding', () => {
    const missing = auditRobots(robotsForStatus(404), { registry });
    assert.ok(missing.purposes.every((p) => p.verdict === 'all-allowed'));
    assert.ok(missing.purposes.every((p) => p.crawlers.every((c) => c.matchedBy === 'none')));
    assert.deepEqual(
      missing.findings.map((f) => [f.code, f.severity]),
      [['robots-unavailable', 'info']],
    );
    const down = auditRobots(robotsForStatus(503), { registry });
    assert.ok(down.purposes.every((p) => p.verdict === 'all-blocked'));
    assert.deepEqual(
      down.findings.map((f) => [f.code, f.severity]),
      [['robots-unreachable', 'error']],
    );
  });

  test('a crawl delay is reported for the group that applies', () => {
    const delayed = audit('User-agent: Bingbot\nCrawl-delay: 4\nDisallow:\n');
    assert.equal(crawler(delayed, 'Bingbot').crawlDelay, 4);
    assert.equal(crawler(delayed, 'GPTBot').crawlDelay, null);
  });

  test('a documented token that is not a product token is decided by the line naming it', () => {
    const extra = parseCrawlerRegistry({
      checked: '2026-11-20',
      crawlers: [
        { token: 'MJ12bot', operator: 'Majestic', purpose: 'seo', honoursRobotsTxt: true },
      ],
    }).registry;
    const result = auditRobots(parseRobots('User-agent: MJ12bot\nDisallow: /\n'), {
      registry: mergeCrawlerRegistries(registry, extra),
    });
    const mj = crawler(result, 'MJ12bot');
    assert.deepEqual([mj.matchedBy, mj.verdict], ['token', 'blocked']);
    assert.deepEqual(
      result.findings.map((f) => f.code),
      ['agent-token-not-rfc'],
    );
  });
});

describe('auditRobots: findings', () => {
  // [what, robots.txt, [code, severity, line, tokens][], message part]
  const cases: [string, string, [string, string, number, string[]][], RegExp | null][] = [
    [
      'a clean file',
      'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n',
      [],
      null,
    ],
    [
      'a space instead of "-": read as a token that names nobody',
      'User-agent: ChatGPT User\nDisallow: /\n',
      [['agent-misread', 'error', 1, ['ChatGPT-User']]],
      /read as its product token "ChatGPT" .* which names no known crawler: it does not apply to ChatGPT-User/,
    ],
    [
      'a space instead of "-": read as another known crawler',
      'User-agent: Googlebot Image\nDisallow: /photos/\n',
      [['agent-misread', 'error', 1, ['Googlebot-Image', 'Googlebot']]],
      /so this group applies to Googlebot: it does not apply to Googlebot-Image/,
    ],
    [
      'a version after the token: read as the token, as Google does',
      'User-agent: GPTBot/1.0\nDisallow: /\n',
      [['agent-extra-text', 'warning', 1, ['GPTBot']]],
      /read as its product token "GPTBot" by Google and waymark, so it applies to GPTBot; parsers that compare the whole value may skip/,
    ],
    [
      'no product token at all',
      'User-agent: 42bot\nDisallow: /\n',
      [['agent-no-token', 'warning', 1, []]],
      /does not start with a product token .* match it to no crawler/,
    ],
    [
      'no product token, but surely a known crawler',
      'User-agent: .GPTBot\nDisallow: /\n',
      [['agent-no-token', 'error', 1, ['GPTBot']]],
      /is read as its product token "" .* which matches no crawler: it does not apply to GPTBot/,
    ],
    [
      'a version after a documented token that is not a product token',
      'User-agent: MJ12bot/v1.4\nDisallow: /\n',
      [],
      null,
    ],
    [
      'a sibling of a known crawler is not a misspelling',
      'User-agent: AhrefsBot-Extra\nUser-agent: GooglebotX\nDisallow: /\n',
      [['agent-near-miss', 'warning', 1, ['Googlebot']]],
      /"GooglebotX" .* looks like a misspelling of Googlebot/,
    ],
    [
      'a hyphen too many: surely a misspelling',
      'User-agent: GPT-Bot\nUser-agent: Chat-GPT-User\nDisallow: /\n',
      [
        ['agent-near-miss', 'error', 1, ['GPTBot']],
        ['agent-near-miss', 'error', 1, ['ChatGPT-User']],
      ],
      /"GPT-Bot" .* names no known crawler; it is a misspelling of GPTBot/,
    ],
    [
      'a letter missing: probably a misspelling',
      'User-agent: ClaudBot\nDisallow: /\n',
      [['agent-near-miss', 'warning', 1, ['ClaudeBot']]],
      /it looks like a misspelling of ClaudeBot/,
    ],
    [
      'an unknown crawler far from any known one',
      'User-agent: FooCrawler\nDisallow: /\n',
      [],
      null,
    ],
    [
      'a search crawler in a group with AI crawlers',
      'User-agent: GPTBot\nUser-agent: Bingbot\nDisallow: /\n',
      [['search-blocked-by-ai-rule', 'error', 3, ['Bingbot', 'GPTBot']]],
      /"Disallow: \/" blocks the search crawler Bingbot from the whole site: the group at line 1 names it together with AI crawlers \(GPTBot\)/,
    ],
    [
      'a * block next to AI groups: meant for AI, blocks search too',
      'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /\n',
      [
        [
          'search-blocked-by-ai-rule',
          'error',
          5,
          ['Googlebot', 'Googlebot-Image', 'Bingbot', 'GPTBot'],
        ],
      ],
      /in the \* group blocks the search crawlers Googlebot, Googlebot-Image and Bingbot .* looks meant for AI crawlers only/,
    ],
    [
      'a * block with no AI in sight: the site is out of search',
      'User-agent: *\nDisallow: /\n',
      [['search-blocked', 'warning', 2, ['Googlebot', 'Googlebot-Image', 'Bingbot']]],
      /will drop out of their search results/,
    ],
    [
      'a search crawler blocked by its own group: deliberate, no finding',
      'User-agent: Bingbot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n',
      [],
      null,
    ],
    [
      'a group that repeats * but misses a rule',
      'User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\nDisallow: /cart\n\nUser-agent: Bingbot\nDisallow: /admin/\nDisallow: /tmp/\nAllow: /special\n',
      [['group-misses-global-rule', 'warning', 6, ['Bingbot']]],
      /repeats 2 of the 3 rules of the \* group but not "Disallow: \/cart" \(line 4\): a group that names a crawler replaces the \* group for it/,
    ],
    [
      'a group sharing little with * is not a copy',
      'User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\nDisallow: /cart\n\nUser-agent: Bingbot\nDisallow: /admin/\nDisallow: /x\n',
      [],
      null,
    ],
    [
      'a missed rule still covered by a broader one',
      'User-agent: *\nDisallow: /admin/\nDisallow: /tmp/\n\nUser-agent: Bingbot\nDisallow: /admin/\nDisallow: /t\n',
      [],
      null,
    ],
    [
      'Crawl-delay for crawlers documented to ignore it',
      'User-agent: Googlebot\nUser-agent: Bingbot\nCrawl-delay: 10\nDisallow: /x\n',
      [['crawl-delay-ignored', 'warning', 1, ['Googlebot']]],
      /Googlebot is documented to ignore Crawl-delay/,
    ],
    [
      'Crawl-delay in the * group is for everyone',
      'User-agent: *\nCrawl-delay: 10\nDisallow: /x\n',
      [],
      null,
    ],
    [
      'a crawler documented not to obey robots.txt',
      'User-agent: Perplexity-User\nUser-agent: ChatGPT-User\nDisallow: /\n',
      [['ignores-robots-txt', 'info', 1, ['Perplexity-User']]],
      /Perplexity-User is documented not to obey robots.txt .* will not stop it/,
    ],
    [
      'a file saved as UTF-16 (a NUL beside each char): crawlers read no rule',
      [...'User-agent: *\nDisallow: /\n'].map((c) => `${c}\0`).join(''),
      [['no-rules-read', 'error', 1, []]],
      /^crawlers read no rule from this file \(it is UTF-16 text\): every crawler may fetch everything$/,
    ],
    [
      'an HTML page served as robots.txt: crawlers read no rule',
      '<!doctype html>\n<html><body>Not found</body></html>\n',
      [['no-rules-read', 'error', 1, []]],
      /\(it is an HTML or XML page\)/,
    ],
    [
      'rules before any User-agent line: crawlers read no rule',
      'Disallow: /private/\n',
      [['no-rules-read', 'error', 1, []]],
      /^crawlers read no rule from this file: every crawler may fetch everything$/,
    ],
    [
      'only comments and a Sitemap line mean no rules: no finding',
      '# nothing to block\nSitemap: https://example.com/sitemap.xml\n',
      [],
      null,
    ],
  ];
  for (const [what, text, expected, message] of cases) {
    test(what, () => {
      const { findings } = audit(text);
      assert.deepEqual(
        findings.map((f) => [f.code, f.severity, f.line, [...f.tokens]]),
        expected,
      );
      if (message !== null) assert.match(findings[0]?.message ?? '', message);
      for (const finding of findings) {
        assert.ok(finding.hint.length > 0, 'every finding says how to fix it');
        assert.equal(finding.column, 1);
      }
    });
  }

  test('a space where the token has none: read as the token a fallback names (Yandex Bot)', () => {
    const yandex = parseCrawlerRegistry({
      checked: '2026-11-20',
      crawlers: [
        { token: 'YandexBot', operator: 'Yandex', purpose: 'search', fallback: ['Yandex'] },
      ],
    }).registry;
    const { findings } = auditRobots(parseRobots('User-agent: Yandex Bot\nDisallow: /private/\n'), {
      registry: mergeCrawlerRegistries(registry, yandex),
    });
    assert.deepEqual(
      findings.map((f) => [f.code, f.severity, [...f.tokens]]),
      [['agent-extra-text', 'warning', ['YandexBot']]],
    );
    assert.match(
      findings[0]?.message ?? '',
      /read as its product token "Yandex" .*, whose group YandexBot follows only while no group names YandexBot itself/,
    );
  });

  test('the default registry is the bundled one', () => {
    const result = auditRobots(parseRobots('User-agent: ChatGPT User\nDisallow: /\n'));
    assert.ok(result.purposes.flatMap((p) => p.crawlers).length >= 60);
    assert.deepEqual(
      result.findings.map((f) => f.code),
      ['agent-misread'],
    );
  });
});

describe('auditRobots: crawlers documented to ignore the * group', () => {
  const special = parseCrawlerRegistry({
    checked: '2026-11-24',
    crawlers: [
      { token: 'AdsBot-Google', operator: 'Google', purpose: 'other', ignoresGlobalGroup: true },
      { token: 'Googlebot', operator: 'Google', purpose: 'search' },
    ],
  }).registry;
  const decide = (text: string) =>
    auditRobots(parseRobots(text), { registry: special, paths: ['/x'] })
      .purposes.flatMap((p) => p.crawlers)
      .map((c) => [c.crawler.token, c.matchedBy, c.verdict]);

  test('are not kept out by `*`, and are by a group that names them', () => {
    assert.deepEqual(decide('User-agent: *\nDisallow: /\n'), [
      ['Googlebot', 'global', 'blocked'],
      ['AdsBot-Google', 'none', 'allowed'],
    ]);
    assert.deepEqual(
      decide('User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /x\n'),
      [
        ['Googlebot', 'global', 'blocked'],
        ['AdsBot-Google', 'token', 'partial'],
      ],
    );
  });

  test('a value other than true or false is refused', () => {
    const { diagnostics } = parseCrawlerRegistry({
      checked: '2026-11-24',
      crawlers: [{ token: 'X-Bot', operator: 'X', purpose: 'other', ignoresGlobalGroup: 'yes' }],
    });
    assert.ok(
      diagnostics.some(
        (d) => d.code === 'invalid-field' && d.message.includes('ignoresGlobalGroup'),
      ),
    );
  });
});
