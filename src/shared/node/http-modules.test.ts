// Importing waymark must not load Node's bundled undici (about 12 MB of resident memory) or
// TLS: an ESM import of node:http loads both (nodejs/node#59686). Each check runs in a fresh
// process, whose list of loaded internal modules tells.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const SRC = new URL('../../', import.meta.url).href;
const HEAVY = /undici|tls|https/;

/** The internal modules of `HEAVY` that a fresh process has loaded after running `body`. */
function heavyModulesAfter(body: string): string[] {
  const script = `${body}\nprocess.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => ${HEAVY}.test(m))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

test('the check sees undici and TLS when node:http is imported', () => {
  assert.ok(heavyModulesAfter("await import('node:http');").some((m) => m.includes('undici')));
});

test('importing every entry point loads neither undici nor TLS', () => {
  const entries = ['index', 'robots/index', 'sitemap/index', 'sitemap/node', 'crawl/index'];
  entries.push('http/index', 'url/index', 'navmap/index', 'site/index', 'indexnow/index');
  const imports = entries.map((e) => `await import(${JSON.stringify(`${SRC}${e}.ts`)});`);
  assert.deepEqual(heavyModulesAfter(imports.join('\n')), []);
});

test('a site served over http and a crawl of it load neither', () => {
  // The crawl makes every kind of request it makes: robots.txt, a sitemap behind a redirect,
  // pages, a feed, each over waymark's own transport.
  const body = `
    const { startSiteServer } = await import(${JSON.stringify(`${SRC}site/index.ts`)});
    const { crawl } = await import(${JSON.stringify(`${SRC}crawl/index.ts`)});
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'http-modules-'));
    writeFileSync(join(root, 'index.md'), '# Home\\n');
    const site = await startSiteServer({ root, port: 0 });
    const robots = await fetchText(site.origin + '/robots.txt');
    if (!robots.includes('Sitemap:')) throw new Error('no robots.txt from the site server');
    await site.close();
    const pages = {
      '/robots.txt': ['text/plain', 'User-agent: *\\nAllow: /\\nSitemap: ORIGIN/old-sitemap.xml\\n'],
      '/sitemap.xml': ['application/xml', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>ORIGIN/orphan</loc></url></urlset>'],
      '/': ['text/html', '<link rel="alternate" type="application/rss+xml" href="/feed.xml"><a href="/a">a</a>'],
      '/a': ['text/html', '<p>a</p>'],
      '/orphan': ['text/html', '<p>only in the sitemap</p>'],
      '/feed.xml': ['application/rss+xml', '<rss version="2.0"><channel><title>t</title></channel></rss>'],
    };
    const server = process.getBuiltinModule('node:http').createServer((req, res) => {
      if (req.url === '/old-sitemap.xml') return res.writeHead(301, { location: '/sitemap.xml' }).end();
      const page = pages[req.url];
      if (page === undefined) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': page[0] }).end(page[1].replaceAll('ORIGIN', origin));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = 'http://127.0.0.1:' + server.address().port;
    const summary = await crawl({ start: origin + '/', rate: 0, feeds: true, statePath: join(root, 'state.db') });
    server.close();
    rmSync(root, { recursive: true, force: true });
    if (summary.listed !== 3 || summary.sitemapUrls !== 1 || summary.feeds.length !== 1) {
      throw new Error('unexpected crawl: ' + JSON.stringify(summary));
    }
    async function fetchText(url) {
      const { openRequest } = await import(${JSON.stringify(`${SRC}http/internal/open-request.ts`)});
      const response = await openRequest(url, {
        fetch: undefined, timeoutMs: 10_000, maxBytes: 1e6, maxRedirects: 0,
        followRedirects: false, headers: { 'user-agent': 'test' },
      });
      let text = '';
      for await (const chunk of response.body) text += Buffer.from(chunk).toString();
      return text;
    }
  `;
  assert.deepEqual(heavyModulesAfter(body), []);
});
