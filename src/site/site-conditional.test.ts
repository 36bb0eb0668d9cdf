// ETag, Last-Modified and conditional requests for robots.txt and the sitemaps, with the
// handler's clock driven by the test: Last-Modified never runs ahead of the clock, and no
// validator sent before a change ever gets a 304 after it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createSiteHandler, type SiteHandler } from './index.ts';
import {
  type ContentRoot,
  locs,
  makeContentRoot,
  siteRequest,
} from './test-support/content-root.ts';

const START = Date.parse('2030-01-01T00:00:00.250Z');
const PATHS = ['/robots.txt', '/sitemap.xml'];

interface Setup {
  readonly root: ContentRoot;
  readonly handler: SiteHandler;
  /** Sets the handler's clock, epoch ms. */
  at(ms: number): void;
}

async function withSite(run: (site: Setup) => Promise<void>): Promise<void> {
  const root = makeContentRoot({ 'a.md': '# A\n' });
  let clock = START;
  const handler = createSiteHandler({ root: root.dir, now: () => clock });
  try {
    await run({
      root,
      handler,
      at: (ms) => {
        clock = ms;
      },
    });
  } finally {
    await handler.close();
    root.remove();
  }
}

async function get(handler: SiteHandler, path: string, headers: Record<string, string> = {}) {
  return handler(siteRequest(path, { headers }));
}

describe('conditional requests', () => {
  test('If-None-Match: the tag, its weak form, a list holding it and * give 304', async () => {
    await withSite(async ({ handler }) => {
      for (const path of PATHS) {
        const first = await get(handler, path);
        const etag = first.headers.get('etag') ?? '';
        assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
        const CASES: [ifNoneMatch: string, status: number][] = [
          [etag, 304],
          [`W/${etag}`, 304],
          [`"x", ${etag}`, 304],
          [`"x",${etag} , "y"`, 304],
          ['*', 304],
          ['"other"', 200],
          ['"x", "y"', 200],
          [etag.slice(0, -1), 200],
        ];
        for (const [ifNoneMatch, status] of CASES) {
          for (const method of ['GET', 'HEAD']) {
            const response = await handler(
              siteRequest(path, { method, headers: { 'if-none-match': ifNoneMatch } }),
            );
            assert.equal(
              response.status,
              status,
              `${method} ${path} If-None-Match: ${ifNoneMatch}`,
            );
            if (status === 304) {
              assert.equal(await response.text(), '');
              assert.equal(response.headers.get('etag'), etag);
              assert.equal(
                response.headers.get('last-modified'),
                first.headers.get('last-modified'),
              );
            }
          }
        }
        // If-None-Match decides when present, even against a valid If-Modified-Since.
        const both = await get(handler, path, {
          'if-none-match': '"other"',
          'if-modified-since': new Date(START + 86_400_000).toUTCString(),
        });
        assert.equal(both.status, 200);
        const elsewhere = await handler(siteRequest(path, { origin: 'https://other.example' }));
        assert.notEqual(elsewhere.headers.get('etag'), etag, 'another host is another document');
      }
    });
  });

  test('Last-Modified: the build second while it lasts, then the next one; never ahead', async () => {
    await withSite(async ({ handler, at }) => {
      for (const path of PATHS) {
        at(START);
        const during = await get(handler, path);
        const lm = Date.parse(during.headers.get('last-modified') ?? '');
        assert.equal(lm, Date.parse('2030-01-01T00:00:00Z'));
        // Another change could still fall in this second: its date proves nothing yet.
        assert.equal(
          (await get(handler, path, { 'if-modified-since': new Date(lm).toUTCString() })).status,
          200,
        );
        at(START + 5000);
        const later = await get(handler, path);
        const settled = Date.parse(later.headers.get('last-modified') ?? '');
        assert.equal(settled, Date.parse('2030-01-01T00:00:01Z'));
        const since = later.headers.get('last-modified') ?? '';
        assert.equal((await get(handler, path, { 'if-modified-since': since })).status, 304);
        const head = await handler(
          siteRequest(path, { method: 'HEAD', headers: { 'if-modified-since': since } }),
        );
        assert.equal(head.status, 304);
        assert.equal((await get(handler, path, { 'if-modified-since': 'not a date' })).status, 200);
        // Later than the clock: invalid, so a change is never hidden behind it.
        const future = new Date(START + 86_400_000 * 365).toUTCString();
        assert.equal((await get(handler, path, { 'if-modified-since': future })).status, 200);
      }
    });
  });

  test('rapid changes: Last-Modified never passes the clock, and no old validator gets 304', async () => {
    await withSite(async ({ root, handler, at }) => {
      const seen: { etag: string; lastModified: string; path: string }[] = [];
      let clock = START;
      for (let i = 0; i < 12; i++) {
        // Several changes within one second, then a step past it.
        clock += i % 4 === 3 ? 1500 : 100;
        at(clock);
        writeFileSync(root.path(`b-${i}.md`), '# B\n');
        for (const path of PATHS) {
          for (const old of seen.filter((s) => s.path === path)) {
            const byTag = await get(handler, path, { 'if-none-match': old.etag });
            assert.equal(byTag.status, 200, `change ${i}: old ETag of ${path}`);
            const byDate = await get(handler, path, { 'if-modified-since': old.lastModified });
            assert.equal(byDate.status, 200, `change ${i}: old Last-Modified ${old.lastModified}`);
          }
          const response = await get(handler, path);
          const lastModified = response.headers.get('last-modified') ?? '';
          assert.ok(Date.parse(lastModified) <= clock, `${lastModified} is ahead of the clock`);
          seen.push({ path, etag: response.headers.get('etag') ?? '', lastModified });
          if (path === '/sitemap.xml') assert.equal(locs(await response.text()).length, i + 2);
        }
      }
    });
  });
});
