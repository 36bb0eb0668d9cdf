import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import type { CrawlOptions } from '../types.ts';
import { CRAWL_DEFAULTS, WAYMARK_VERSION } from './crawl-defaults.ts';
import {
  differingOptions,
  resolveCrawlSettings,
  sharedOptionsJson,
  storedSharedOptions,
} from './crawl-settings.ts';

const START = 'https://example.com/';

test('one default user agent, with the version package.json names', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  assert.equal(WAYMARK_VERSION, pkg.version);
  assert.equal(CRAWL_DEFAULTS.userAgent, `waymark/${pkg.version} (+https://github.com/waymark)`);
  assert.equal(resolveCrawlSettings({ start: START }).shared.userAgent, CRAWL_DEFAULTS.userAgent);
});

test('the stored options are the shared ones, every default applied, in a fixed order', () => {
  const { shared } = resolveCrawlSettings({
    start: START,
    rate: 2,
    maxBytes: 1024,
    concurrency: 3,
    statePath: '/tmp/x.db',
    resume: true,
    join: false,
    fetch: globalThis.fetch,
    now: () => 0,
  });
  const stored = JSON.parse(sharedOptionsJson(shared));
  assert.equal(stored.rate, 2);
  assert.equal(stored.maxBytes, 1024);
  assert.equal(stored.maxPages, CRAWL_DEFAULTS.maxPages);
  assert.equal(stored.robotsError, 'disallow');
  assert.deepEqual(stored.include, []);
  // What only one worker decides is not stored.
  for (const own of [
    'start',
    'concurrency',
    'statePath',
    'resume',
    'join',
    'state',
    'fetch',
    'signal',
    'now',
    'sleep',
  ]) {
    assert.ok(!(own in stored), own);
  }
  // The same options give the same text, whatever order they were given in.
  const again = resolveCrawlSettings({ maxBytes: 1024, rate: 2, start: START }).shared;
  assert.equal(sharedOptionsJson(again), sharedOptionsJson(shared));
  assert.deepEqual(storedSharedOptions(sharedOptionsJson(shared), 'x'), shared);
});

test('bad options are refused before anything is opened', () => {
  const table: [CrawlOptions, RegExp][] = [
    [{}, /start is missing/],
    [{ start: START, rate: -1 }, /rate must be a finite number, 0 or more, not -1/],
    [{ start: START, maxPages: Number.NaN }, /maxPages must be a finite number/],
    [{ start: START, timeoutMs: Number.POSITIVE_INFINITY }, /timeoutMs must be a finite number/],
    // Past setTimeout's range a timer fires at once: every request would time out.
    [{ start: START, timeoutMs: 3e9 }, /timeoutMs must be .* at most 2147483647, not 3000000000/],
    [{ start: START, timeoutMs: 0 }, /timeoutMs must be a number of milliseconds above 0/],
    [{ start: START, include: [''] }, /include/],
  ];
  for (const [options, message] of table) {
    assert.throws(
      () => resolveCrawlSettings(options),
      (error) =>
        isWaymarkError(error) && error.code === 'invalid-argument' && message.test(error.message),
      JSON.stringify(options),
    );
  }
  // A worker that joins needs no start URL: the crawl has one.
  assert.equal(resolveCrawlSettings({ join: true }).start, null);
});

test('each differing option is named with its flag, the stored value and the given one', () => {
  const stored = resolveCrawlSettings({ start: START, rate: 4, include: ['/a/**'] }).shared;
  const given = resolveCrawlSettings({ start: START, rate: 2, include: ['/b/**'], maxRetries: 5 });
  assert.deepEqual(differingOptions(stored, given.shared), [
    'rate (--rate): stored 4, given 2',
    'maxRetries: stored 2, given 5',
    'include (--include): stored ["/a/**"], given ["/b/**"]',
  ]);
  // Only what was given, for a worker that joins.
  assert.deepEqual(differingOptions(stored, given.shared, ['maxRetries']), [
    'maxRetries: stored 2, given 5',
  ]);
  assert.deepEqual([...given.given].sort(), ['include', 'maxRetries', 'rate']);
});

test('stored options from another waymark: a missing one takes the default, an unknown one is refused', () => {
  assert.equal(storedSharedOptions('{"rate":1}', 'x').maxPages, CRAWL_DEFAULTS.maxPages);
  for (const [json, message] of [
    ['{"rate":1,"turbo":true}', /options this waymark does not know \(turbo\)/],
    ['{"rate":"fast"}', /unreadable rate/],
    ['[1]', /unreadable options/],
    ['not json', /unreadable options/],
  ] as const) {
    assert.throws(
      () => storedSharedOptions(json, 'crawl.db'),
      (error) => isWaymarkError(error) && message.test(error.message),
      json,
    );
  }
});
