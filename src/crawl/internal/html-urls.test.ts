// URL values to crawlable URLs, and the attribute readers beside them: one row a case.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  collapseAscii,
  feedType,
  isRobotsMetaName,
  robotsDirectives,
  tokens,
  trimAscii,
} from '../../shared/html/html-values.ts';
import { resolveUrl, type UrlOutcome } from './html-urls.ts';

const BASE = new URL('https://example.com/a/b.html?q=1#f');
const url = (href: string): UrlOutcome => ({ kind: 'url', href });
const SKIPPED: UrlOutcome = { kind: 'skipped' };
const INVALID: UrlOutcome = { kind: 'invalid' };

const RESOLVE: [value: string | undefined, fragmentOnly: 'skip' | 'keep', UrlOutcome][] = [
  ['c.html', 'skip', url('https://example.com/a/c.html')],
  ['  ../c \n', 'skip', url('https://example.com/c')],
  ['?x', 'skip', url('https://example.com/a/b.html?x')],
  ['//cdn.example/x', 'skip', url('https://cdn.example/x')],
  ['http://EXAMPLE.com:80/%7e', 'skip', url('http://example.com/%7e')],
  ['/ü?ü', 'skip', url('https://example.com/%C3%BC?%C3%BC')],
  ['c.html#top', 'skip', url('https://example.com/a/c.html#top')],
  ['#top', 'skip', SKIPPED],
  [' #', 'skip', SKIPPED],
  ['#top', 'keep', url('https://example.com/a/b.html?q=1#top')],
  ['', 'keep', SKIPPED],
  ['\t\n ', 'keep', SKIPPED],
  [undefined, 'keep', SKIPPED],
  ['\u00a0x', 'skip', url('https://example.com/a/%C2%A0x')],
  ['javascript:void(0)', 'skip', SKIPPED],
  ['  JAVASCRIPT:x', 'skip', SKIPPED],
  ['jav\tascript:x', 'skip', SKIPPED],
  ['mailto:a@example.com', 'skip', SKIPPED],
  ['tel:+1', 'skip', SKIPPED],
  ['data:,x', 'skip', SKIPPED],
  ['ftp://example.com/', 'skip', SKIPPED],
  ['file:///etc/passwd', 'skip', SKIPPED],
  ['http://exa mple.com/', 'skip', INVALID],
  ['https://[::1', 'skip', INVALID],
  ['http://example.com:65536/', 'skip', INVALID],
  ['https:', 'skip', url('https://example.com/a/b.html?q=1')],
  ['https://', 'skip', INVALID],
];

describe('resolveUrl', () => {
  for (const [value, fragmentOnly, expected] of RESOLVE) {
    test(`${JSON.stringify(value)} (${fragmentOnly})`, () => {
      assert.deepEqual(resolveUrl(value, BASE, fragmentOnly), expected);
    });
  }
});

describe('attribute values', () => {
  const ROBOTS: [content: string | undefined, noindex: boolean, nofollow: boolean][] = [
    ['noindex', true, false],
    ['nofollow', false, true],
    ['none', true, true],
    ['NoIndex,NoFollow', true, true],
    [' noindex  nofollow ', true, true],
    ['index, follow', false, false],
    ['all', false, false],
    ['noindex:false', false, false],
    ['max-snippet:0, noimageindex', false, false],
    ['', false, false],
    [undefined, false, false],
  ];
  for (const [content, noindex, nofollow] of ROBOTS) {
    test(`robots ${JSON.stringify(content)}`, () => {
      assert.deepEqual(robotsDirectives(content), { noindex, nofollow });
    });
  }

  const TABLE: [about: string, got: unknown, expected: unknown][] = [
    ['robots name', isRobotsMetaName('Robots'), true],
    ['googlebot name, padded', isRobotsMetaName('\tgooglebot '), true],
    ['other crawler', isRobotsMetaName('bingbot'), false],
    ['no name', isRobotsMetaName(undefined), false],
    ['rss', feedType('application/rss+xml'), 'rss'],
    ['atom with parameters', feedType(' Application/Atom+XML ; charset=utf-8'), 'atom'],
    ['json feed', feedType('application/feed+json'), null],
    ['no type', feedType(undefined), null],
    ['rel tokens', tokens(' Alternate\n\tNOFOLLOW '), ['alternate', 'nofollow']],
    ['empty rel', tokens('  '), []],
    ['trim ASCII only', trimAscii('\u00a0 x \n'), '\u00a0 x'],
    ['collapse', collapseAscii('\n a \t b  '), 'a b'],
    ['collapse keeps NBSP', collapseAscii('a\u00a0\u00a0b'), 'a\u00a0\u00a0b'],
  ];
  for (const [about, got, expected] of TABLE) {
    test(about, () => assert.deepEqual(got, expected));
  }
});
