import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CrawlEvent, CrawlSummary } from '../crawl/index.ts';
import { type FixtureSite, startFixtureSite } from '../crawl/test-support/fixture-site.ts';
import { createSiteHandler } from '../site/index.ts';
import { readSitemap } from '../sitemap/index.ts';
import { CrawlProgress, type ProgressMode } from './internal/crawl-progress.ts';
import type { CliIo } from './io.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const EXAMPLE_ROOT = fileURLToPath(new URL('../../examples/content/', import.meta.url));

describe('waymark crawl', () => {
  let site: FixtureSite;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-'));
  before(async () => {
    site = await startFixtureSite();
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('--out writes the sitemap atomically and prints a summary', async () => {
    const out = join(dir, 'sitemap.xml');
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--out',
      out,
      '--rate',
      '0',
      '--max-depth',
      '3',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const xml = readFileSync(out, 'utf8');
    for (const url of site.expectedSitemap) assert.ok(xml.includes(`<loc>${url}</loc>`), url);
    assert.equal(xml.match(/<loc>/g)?.length, site.expectedSitemap.length);
    assert.match(result.stderr, /11 listed in the sitemap/);
    assert.match(result.stderr, /left out:\n(.*\n)*\s+2 {2}robots-disallowed/);
  });

  test('--format text to standard output; --exclude and --max-pages', async () => {
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--format',
      'text',
      '--rate',
      '0',
      '--quiet',
      '--no-sitemaps',
      '--exclude',
      '/calendar/**',
      '--exclude',
      '/blog/**',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0);
    assert.equal(result.stderr, '');
    const urls = result.stdout.trim().split('\n');
    assert.ok(urls.includes(site.url('/about')));
    assert.ok(!urls.some((u) => u.includes('/calendar/') || u.includes('/blog/')));
    assert.ok(!urls.includes(site.url('/orphan')), 'no sitemaps read, so the orphan is not found');
  });

  test('--out-dir writes sitemap.xml through the sitemap writer', async () => {
    const out = join(dir, 'site');
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--out-dir',
      out,
      '--rate',
      '0',
      '--quiet',
      '--max-depth',
      '1',
      '--timeout',
      '500ms',
    ]);
    assert.equal(result.code, 0);
    assert.ok(existsSync(join(out, 'sitemap.xml')));
  });

  test('usage errors', async () => {
    for (const args of [
      ['crawl'],
      ['crawl', 'ftp://example.com/'],
      ['crawl', site.url('/'), '--format', 'csv'],
      ['crawl', site.url('/'), '--rate', 'fast'],
      ['crawl', site.url('/'), '--timeout', 'soon'],
      ['crawl', site.url('/'), '--resume'],
      ['crawl', site.url('/'), '--out', 'a', '--out-dir', 'b'],
      // Refused before any connection: nothing listens on port 1.
      ...['0s', '1441m'].map((timeout) => [
        'crawl',
        site.url('/'),
        ...['--state', 'postgres://127.0.0.1:1/crawls', '--crawl', 'c'],
        ...['--worker-timeout', timeout],
      ]),
    ]) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1);
    }
  });
});

/** A CliIo whose stderr writes are collected in `written` (progress writes nowhere else). */
function stderrInto(written: string[], stderrIsTTY: boolean): CliIo {
  return {
    stdout: () => assert.fail('progress writes to stderr only'),
    stderr: (text) => {
      written.push(text);
    },
    openFile: () => assert.fail('not used'),
    env: {},
    stderrIsTTY,
    version: '0.0.0-test',
  };
}

describe('crawl progress', () => {
  const T0 = 1_700_000_000_000;
  const SUMMARY: CrawlSummary = {
    fetched: 4,
    listed: 2,
    skipped: { 'client-error': 1 },
    errors: 1,
    sitemapUrls: 0,
    durationMs: 6000,
    rate: 0.7,
    stoppedBy: null,
    truncated: null,
    unreachable: null,
    sitemapComparison: null,
    lastmodSanity: null,
    feeds: [],
  };
  /** Events at times after the start (ms), as a crawl reports them. */
  const EVENTS: [number, CrawlEvent][] = [
    [0, { type: 'fetched', url: 'http://s.test/', status: 200, listed: true, links: 2 }],
    [100, { type: 'fetched', url: 'http://s.test/a', status: 200, listed: true, links: 0 }],
    [
      250,
      {
        type: 'skipped',
        url: 'http://s.test/b',
        reason: 'client-error',
        status: 404,
        detail: null,
      },
    ],
    [300, { type: 'warning', message: 'slow site' }],
    [6000, { type: 'error', url: 'http://s.test/c', message: 'timed out' }],
  ];
  const CLEAR = '\r\x1b[K';
  const status = (done: number, listed: number, left: number, errors: number, ms: number) =>
    `${done} done, ${listed} listed, ${left} left out, ${errors} errors, ${(done / Math.max(ms / 1000, 0.001)).toFixed(1)} pages/s, ${(ms / 1000).toFixed(0)}s`;
  const summaryText =
    '4 pages fetched in 6.0 s (0.7 pages/s)\n2 listed in the sitemap: out.xml\nleft out:\n       1  client-error\n1 errors (timeouts, network, size)\n';

  const cases: { mode: ProgressMode; writes: string[] }[] = [
    {
      // A terminal: the status line is redrawn in place at most every 200 ms; other lines
      // clear it first and end with a newline, and the summary clears it for good.
      mode: 'tty',
      writes: [
        `${CLEAR}${status(1, 1, 0, 0, 0)}`,
        `${CLEAR}${status(3, 2, 1, 0, 250)}`,
        `${CLEAR}warning: slow site\n`,
        `${CLEAR}error: http://s.test/c: timed out\n`,
        `${CLEAR}${status(4, 2, 1, 1, 6000)}`,
        CLEAR,
        summaryText,
      ],
    },
    {
      // A log: whole lines, the status at most every 5 s.
      mode: 'log',
      writes: [
        `${status(1, 1, 0, 0, 0)}\n`,
        'warning: slow site\n',
        'error: http://s.test/c: timed out\n',
        `${status(4, 2, 1, 1, 6000)}\n`,
        summaryText,
      ],
    },
  ];

  for (const { mode, writes } of cases) {
    test(`${mode}: the status line follows the clock`, () => {
      const written: string[] = [];
      let now = T0;
      const progress = new CrawlProgress(stderrInto(written, mode === 'tty'), mode, false, {
        now: () => now,
      });
      for (const [at, event] of EVENTS) {
        now = T0 + at;
        progress.event(event);
      }
      progress.summary(SUMMARY, 'out.xml');
      assert.deepEqual(written, writes);
    });
  }

  // What a site puts in a message reaches the terminal escaped: no ESC, C1 CSI or bidi control.
  const HOSTILE = 'bad\x1b[2J\u009b31m\u202eevil';
  for (const [mode, expected] of [
    ['log', 'warning: bad\\x1b[2J\\x9b31m\\u202eevil\n'],
    ['json', '{"type":"warning","message":"bad\\u001b[2J\\u009b31m\\u202eevil"}\n'],
  ] as const) {
    test(`${mode}: control characters from the site are escaped`, () => {
      const written: string[] = [];
      const progress = new CrawlProgress(stderrInto(written, false), mode, false, {
        now: () => T0,
      });
      progress.event({ type: 'warning', message: HOSTILE });
      assert.equal(written[0], expected);
    });
  }
});

describe('waymark crawl --serve', () => {
  test('crawls a served content root and finds exactly the URLs its sitemap lists', async () => {
    // What the live handler lists for the same root, by path (the port differs per run).
    const site = createSiteHandler({ root: EXAMPLE_ROOT });
    let listed: string[];
    try {
      const response = await site(new Request('http://127.0.0.1/sitemap.xml'));
      const { entries } = await readSitemap(await response.text());
      listed = entries.map((entry) => `${new URL(entry.loc).pathname} ${entry.lastmod}`).sort();
    } finally {
      await site.close();
    }
    assert.ok(listed.length >= 3, 'the example root lists pages');

    const result = await runCliForTest([
      'crawl',
      '--serve',
      EXAMPLE_ROOT,
      '--format',
      'json',
      '-q',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const found = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { loc: string; lastmod?: string });
    assert.ok(
      found.every((entry) => entry.loc.startsWith('http://127.0.0.1:')),
      result.stdout,
    );
    // The same pages with the same lastmod: the crawler reads the pages' Last-Modified.
    assert.deepEqual(
      found.map((entry) => `${new URL(entry.loc).pathname} ${entry.lastmod}`).sort(),
      listed,
    );
  });

  test('takes no URL beside it, and refuses a root that is not there', async () => {
    const both = await runCliForTest(['crawl', '--serve', EXAMPLE_ROOT, 'https://example.com/']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--serve crawls the served root: give no URL with it/);
    const missing = await runCliForTest(['crawl', '--serve', join(tmpdir(), 'no-such-root-here')]);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /no-such-root-here/);
  });
});
