// The crawl summary warns about the lastmod values of the site's own sitemaps, in its text
// and in its JSON (--json-log), with the same checks as `sitemap validate`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CrawlSummary } from '../crawl/index.ts';
import { type Route, startTestServer, type TestServer } from '../http/test-support/test-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';

const PAGE_MODIFIED = 'Tue, 02 Jun 2025 10:00:00 GMT';

/** Path, lastmod in the sitemap (null: none); each page links to every other. */
const PAGES: [string, (() => string) | string | null][] = [
  ['/', '2999-01-01T00:00:00Z'],
  // The sitemap writes "now" for this one.
  ['/now', () => new Date().toISOString()],
  ['/day', '2025-03-01'],
  // Older than the page's own Last-Modified (PAGE_MODIFIED).
  ['/old', '2025-06-01T10:00:00Z'],
  ['/none', null],
];

describe('waymark crawl: lastmod findings in the summary', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-lastmod-'));
  before(async () => {
    const links = PAGES.map(([path]) => `<a href="${path}">${path}</a>`).join('');
    const routes: Record<string, Route> = {
      '/robots.txt': (_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`User-agent: *\nAllow: /\nSitemap: ${server.url('/sitemap.xml')}\n`);
      },
      '/sitemap.xml': (_, res) => {
        const urls = PAGES.map(([path, lastmod]) => {
          const value = typeof lastmod === 'function' ? lastmod() : lastmod;
          return `<url><loc>${server.url(path)}</loc>${value === null ? '' : `<lastmod>${value}</lastmod>`}</url>`;
        });
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
        );
      },
    };
    for (const [path] of PAGES) {
      routes[path] = (_, res) => {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          ...(path === '/old' ? { 'last-modified': PAGE_MODIFIED } : {}),
        });
        res.end(`<!doctype html><title>${path}</title>${links}`);
      };
    }
    server = await startTestServer(routes);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const crawlArgs = (out: string) => [
    'crawl',
    server.url('/'),
    '--out',
    join(dir, out),
    '--rate',
    '0',
    '--timeout',
    '2s',
  ];

  test('the text summary names each finding with examples', async () => {
    const result = await runCliForTest(crawlArgs('text.xml'));
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.split('\n');
    const findings = lines.filter((line) => line.startsWith('lastmod '));
    assert.deepEqual(
      findings.map((line) => /^lastmod (\w+): .*\[([a-z-]+)\]$/.exec(line)?.slice(1).join(' ')),
      [
        'warning lastmod-future',
        'warning lastmod-older-than-page',
        'info lastmod-generation-time',
        'info lastmod-date-only',
      ],
    );
    const future = lines.indexOf(findings[0] as string);
    assert.equal(lines[future + 1], `    ${server.url('/')} (2999-01-01T00:00:00Z)`);
  });

  test('--json-log: the summary carries the findings', async () => {
    const result = await runCliForTest([...crawlArgs('json.xml'), '--json-log']);
    assert.equal(result.code, 0, result.stderr);
    const done = result.stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; summary?: CrawlSummary })
      .find((record) => record.type === 'done');
    const sanity = done?.summary?.lastmodSanity;
    assert.ok(sanity, 'the summary has lastmodSanity');
    // Only the URLs whose sitemap entry has a lastmod are checked.
    assert.equal(sanity.withLastmod, PAGES.length - 1);
    assert.deepEqual(
      sanity.findings.map((f) => [f.code, f.severity, f.count, f.examples.map((e) => e.loc)]),
      [
        ['lastmod-future', 'warning', 1, [server.url('/')]],
        ['lastmod-older-than-page', 'warning', 1, [server.url('/old')]],
        ['lastmod-generation-time', 'info', 1, [server.url('/now')]],
        ['lastmod-date-only', 'info', 1, [server.url('/day')]],
      ],
    );
  });
});
