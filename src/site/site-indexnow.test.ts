// IndexNow from the site handler: the key file is served and reserved, and edits on disk
// reach a real IndexNow endpoint on 127.0.0.1 as the changed public URLs only.
import assert from 'node:assert/strict';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  type IndexNowEndpoint,
  startIndexNowEndpoint,
} from '../indexnow/test-support/indexnow-endpoint.ts';
import { isWaymarkError } from '../shared/waymark-error.ts';
import type { SiteIndexNowReport } from './create-site-handler.ts';
import { createSiteHandler, parseSiteConfig, startSiteServer } from './index.ts';
import type { SiteServer } from './start-site-server.ts';
import {
  type ContentRoot,
  locs,
  makeContentRoot,
  siteRequest,
} from './test-support/content-root.ts';

const KEY = '73134416ae45434d98edc086e0bf6740';
const ORIGIN = 'https://www.example.com';

const FILES: Record<string, string> = {
  'about.md': '# About\n',
  'about.md.meta.yaml': 'alias: about\n',
  'menu.md': '# Menu\n',
  'menu.md.meta.yaml': 'alias: menu\n',
  'staff.md': '# Staff only\n',
  'staff.md.meta.yaml': 'alias: staff\naccess: restricted\n',
  'quiet.md': '# Quiet\n',
  'quiet.md.meta.yaml': 'alias: quiet\nnoindex: true\n',
  'gone.md': '# Denied\n',
  'gone.md.meta.yaml': 'alias: gone\naccess: deny\n',
  '.draft.md': '# A draft: hidden files are no documents\n',
  'notes.txt': 'not Markdown: not in the sitemap\n',
};

let clock = Math.floor(Date.now() / 1000) + 1000;
/** Rewrites a file with a modification time no earlier edit had. */
function edit(root: ContentRoot, path: string, text: string): void {
  writeFileSync(root.path(path), text);
  clock += 10;
  utimesSync(root.path(path), clock, clock);
}

/** Waits for `condition`, checking every 20 ms; fails after 30 s (never a timed assertion). */
async function until(condition: () => boolean, what: () => unknown): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 30_000) assert.fail(`never happened; so far: ${JSON.stringify(what())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Site {
  readonly root: ContentRoot;
  readonly endpoint: IndexNowEndpoint;
  readonly server: SiteServer;
  readonly reports: SiteIndexNowReport[];
  /** Lets the handler see the disk now (as any request does). */
  look(): Promise<void>;
}

async function site(
  t: { after(fn: () => Promise<void> | void): void },
  indexnow: Record<string, unknown> = {},
  files: Record<string, string> = FILES,
): Promise<Site> {
  const root = makeContentRoot(files);
  const endpoint = await startIndexNowEndpoint();
  const reports: SiteIndexNowReport[] = [];
  const server = await startSiteServer({
    root: root.dir,
    port: 0,
    config: {
      origin: ORIGIN,
      indexnow: {
        key: KEY,
        endpoint: endpoint.url,
        debounceMs: 100,
        minIntervalMs: 0,
        ...indexnow,
      } as {
        key: string;
      },
    },
    onIndexNow: (report) => reports.push(report),
  });
  t.after(async () => {
    await server.close();
    await endpoint.close();
    root.remove();
  });
  return {
    root,
    endpoint,
    server,
    reports,
    look: async () => {
      await (await fetch(`${server.origin}/sitemap.xml`)).arrayBuffer();
    },
  };
}

describe('IndexNow key file', () => {
  test('served at /<key>.txt as text/plain, GET and HEAD; reserved: no document takes it', async (t) => {
    const { server } = await site(
      t,
      {},
      {
        ...FILES,
        'thief.md': '# Takes the key path\n',
        'thief.md.meta.yaml': `alias: ${KEY}.txt\n`,
      },
    );
    const response = await fetch(`${server.origin}/${KEY}.txt`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await response.text(), KEY);
    const head = await fetch(`${server.origin}/${KEY}.txt`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), String(KEY.length));
    const sitemap = locs(await (await fetch(`${server.origin}/sitemap.xml`)).text());
    assert.deepEqual(sitemap, [`${ORIGIN}/about`, `${ORIGIN}/menu`]);
    const diagnostics = await server.handler.diagnostics();
    const thief = diagnostics.find((d) => d.path === 'thief.md');
    assert.equal(thief?.code, 'alias-reserved');
    assert.match(thief?.message ?? '', /IndexNow key file/);
    const robots = await (await fetch(`${server.origin}/robots.txt`)).text();
    assert.ok(!robots.includes(KEY), robots);
  });

  test('keyLocation moves it; a handler without documents serves it too, and nothing else', async (t) => {
    const root = makeContentRoot(FILES);
    t.after(() => root.remove());
    const handler = createSiteHandler({
      root: root.dir,
      config: { origin: ORIGIN, indexnow: { key: KEY, keyLocation: `${ORIGIN}/indexnow-key.txt` } },
    });
    t.after(() => handler.close());
    const moved = await handler(siteRequest('/indexnow-key.txt'));
    assert.equal(moved.status, 200);
    assert.equal(await moved.text(), KEY);
    assert.equal((await handler(siteRequest(`/${KEY}.txt`))).status, 404);
    assert.equal((await handler(siteRequest('/other.txt'))).status, 404);
    assert.equal((await handler(siteRequest('/about'))).status, 404);
  });

  test('configuration: the key is checked, and IndexNow needs origin', async () => {
    const bad = parseSiteConfig('indexnow:\n  key: short\n');
    assert.equal(bad.diagnostics[0]?.code, 'config-invalid');
    assert.match(bad.diagnostics[0]?.message ?? '', /indexnow: key must be 8 to 128/);
    for (const yaml of [
      'indexnow: { key: 73134416ae45, endpoint: ftp://x/ }',
      'indexnow: { key: 73134416ae45, keyLocation: /dir/key.txt }',
      'indexnow: { key: 73134416ae45, debounceMs: -1 }',
      'indexnow: { key: 73134416ae45, colour: blue }',
      'indexnow: { key: 1234567890 }',
    ]) {
      assert.equal(parseSiteConfig(yaml).diagnostics[0]?.code, 'config-invalid', yaml);
    }
    const root = makeContentRoot(FILES);
    try {
      assert.throws(
        () => createSiteHandler({ root: root.dir, config: { indexnow: { key: KEY } } }),
        (error) => isWaymarkError(error) && /indexnow: needs origin/.test(error.message),
      );
      assert.throws(
        () =>
          createSiteHandler({
            root: root.dir,
            config: {
              origin: ORIGIN,
              indexnow: { key: KEY, keyLocation: 'https://elsewhere.example/k.txt' },
            },
          }),
        (error) => isWaymarkError(error) && /not on the origin/.test(error.message),
      );
      // In the root's live file: rejected whole, as any broken configuration (503 at start).
      writeFileSync(root.path('waymark.site.yaml'), `indexnow: { key: ${KEY} }\n`);
      const handler = createSiteHandler({ root: root.dir });
      try {
        assert.equal((await handler(siteRequest('/robots.txt'))).status, 503);
        const rejected = (await handler.diagnostics()).find((d) => d.code === 'config-rejected');
        assert.match(rejected?.message ?? '', /indexnow: needs origin/);
      } finally {
        await handler.close();
      }
    } finally {
      root.remove();
    }
  });
});

describe('IndexNow submissions', () => {
  test('an edited public page: exactly its URL, with host, key and keyLocation', async (t) => {
    const { root, endpoint, reports } = await site(t);
    edit(root, 'about.md', '# About us\n');
    await until(
      () => reports.length >= 1,
      () => endpoint.requests,
    );
    assert.equal(endpoint.requests.length, 1);
    const request = endpoint.requests[0];
    assert.equal(request?.method, 'POST');
    assert.deepEqual(request?.body, {
      host: 'www.example.com',
      key: KEY,
      keyLocation: `${ORIGIN}/${KEY}.txt`,
      urlList: [`${ORIGIN}/about`],
    });
    assert.deepEqual(
      { ...reports[0], endpoint: undefined },
      {
        urls: [`${ORIGIN}/about`],
        endpoint: undefined,
        ok: true,
        status: 200,
        meaning: 'OK: URL submitted successfully',
        attempts: 1,
        retrying: 0,
        retryAt: null,
        dropped: 0,
        acceptedTotal: 1,
      },
    );
  });

  test('restricted, noindex, denied, hidden and non-Markdown changes send nothing', async (t) => {
    const { root, endpoint, reports, look } = await site(t);
    edit(root, 'staff.md', '# Staff only, edited\n');
    edit(root, 'quiet.md', '# Quiet, edited\n');
    edit(root, 'gone.md', '# Denied, edited\n');
    edit(root, '.draft.md', '# Draft, edited\n');
    edit(root, 'notes.txt', 'edited\n');
    // A public page made restricted, and one made noindex: out of the sitemap, still there.
    edit(root, 'menu.md.meta.yaml', 'alias: menu\naccess: restricted\n');
    await look();
    // Had any of them been queued, it would go out with this one, in the same request.
    edit(root, 'about.md', '# About, edited\n');
    await until(
      () => reports.length >= 1,
      () => endpoint.requests,
    );
    assert.deepEqual(
      endpoint.requests.map((r) => r.urlList),
      [[`${ORIGIN}/about`]],
    );
  });

  test('removed and moved pages: their old URLs (now 404) and the new one', async (t) => {
    const { root, endpoint, reports } = await site(t);
    rmSync(root.path('menu.md'));
    edit(root, 'about.md.meta.yaml', 'alias: about-us\n');
    await until(
      () => reports.length >= 1,
      () => endpoint.requests,
    );
    assert.deepEqual([...(endpoint.requests[0]?.urlList ?? [])].sort(), [
      `${ORIGIN}/about`,
      `${ORIGIN}/about-us`,
      `${ORIGIN}/menu`,
    ]);
  });

  test('a failed submission keeps its URLs and tries again; 422 gives them up', async (t) => {
    const { root, endpoint, reports } = await site(t);
    endpoint.script([403, 200]);
    edit(root, 'about.md', '# About, again\n');
    await until(
      () => reports.length >= 2,
      () => reports,
    );
    assert.deepEqual(
      endpoint.requests.map((r) => r.urlList),
      [[`${ORIGIN}/about`], [`${ORIGIN}/about`]],
    );
    assert.equal(reports[0]?.ok, false);
    assert.equal(reports[0]?.status, 403);
    assert.equal(reports[0]?.retrying, 1);
    assert.equal(typeof reports[0]?.retryAt, 'number');
    assert.equal(reports[1]?.ok, true);
    assert.equal(reports[1]?.acceptedTotal, 1);
    endpoint.script([422]);
    edit(root, 'menu.md', '# Menu, again\n');
    await until(
      () => reports.length >= 3,
      () => reports,
    );
    assert.equal(reports[2]?.status, 422);
    assert.equal(reports[2]?.retrying, 0);
    assert.equal(reports[2]?.dropped, 1);
    edit(root, 'about.md', '# About, once more\n');
    await until(
      () => reports.length >= 4,
      () => reports,
    );
    // The given-up URL is not sent again with the next change.
    assert.deepEqual(endpoint.requests.at(-1)?.urlList, [`${ORIGIN}/about`]);
  });

  test('changes close together go out in one request', async (t) => {
    const { root, endpoint, reports } = await site(t, { debounceMs: 1500 });
    edit(root, 'about.md', '# About 2\n');
    edit(root, 'menu.md', '# Menu 2\n');
    await until(
      () => reports.length >= 1,
      () => endpoint.requests,
    );
    assert.deepEqual([...(endpoint.requests[0]?.urlList ?? [])].sort(), [
      `${ORIGIN}/about`,
      `${ORIGIN}/menu`,
    ]);
  });
});
