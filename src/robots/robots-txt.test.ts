import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseRobots, RobotsTxt, robotsForStatus } from './index.ts';

interface ExplainCase {
  name: string;
  robotstxt: string;
  checks: {
    url: string;
    agent: string;
    allowed: boolean;
    reason: string;
    ruleLine: number | null;
    groupLine: number | null;
  }[];
}

describe('explain', () => {
  const { cases } = JSON.parse(
    readFileSync(new URL('./testdata/explain.json', import.meta.url), 'utf8'),
  ) as { cases: ExplainCase[] };
  for (const c of cases) {
    test(c.name, () => {
      const robots = parseRobots(c.robotstxt);
      for (const check of c.checks) {
        const why = robots.explain(check.url, check.agent);
        const label = `${check.agent} ${check.url}`;
        assert.equal(why.allowed, check.allowed, label);
        assert.equal(robots.isAllowed(check.url, check.agent), check.allowed, label);
        assert.equal(why.reason, check.reason, label);
        assert.equal(why.rule?.line ?? null, check.ruleLine, label);
        assert.equal(why.group?.line ?? null, check.groupLine, label);
        assert.equal(why.userAgent, check.agent);
      }
    });
  }

  test('reports the deciding rule as written in the file, normalised', () => {
    const why = parseRobots('User-agent: *\nDisallow: /caf%c3%a9\n').explain('/caf%C3%A9', 'x');
    assert.deepEqual(why.rule, { directive: 'disallow', pattern: '/caf%C3%A9', line: 2 });
    assert.deepEqual(why.group, { userAgents: ['*'], line: 1 });
    assert.equal(why.path, '/caf%C3%A9');
  });
});

describe('crawlDelay', () => {
  const robots = parseRobots(
    'User-agent: *\nCrawl-delay: 10\nDisallow: /x\n\nUser-agent: slowbot\nCrawl-delay: 0.5\nDisallow:\n\nUser-agent: fastbot\nDisallow:\n',
  );
  test('from the agent’s own group', () => assert.equal(robots.crawlDelay('SlowBot'), 0.5));
  test('from the * group when no group names the agent', () => {
    assert.equal(robots.crawlDelay('otherbot'), 10);
  });
  test('null when the agent’s group has none, even if * has one', () => {
    assert.equal(robots.crawlDelay('fastbot'), null);
  });
});

describe('robotsForStatus (RFC 9309 2.3.1)', () => {
  const body = 'User-agent: *\nDisallow: /private\n';
  const table: [status: number | 'network-error', source: string, allowsPage: boolean][] = [
    [200, 'file', true],
    [204, 'file', true],
    [301, 'unavailable', true],
    [401, 'unavailable', true],
    [403, 'unavailable', true],
    [404, 'unavailable', true],
    [410, 'unavailable', true],
    [429, 'unreachable', false],
    [500, 'unreachable', false],
    [503, 'unreachable', false],
    [100, 'unreachable', false],
    ['network-error', 'unreachable', false],
  ];
  for (const [status, source, allowsPage] of table) {
    test(`${status} is ${source}`, () => {
      const robots = robotsForStatus(status, body);
      assert.equal(robots.source, source);
      assert.equal(robots.isAllowed('https://example.com/page', 'bot'), allowsPage);
      assert.equal(robots.explain('https://example.com/page', 'bot').allowed, allowsPage);
      if (source === 'file') {
        assert.equal(robots.isAllowed('https://example.com/private', 'bot'), false);
      } else {
        assert.equal(robots.explain('/page', 'bot').reason, source);
        assert.equal(robots.diagnostics[0]?.code, `robots-${source}`);
      }
    });
  }
  test('an unreachable robots.txt still allows fetching /robots.txt again', () => {
    const robots = robotsForStatus(503);
    assert.equal(robots.isAllowed('https://example.com/robots.txt', 'bot'), true);
    assert.equal(robots.explain('https://example.com/robots.txt', 'bot').reason, 'robots-txt');
  });
  test('a parsed file follows Google: Disallow: / covers /robots.txt', () => {
    assert.equal(
      robotsForStatus(200, 'User-agent: *\nDisallow: /\n').isAllowed('/robots.txt', 'bot'),
      false,
    );
  });
});

describe('result shape', () => {
  // `groups` is made on first read from the parser's compact rule store: it must still look
  // like the plain data field it was to Object.keys, spreading, JSON and deep equality.
  const text =
    'User-agent: a\nUser-agent: *\nDisallow: /x\nAllow: /caf%c3%a9\nSitemap: https://a.example/s.xml\n';

  test('own enumerable keys, in field order', () => {
    assert.deepEqual(Object.keys(parseRobots(text)), [
      'groups',
      'usageOutsideGroups',
      'sitemaps',
      'diagnostics',
      'source',
    ]);
    assert.deepEqual(Object.keys(robotsForStatus(404)), Object.keys(parseRobots(text)));
  });

  test('groups are plain data, the same objects on every read', () => {
    const robots = parseRobots(text);
    // Checks before the first read of groups, so that they run on the compact store.
    assert.equal(robots.isAllowed('/x', 'a'), false);
    const why = robots.explain('/caf%C3%A9', 'b');
    assert.equal(robots.groups, robots.groups);
    assert.equal(why.rule, robots.groups[0]?.rules[1]);
    assert.deepEqual(JSON.parse(JSON.stringify(robots)).groups, [
      {
        userAgents: ['a', '*'],
        rules: [
          { directive: 'disallow', pattern: '/x', line: 3 },
          { directive: 'allow', pattern: '/caf%C3%A9', line: 4 },
        ],
        crawlDelay: null,
        usage: [],
        line: 1,
      },
    ]);
    assert.deepEqual({ ...robots }.groups, robots.groups);
    assert.deepEqual(robotsForStatus(500).groups, []);
  });

  test('a RobotsTxt made from group objects decides as the parsed one', () => {
    const parsed = parseRobots(`${text}User-agent: b\nAllow: /x/index.html\nDisallow: /*.php$\n`);
    const groups = parsed.groups;
    const made = new RobotsTxt({ groups, sitemaps: [], diagnostics: [], source: 'file' });
    assert.equal(made.groups, groups);
    for (const url of ['/x', '/x/', '/x/a.php', '/caf%C3%A9', '/y']) {
      for (const agent of ['a', 'b', 'c']) {
        assert.deepEqual(made.explain(url, agent), parsed.explain(url, agent), `${agent} ${url}`);
        assert.equal(made.isAllowed(url, agent), parsed.isAllowed(url, agent));
      }
    }
  });
});
