import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../crawl/test-support/fixture-site.ts';
import type { ReportData } from '../report/index.ts';
import { embeddedReportData } from '../report/test-support/embedded-report-data.ts';
import { runCliForTest } from './test-support/run-cli.ts';

/** The data the report page at `path` embeds. */
function embeddedData(path: string): ReportData {
  return embeddedReportData(readFileSync(path, 'utf8'));
}

const CRAWL_FLAGS = ['--rate', '0', '--max-depth', '3', '--timeout', '500ms', '--quiet'];

describe('waymark crawl --report and waymark report', () => {
  let site: FixtureSite;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-report-cli-'));
  const state = join(dir, 'state.db');
  before(async () => {
    site = await startFixtureSite();
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a crawl writes its report beside the sitemap; `report` makes the same from the state', async () => {
    const report = join(dir, 'crawl.html');
    const crawled = await runCliForTest([
      'crawl',
      site.url('/'),
      '--out',
      join(dir, 'sitemap.xml'),
      '--report',
      report,
      '--state',
      state,
      ...CRAWL_FLAGS,
    ]);
    assert.equal(crawled.code, 0, crawled.stderr);
    const fromCrawl = embeddedData(report);
    assert.equal(fromCrawl.crawl.listed, site.expectedSitemap.length);
    assert.equal(fromCrawl.generator, 'waymark 0.0.0-test');
    assert.ok(fromCrawl.crawl.durationMs !== null);

    const again = join(dir, 'again.html');
    const made = await runCliForTest(['report', state, '--out', again]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /report written: .*again\.html \([\d,]+ bytes\)/);
    const fromState = embeddedData(again);
    assert.deepEqual(fromState.pages, fromCrawl.pages);
    assert.deepEqual(fromState.robots, fromCrawl.robots);
    assert.deepEqual(fromState.sitemaps, fromCrawl.sitemaps);
    assert.equal(fromState.crawl.durationMs, null);
  });

  test('crawl status, crawl export and report only read the state: not a byte of it changes', async () => {
    const bytes = readFileSync(state);
    const files = readdirSync(dir).sort();
    for (const args of [
      ['crawl', 'status', '--state', state],
      ['crawl', 'export', '--state', state],
      ['report', state, '--out', join(dir, 'read-only.html')],
    ]) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.ok(readFileSync(state).equals(bytes), `${args[0]} ${args[1]} changed the state`);
    }
    // No side files left: only the report is new.
    assert.deepEqual(readdirSync(dir).sort(), [...files, 'read-only.html'].sort());
    rmSync(join(dir, 'read-only.html'));
  });

  test('an empty file is no crawl state, and stays empty', async () => {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    for (const args of [
      ['crawl', 'status', '--state', empty],
      ['crawl', 'export', '--state', empty],
    ]) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /the crawl state holds no crawl: .*empty\.db/);
      assert.equal(readFileSync(empty).length, 0);
    }
    assert.ok(!existsSync(`${empty}-wal`) && !existsSync(`${empty}-shm`));
  });

  test('a site that cannot be crawled still gets its report (that is when it is wanted)', async () => {
    const down = await startFixtureSite({ robotsStatus: 503 });
    try {
      const report = join(dir, 'down.html');
      const result = await runCliForTest([
        'crawl',
        down.url('/'),
        '--out',
        join(dir, 'down.xml'),
        '--report',
        report,
        ...CRAWL_FLAGS,
      ]);
      assert.equal(result.code, 3);
      const data = embeddedData(report);
      assert.match(data.crawl.unreachable ?? '', /robots\.txt answered 503/);
      assert.equal(data.robots[0]?.source, 'unreachable');
      assert.ok(!existsSync(join(dir, 'down.xml')), 'no sitemap: nothing was listed');
    } finally {
      await down.close();
    }
  });

  test('refusals: no output named, no state there, not a crawl state, a second state', async () => {
    const out = join(dir, 'never.html');
    const cases: [string[], RegExp][] = [
      [['report', state], /missing --out/],
      [['report', join(dir, 'absent.db'), '--out', out], /no crawl state at .*absent\.db/],
      [['report', state, '--state', state, '--out', out], /give the crawl state once/],
      [['report', '--out', out], /say which crawl/],
      [['report', state, '--out', join(dir, 'no-such-dir', 'r.html')], /--out: /],
    ];
    for (const [args, message] of cases) {
      const result = await runCliForTest(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.ok(!existsSync(join(dir, 'absent.db')), 'a missing state is not created');
    assert.ok(!existsSync(out));

    const notState = join(dir, 'notes.txt');
    writeFileSync(notState, 'my notes');
    const refused = await runCliForTest(['report', notState, '--out', out]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(readFileSync(notState, 'utf8'), 'my notes', 'the file is left as it was');
    assert.ok(!existsSync(out));
  });

  test('--report into a folder that does not exist is refused before any request', async () => {
    const before = site.server.requests.length;
    const result = await runCliForTest([
      'crawl',
      site.url('/'),
      '--report',
      join(dir, 'missing-dir', 'r.html'),
      ...CRAWL_FLAGS,
    ]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--report: /);
    assert.equal(site.server.requests.length, before);
  });
});
