// 10,000 documents past low limits: an index and numbered parts, together listing every
// URL exactly once, each part within the limits, all valid against the official XSDs.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { utimesSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { assertValidSitemap } from '../sitemap/test-support/xsd.ts';
import { createSiteHandler, type SiteHandler } from './index.ts';
import {
  type ContentRoot,
  locs,
  makeContentRoot,
  siteRequest,
} from './test-support/content-root.ts';

const DOCS = 10_000;
const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

const LIMITS: { name: string; maxUrls?: number; maxBytes?: number }[] = [
  { name: 'maxUrls 1,000', maxUrls: 1000 },
  { name: 'maxBytes 20,000', maxBytes: 20_000 },
  { name: 'both, uneven', maxUrls: 777, maxBytes: 65_000 },
];

describe('sitemaps past the limits', () => {
  let root: ContentRoot;
  const expected: string[] = [];
  const mtimes = new Map<string, number>();
  before(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < DOCS; i++) {
      const path = `section-${i % 100}/page-${i}.md`;
      files[path] = `# Page ${i}\n`;
      // Every tenth document has an alias, so both kinds of URL are split.
      if (i % 10 === 0) files[`${path}.meta.yaml`] = `alias: pages/p${i}\n`;
      expected.push(
        i % 10 === 0 ? `https://example.com/pages/p${i}` : `https://example.com/id/${idOf(path)}`,
      );
    }
    root = makeContentRoot(files);
    for (let i = 0; i < DOCS; i += 997) {
      const path = `section-${i % 100}/page-${i}.md`;
      utimesSync(root.path(path), 1_600_000_000 + i, 1_600_000_000 + i);
      mtimes.set(
        i % 10 === 0 ? `https://example.com/pages/p${i}` : `https://example.com/id/${idOf(path)}`,
        i,
      );
    }
    expected.sort();
  });
  after(() => root.remove());

  for (const limit of LIMITS) {
    describe(limit.name, () => {
      let handler: SiteHandler;
      before(() => {
        handler = createSiteHandler({
          root: root.dir,
          config: {
            ...(limit.maxUrls === undefined ? {} : { maxUrls: limit.maxUrls }),
            ...(limit.maxBytes === undefined ? {} : { maxBytes: limit.maxBytes }),
          },
        });
      });
      after(() => handler.close());

      test('the index lists parts that hold every URL once, within the limits', async () => {
        const index = await (await handler(siteRequest('/sitemap_index.xml'))).text();
        const sitemap = await (await handler(siteRequest('/sitemap.xml'))).text();
        assert.equal(sitemap, index, '/sitemap.xml answers with the index');
        const partUrls = locs(index);
        assert.ok(partUrls.length > 1);
        partUrls.forEach((url, i) => {
          assert.equal(
            url,
            `https://example.com/sitemaps/sitemap-${String(i + 1).padStart(4, '0')}.xml`,
          );
        });
        const all: string[] = [];
        for (const url of partUrls) {
          const response = await handler(siteRequest(new URL(url).pathname));
          assert.equal(response.status, 200);
          const bytes = new Uint8Array(await response.arrayBuffer());
          assert.equal(response.headers.get('content-length'), String(bytes.byteLength));
          if (limit.maxBytes !== undefined)
            assert.ok(bytes.byteLength <= limit.maxBytes, `${url}: ${bytes.byteLength} bytes`);
          const part = locs(new TextDecoder().decode(bytes));
          if (limit.maxUrls !== undefined)
            assert.ok(part.length <= limit.maxUrls, `${url}: ${part.length} URLs`);
          all.push(...part);
        }
        assert.deepEqual(all, expected);
        const past = `/sitemaps/sitemap-${String(partUrls.length + 1).padStart(4, '0')}.xml`;
        assert.equal((await handler(siteRequest(past))).status, 404);
        // One name per part: no zero part, no other spelling of a number.
        for (const other of ['0000', '00001', '1', '0001x']) {
          const response = await handler(siteRequest(`/sitemaps/sitemap-${other}.xml`));
          assert.equal(response.status, 404, other);
        }
      });

      test('HEAD of the index and of a part: the headers of GET, no body', async () => {
        for (const path of ['/sitemap.xml', '/sitemap_index.xml', '/sitemaps/sitemap-0002.xml']) {
          const get = await handler(siteRequest(path));
          const bytes = (await get.arrayBuffer()).byteLength;
          const head = await handler(siteRequest(path, { method: 'HEAD' }));
          assert.equal(head.status, 200, path);
          assert.equal(head.body, null, path);
          // (Last-Modified moves on once the second of the build is over: not compared.)
          for (const name of ['content-length', 'content-type', 'etag'])
            assert.equal(head.headers.get(name), get.headers.get(name), `${path} ${name}`);
          assert.equal(head.headers.get('content-length'), String(bytes), path);
        }
      });

      test('robots.txt names the index', async () => {
        const robots = await (await handler(siteRequest('/robots.txt'))).text();
        assert.match(robots, /\nSitemap: https:\/\/example\.com\/sitemap_index\.xml\n$/);
      });

      test('the index and its parts validate against the official XSDs', async (t) => {
        const index = await (await handler(siteRequest('/sitemap_index.xml'))).text();
        await assertValidSitemap(t, index, 'index');
        const parts = locs(index);
        for (const url of [parts[0], parts.at(-1)]) {
          const xml = await (await handler(siteRequest(new URL(url ?? '').pathname))).text();
          await assertValidSitemap(t, xml, 'urlset');
        }
      });

      test("an index entry's lastmod is the newest in its part", async () => {
        const index = await (await handler(siteRequest('/sitemap_index.xml'))).text();
        const entries = [...index.matchAll(/<loc>([^<]*)<\/loc><lastmod>([^<]*)<\/lastmod>/g)];
        for (const [, loc = '', lastmod = ''] of entries) {
          const xml = await (await handler(siteRequest(new URL(loc).pathname))).text();
          const newest = [...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)]
            .map((m) => m[1] ?? '')
            .sort()
            .at(-1);
          assert.equal(lastmod, newest, loc);
        }
        assert.ok(mtimes.size > 5);
      });
    });
  }
});
