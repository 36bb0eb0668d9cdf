import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import {
  formatRobots,
  parseRobots,
  type RobotsPolicy,
  robotsForStatus,
  scanRobots,
} from './index.ts';
import type { RobotsPolicyUsage } from './types.ts';

const lines = (robots: ReturnType<typeof parseRobots>, url: string, agent: string) =>
  robots.usage(url, agent).preferences.map((p) => p.line);

describe('RobotsTxt#usage', () => {
  test('the longest matching path wins, as for Allow/Disallow; a line without a path matches with length 0', () => {
    const robots = parseRobots(
      [
        'User-agent: *',
        'Content-Usage: train-ai=n',
        'Content-Usage: / train-ai=y, search=y',
        'Content-Usage: /docs/*.pdf$ train-ai=n',
        'Content-Usage: /caf\u00e9/ ai-use=n',
        'Allow: /',
      ].join('\n'),
    );
    assert.deepEqual(lines(robots, '/a', 'bot'), [3]);
    assert.deepEqual(lines(robots, '/docs/x.pdf', 'bot'), [4]);
    assert.deepEqual(lines(robots, '/docs/x.pdf?y', 'bot'), [3]);
    // Paths are percent-normalised as patterns are, and URLs are matched as given (encoded).
    assert.deepEqual(lines(robots, 'https://e.example/caf%C3%A9/menu', 'bot'), [5]);
    assert.equal(robots.groups[0]?.usage[3]?.path, '/caf%C3%A9/');
  });

  test('tied lines all apply and combine to the more restrictive value', () => {
    const robots = parseRobots(
      [
        'User-agent: *',
        'Content-Usage: /a train-ai=y, search=y',
        'Content-Usage: /a train-ai=n',
        'Content-Signal: /b use=full, search=yes',
        'Content-Signal: /b use=reference, search=no',
        'Content-Signal: ai-train=yes',
        'Disallow:',
      ].join('\n'),
    );
    const a = robots.usage('/a/x', 'bot');
    assert.deepEqual(
      a.preferences.map((p) => p.line),
      [2, 3, 6],
    );
    assert.deepEqual(a.effective, {
      'content-usage': { 'train-ai': 'n', search: 'y' },
      'content-signal': { 'ai-train': 'yes' },
    });
    assert.deepEqual(robots.usage('/b', 'bot').effective['content-signal'], {
      use: 'reference',
      search: 'no',
    });
  });

  test('no preferences for disallowed URLs, and the reason says so', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n');
    const denied = robots.usage('/private/x', 'bot');
    assert.equal(denied.allowed, false);
    assert.equal(denied.reason, 'disallowed');
    assert.deepEqual(denied.preferences, []);
    assert.deepEqual(denied.group, { userAgents: ['*'], line: 1 });
    assert.equal(robots.usage('/public', 'bot').reason, 'preferences');
  });

  test('the group that decides access is the one whose lines apply', () => {
    const robots = parseRobots(
      [
        'User-agent: *',
        'Content-Usage: train-ai=n',
        'Allow: /',
        '',
        'User-agent: GPTBot',
        'Allow: /',
        '',
        'User-agent: ClaudeBot',
        'Allow: /',
        'User-agent: claudebot',
        'Content-Signal: ai-train=no',
      ].join('\n'),
    );
    assert.deepEqual(lines(robots, '/', 'SomeBot'), [2]);
    // GPTBot has its own group, so the `*` group's line does not apply to it.
    const gpt = robots.usage('/', 'GPTBot');
    assert.equal(gpt.reason, 'no-preferences');
    assert.deepEqual(gpt.group, { userAgents: ['GPTBot'], line: 5 });
    // Groups naming the same crawler are merged, usage lines too.
    assert.deepEqual(lines(robots, '/', 'ClaudeBot'), [11]);
  });

  test('robots.txt that is unavailable or unreachable states nothing', () => {
    const unavailable = robotsForStatus(404).usage('/x', 'bot');
    assert.deepEqual([unavailable.allowed, unavailable.reason], [true, 'unavailable']);
    const unreachable = robotsForStatus(503).usage('/x', 'bot');
    assert.deepEqual([unreachable.allowed, unreachable.reason], [false, 'unreachable']);
  });

  test('usage lines never change an access decision or split a group as Google reads it', () => {
    const withUsage = parseRobots(
      'User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n',
    );
    assert.equal(withUsage.isAllowed('/x', 'a'), false, 'a and b are one group for Google');
    assert.equal(withUsage.isAllowed('/x', 'b'), false);
    assert.deepEqual(lines(withUsage, '/y', 'b'), [2]);
  });

  test('usage lines before any group are kept but apply to nobody', () => {
    const robots = parseRobots('Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n');
    assert.deepEqual(
      robots.usageOutsideGroups.map((u) => u.line),
      [1],
    );
    assert.equal(robots.usage('/', 'bot').reason, 'no-preferences');
  });

  test('scanRobots reads usage lines as their own kinds with their path', () => {
    const scanned = scanRobots(
      'Content-Usage: /a%2fb train-ai=n # note\ncontent-signal: search=yes\nContent-Usage:\n',
    );
    assert.deepEqual(
      scanned.map((l) => [l.kind, l.pattern, l.value, l.hasComment]),
      [
        ['content-usage', '/a%2Fb', '/a%2fb train-ai=n', true],
        ['content-signal', null, 'search=yes', false],
        ['content-usage', null, '', false],
        ['empty', null, '', false],
      ],
    );
  });
});

describe('formatRobots with usage lines', () => {
  test('writes them after the user-agent lines and reads back to the same policy', () => {
    const policy: RobotsPolicy = {
      groups: [
        {
          userAgents: ['*'],
          rules: [{ directive: 'allow', pattern: '/' }],
          usage: [
            { field: 'content-signal', value: 'search=yes, ai-train=no' },
            { field: 'content-usage', path: '/ai-ok/', value: 'train-ai=y' },
            { field: 'content-usage', value: 'train-ai=n, future-term=y' },
          ],
        },
      ],
      sitemaps: [],
    };
    const text = formatRobots(policy);
    assert.equal(
      text,
      'User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /ai-ok/ train-ai=y\nContent-Usage: train-ai=n, future-term=y\nAllow: /\n',
    );
    const robots = parseRobots(text);
    assert.deepEqual(robots.toPolicy(), policy);
    assert.deepEqual(
      robots.diagnostics.filter((d) => d.severity !== 'info'),
      [],
    );
  });

  test('a group with usage lines and no rules comes back with an allow-all rule', () => {
    const robots = parseRobots('User-agent: *\nContent-Usage: train-ai=n\n');
    assert.deepEqual(robots.toPolicy().groups, [
      {
        userAgents: ['*'],
        rules: [{ directive: 'disallow', pattern: '' }],
        usage: [{ field: 'content-usage', value: 'train-ai=n' }],
      },
    ]);
  });

  const refused: [string, RobotsPolicyUsage][] = [
    ['a path without a leading slash', { field: 'content-usage', path: 'a/', value: 'train-ai=n' }],
    ['a path with a space', { field: 'content-usage', path: '/a b', value: 'train-ai=n' }],
    ['a value with a #', { field: 'content-usage', value: 'train-ai=n #' }],
    ['an empty value', { field: 'content-signal', value: '' }],
    ['a value that is not a dictionary', { field: 'content-usage', value: 'Train-AI=N' }],
    ['a value the term does not take', { field: 'content-usage', value: 'train-ai=no' }],
    ['a legacy term', { field: 'content-usage', value: 'train-genai=n' }],
    ['an unknown field', { field: 'x-usage' as 'content-usage', value: 'train-ai=n' }],
    ['a line break', { field: 'content-signal', value: 'search=yes\nDisallow: /' }],
  ];
  for (const [name, usage] of refused) {
    test(`refuses ${name}`, () => {
      assert.throws(
        () =>
          formatRobots({
            groups: [
              { userAgents: ['*'], rules: [{ directive: 'allow', pattern: '/' }], usage: [usage] },
            ],
          }),
        (error) => isWaymarkError(error) && error.code === 'invalid-argument',
      );
    });
  }
});
