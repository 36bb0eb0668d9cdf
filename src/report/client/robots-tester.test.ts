import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReportRobots } from '../report-data.ts';
import {
  SAMPLE_COUNTS,
  SAMPLE_ROBOTS_TXT,
  sampleReport,
} from '../test-support/sample-report-data.ts';
import { COL } from './page-columns.ts';
import {
  flippedVerdicts,
  originalRobots,
  rowsOfOrigin,
  testedRobots,
  testerAgent,
  verdicts,
} from './robots-tester.ts';

const data = sampleReport();
const urls = data.pages.map((row) => row[COL.url]);
const site = data.robots[0] as ReportRobots;

function flips(robots: ReportRobots, text: string, agent = 'waymark') {
  const rows = rowsOfOrigin(urls, robots.origin);
  const original = originalRobots(robots);
  const baseline = verdicts(original, urls, rows, data.crawl.robotsAgent);
  return flippedVerdicts(testedRobots(robots, original, text), agent, urls, rows, baseline).map(
    (flip) => ({
      url: urls[flip.row],
      nowAllowed: flip.nowAllowed,
      rule:
        flip.rule === null
          ? null
          : `${flip.rule.directive} ${flip.rule.pattern} @${flip.rule.line}`,
      reason: flip.reason,
    }),
  );
}

test('rowsOfOrigin: the origin must end where the URL authority does', () => {
  const list = [
    'https://a.example/',
    'https://a.example',
    'https://a.example?x',
    'https://a.example.evil/',
    'http://a.example/',
    'https://a.example:8080/',
  ];
  assert.deepEqual(rowsOfOrigin(list, 'https://a.example'), [0, 1, 2]);
  assert.equal(rowsOfOrigin(urls, site.origin).length, SAMPLE_COUNTS.rows - 1);
});

test('the unchanged file and agent flip nothing', () => {
  assert.deepEqual(flips(site, SAMPLE_ROBOTS_TXT), []);
});

test('a new rule blocks exactly the URLs it matches, with its line', () => {
  const text = SAMPLE_ROBOTS_TXT.replace('User-agent: *\n', 'User-agent: *\nDisallow: /blog\n');
  assert.deepEqual(
    flips(site, text),
    SAMPLE_COUNTS.blogRows.map((url) => ({
      url,
      nowAllowed: false,
      rule: 'disallow /blog @2',
      reason: 'rule',
    })),
  );
});

test('removing a rule allows the URLs it blocked', () => {
  const text = SAMPLE_ROBOTS_TXT.replace('Disallow: /tmp\n', '');
  assert.deepEqual(flips(site, text), [
    {
      url: 'https://example.com/tmp/cache',
      nowAllowed: true,
      rule: null,
      reason: 'no-matching-rule',
    },
  ]);
});

test('another agent gets its own group', () => {
  const text = `${SAMPLE_ROBOTS_TXT}\nUser-agent: otherbot\nDisallow: /about\n`;
  assert.deepEqual(flips(site, text), []);
  assert.deepEqual(
    flips(site, text, testerAgent('OtherBot/2.1 (+https://other.example)')).map((flip) => flip.url),
    [
      'https://example.com/about',
      'https://example.com/private/data',
      'https://example.com/tmp/cache',
    ],
  );
});

test('unreachable, unavailable and allowed-unreachable files keep RFC 9309 meaning until edited', () => {
  const unreachable = data.robots[1] as ReportRobots;
  assert.equal(
    originalRobots(unreachable).isAllowed('http://static.example.com/img.png', 'waymark'),
    false,
  );
  assert.equal(
    originalRobots({ ...unreachable, unreachableAllowed: true }).isAllowed(
      'http://static.example.com/img.png',
      'waymark',
    ),
    true,
  );
  const unavailable: ReportRobots = { ...unreachable, source: 'unavailable', status: 404 };
  assert.equal(
    originalRobots(unavailable).isAllowed('http://static.example.com/img.png', 'waymark'),
    true,
  );
  // Untouched (empty) text keeps the unreachable file's verdicts: nothing flips.
  assert.deepEqual(flips(unreachable, ''), []);
  // Any typed file is read as served: the blocked URL becomes allowed.
  assert.deepEqual(flips(unreachable, 'User-agent: *\nDisallow: /private\n'), [
    {
      url: 'http://static.example.com/img.png',
      nowAllowed: true,
      rule: null,
      reason: 'no-matching-rule',
    },
  ]);
});

test('testerAgent keeps the product token only', () => {
  assert.equal(testerAgent('  Googlebot/2.1 (+http://www.google.com/bot.html)'), 'Googlebot');
  assert.equal(testerAgent('/2.1'), '');
});
