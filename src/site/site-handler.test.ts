import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { assertValidSitemap } from '../sitemap/test-support/xsd.ts';
import { createSiteHandler, type SiteConfig, type SiteHandler } from './index.ts';
import {
  type ContentRoot,
  locs,
  makeContentRoot,
  siteRequest,
} from './test-support/content-root.ts';

const idOf = (path: string): string => createHash('sha256').update(path).digest('hex').slice(0, 16);

/** A root with one document of every kind the rules name. */
const FILES: Record<string, string> = {
  'team.md': '# Team\n\nSee [plain](plain.md), [secret](restricted.md) and [denied](denied.md).\n',
  'team.md.meta.yaml': 'alias: about/team\ntitle: The team\n',
  'plain.md': '# Plain page\n',
  'restricted.md': '# TOPSECRET-R\n',
  'restricted.md.meta.yaml':
    'alias: staff/restricted-doc\naccess: restricted\nroles: [staff]\ntitle: TOPSECRET-R\n',
  'denied.md': '# TOPSECRET-D\n',
  'denied.md.meta.yaml': 'id: dead0001\nalias: denied-doc\naccess: deny\n',
  'quiet.md': '# Quiet\n',
  'quiet.md.meta.yaml': 'alias: quiet\nnoindex: true\n',
  'notes.txt': 'not Markdown\n',
  'reserved-alias.md': '# R\n',
  'reserved-alias.md.meta.yaml': 'alias: api/users\n',
  'traversal.md': '# T\n',
  'traversal.md.meta.yaml': 'alias: ../up\n',
  'collide-a.md': '# A\n',
  'collide-a.md.meta.yaml': 'alias: same\n',
  'collide-b.md': '# B\n',
  'collide-b.md.meta.yaml': 'alias: same\n',
  'case-a.md': '# Case A\n',
  'case-a.md.meta.yaml': 'alias: Case/Page\n',
  'case-b.md': '# Case B\n',
  'case-b.md.meta.yaml': 'alias: case/page\n',
  'broken.md': '# Broken\n',
  'broken.md.meta.yaml': 'access: maybe\n',
};

const SECRETS = [
  'restricted-doc',
  'TOPSECRET',
  'dead0001',
  'denied-doc',
  idOf('restricted.md'),
  idOf('denied.md'),
  'restricted.md',
  'denied.md',
];

describe('createSiteHandler', () => {
  let root: ContentRoot;
  let handler: SiteHandler;
  before(() => {
    root = makeContentRoot(FILES);
    handler = createSiteHandler({
      root: root.dir,
      config: { adminPath: 'cms/' },
      serveDocuments: true,
    });
  });
  after(async () => {
    await handler.close();
    root.remove();
  });

  test('robots.txt: the baseline and the absolute sitemap URL', async () => {
    const response = await handler(siteRequest('/robots.txt'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(
      await response.text(),
      'User-agent: *\nDisallow: /login/\nDisallow: /api/\nDisallow: /builtin/\nAllow: /\n\n' +
        'Sitemap: https://example.com/sitemap.xml\n',
    );
  });

  test('sitemap.xml: only public, indexable Markdown, alias URL else /id/<hex>', async (t) => {
    const response = await handler(siteRequest('/sitemap.xml'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/xml; charset=utf-8');
    const xml = await response.text();
    assert.deepEqual(locs(xml), [
      'https://example.com/about/team',
      `https://example.com/id/${idOf('plain.md')}`,
    ]);
    assert.doesNotMatch(xml, /changefreq|priority/);
    assert.match(xml, /<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/lastmod>/);
    await assertValidSitemap(t, xml, 'urlset');
  });

  test('invalid sidecars and aliases are diagnostics, each naming its document', async () => {
    const diagnostics = await handler.diagnostics();
    const codes = (path: string): string[] =>
      diagnostics.filter((d) => d.path === path).map((d) => d.code);
    assert.deepEqual(codes('reserved-alias.md'), ['alias-reserved']);
    assert.deepEqual(codes('traversal.md'), ['alias-traversal']);
    assert.deepEqual(codes('collide-a.md'), ['alias-collision']);
    assert.deepEqual(codes('collide-b.md'), ['alias-collision']);
    // Case does not make two URLs: a server that ignores it would serve one page for both.
    assert.deepEqual(codes('case-a.md'), ['alias-collision']);
    assert.deepEqual(codes('case-b.md'), ['alias-collision']);
    assert.deepEqual(codes('broken.md'), ['sidecar-access']);
    assert.match(
      diagnostics.find((d) => d.path === 'reserved-alias.md')?.message ?? '',
      /reserved \(the API\)/,
    );
  });

  test('a restricted and a denied document appear in no response', async () => {
    const paths = [
      '/robots.txt',
      '/sitemap.xml',
      '/',
      '/about/team',
      `/id/${idOf('team.md')}`,
      `/id/${idOf('plain.md')}`,
      '/staff/restricted-doc',
      `/id/${idOf('restricted.md')}`,
      '/denied-doc',
      '/id/dead0001',
      '/quiet',
      '/nothing-here',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD']) {
        const response = await handler(siteRequest(path, { method }));
        const text = [...response.headers].flat().join('\n') + (await response.text());
        for (const secret of SECRETS)
          assert.ok(!text.includes(secret), `${method} ${path} shows ${secret}`);
      }
    }
    assert.equal((await handler(siteRequest('/staff/restricted-doc'))).status, 403);
    assert.equal((await handler(siteRequest('/id/dead0001'))).status, 404);
    assert.equal((await handler(siteRequest('/denied-doc'))).status, 404);
  });

  test('other methods get 405 with Allow', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/about/team']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const response = await handler(siteRequest(path, { method }));
        assert.equal(response.status, 405, `${method} ${path}`);
        assert.equal(response.headers.get('allow'), 'GET, HEAD');
      }
    }
  });

  test('HEAD has the headers of GET and no body', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/about/team', `/id/${idOf('notes.txt')}`]) {
      const get = await handler(siteRequest(path));
      const bytes = new Uint8Array(await get.arrayBuffer());
      const head = await handler(siteRequest(path, { method: 'HEAD' }));
      assert.equal(head.status, 200);
      assert.equal(head.body, null);
      assert.equal(head.headers.get('content-length'), String(bytes.byteLength), path);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
    }
  });

  test('sitemap_index.xml and parts are not served while one sitemap holds everything', async () => {
    for (const path of ['/sitemap_index.xml', '/sitemaps/sitemap-0001.xml']) {
      assert.equal((await handler(siteRequest(path))).status, 404);
    }
  });
});

describe('robots.txt never names the admin path', () => {
  const CASES: { name: string; config: Partial<SiteConfig>; marker: string; host?: string }[] = [
    { name: 'default admin/', config: {}, marker: '/admin' },
    {
      name: 'rules, groups and reserved entries naming it are dropped',
      config: {
        adminPath: '/cms',
        robotsRules: [
          { directive: 'disallow', pattern: '/cms/users' },
          { directive: 'disallow', pattern: '/cmsx' },
          { directive: 'disallow', pattern: '/search' },
        ],
        robotsGroups: [
          { userAgents: ['GPTBot'], rules: [{ directive: 'disallow', pattern: '/CMS/' }] },
        ],
        reserved: ['cms/private/', { path: 'drafts/', publish: true }],
      },
      marker: '/cms',
    },
    {
      name: 'an admin path under a built-in prefix',
      config: { adminPath: 'api/admin/' },
      marker: '/api/admin',
    },
    {
      name: 'an admin path that is a built-in prefix',
      config: { adminPath: 'login' },
      marker: '/login',
    },
    {
      name: 'a host that contains it',
      config: { adminPath: 'cms' },
      marker: '/cms',
      host: 'https://cms.example.com',
    },
  ];
  const root = makeContentRoot({ 'a.md': '# A\n' });
  after(() => root.remove());
  for (const c of CASES) {
    test(c.name, async () => {
      const handler = createSiteHandler({ root: root.dir, config: c.config, configFile: null });
      try {
        const response = await handler(
          siteRequest('/robots.txt', { origin: c.host ?? 'https://example.com' }),
        );
        const text = await response.text();
        assert.equal(response.status, 200);
        assert.ok(!text.toLowerCase().includes(c.marker.toLowerCase()), text);
        assert.match(text, /^User-agent: \*\n/);
        assert.match(text, /Allow: \/\n/);
      } finally {
        await handler.close();
      }
    });
  }

  test('the dropped rules are reported', async () => {
    const handler = createSiteHandler({
      root: root.dir,
      config: { adminPath: 'cms', robotsRules: [{ directive: 'disallow', pattern: '/cms/x' }] },
      configFile: null,
    });
    try {
      const robots = await (await handler(siteRequest('/robots.txt'))).text();
      assert.ok(!robots.includes('/cms'));
      assert.ok((await handler.diagnostics()).some((d) => d.code === 'robots-names-admin'));
    } finally {
      await handler.close();
    }
  });
});

describe('the root waymark.site.yaml is followed live', () => {
  test('empty from the start, it is the defaults', async () => {
    const root = makeContentRoot({ 'a.md': '# A\n', 'waymark.site.yaml': '' });
    const handler = createSiteHandler({ root: root.dir });
    try {
      const response = await handler(siteRequest('/robots.txt'));
      assert.equal(response.status, 200);
      assert.match(await response.text(), /^User-agent: \*\nDisallow: \/login\//);
      assert.deepEqual(await handler.diagnostics(), []);
    } finally {
      await handler.close();
      root.remove();
    }
  });

  test('a change shows in the next response; a broken edit keeps the last good config', async () => {
    const root = makeContentRoot({
      'a.md': '# A\n',
      'a.md.meta.yaml': 'alias: a\n',
      'waymark.site.yaml': 'robotsRules: [{ disallow: /one }]\n',
    });
    const handler = createSiteHandler({ root: root.dir });
    try {
      const robots = async (): Promise<string> =>
        (await handler(siteRequest('/robots.txt'))).text();
      assert.match(await robots(), /Disallow: \/one\n/);
      for (let i = 0; i < 10; i++) {
        writeFileSync(
          root.path('waymark.site.yaml'),
          `robotsRules: [{ disallow: /n${i} }]\ntrailingSlash: always\n`,
        );
        assert.match(await robots(), new RegExp(`Disallow: /n${i}\\n`));
        const xml = await (await handler(siteRequest('/sitemap.xml'))).text();
        assert.deepEqual(locs(xml), ['https://example.com/a/']);
        writeFileSync(root.path('waymark.site.yaml'), 'robotsRules: [{ disallow: "no slash" }]\n');
        assert.match(await robots(), new RegExp(`Disallow: /n${i}\\n`));
        assert.ok((await handler.diagnostics()).some((d) => d.code === 'config-rejected'));
        // Saved in place, the file is empty for a moment: its rules must not go with it.
        for (const nothing of ['', '# rules to come\n']) {
          writeFileSync(root.path('waymark.site.yaml'), nothing);
          assert.match(await robots(), new RegExp(`Disallow: /n${i}\\n`));
          const rejected = (await handler.diagnostics()).find((d) => d.code === 'config-rejected');
          assert.match(
            rejected?.message ?? '',
            /says nothing .*remove it to go back to the defaults/,
          );
        }
      }
      // `{}` says something: no keys, on purpose. The defaults, then.
      writeFileSync(root.path('waymark.site.yaml'), '{}\n');
      assert.doesNotMatch(await robots(), /Disallow: \/n/);
      unlinkSync(root.path('waymark.site.yaml'));
      const text = await robots();
      assert.doesNotMatch(text, /Disallow: \/n/);
      assert.deepEqual(locs(await (await handler(siteRequest('/sitemap.xml'))).text()), [
        'https://example.com/a',
      ]);
    } finally {
      await handler.close();
      root.remove();
    }
  });
});

describe('a sidecar under a name that is not read', () => {
  test('withholds its document, is not published itself, and says why', async () => {
    const root = makeContentRoot({
      'a.md': '# A\n',
      'a.md.meta.yml': 'access: deny\n',
      'b.md': '# B\n',
      'b.md.META.YAML': 'access: deny\n',
      'c.md': '# C\n',
      'stray.meta.yml': 'title: no document\n',
    });
    const handler = createSiteHandler({ root: root.dir, serveDocuments: true });
    try {
      const xml = await (await handler(siteRequest('/sitemap.xml'))).text();
      assert.deepEqual(locs(xml), [`https://example.com/id/${idOf('c.md')}`]);
      for (const path of ['a.md', 'a.md.meta.yml', 'b.md', 'b.md.META.YAML', 'stray.meta.yml']) {
        assert.equal((await handler(siteRequest(`/id/${idOf(path)}`))).status, 404, path);
      }
      assert.deepEqual(
        (await handler.diagnostics()).map((d) => [d.path, d.file, d.code, d.severity]),
        [
          ['a.md', 'a.md.meta.yml', 'sidecar-name', 'error'],
          ['b.md', 'b.md.META.YAML', 'sidecar-name', 'error'],
        ],
      );
    } finally {
      await handler.close();
      root.remove();
    }
  });
});

describe('documents and refusals are revalidated before reuse', () => {
  test('Cache-Control: no-cache on pages, files and refusals; files are not sniffed', async () => {
    const root = makeContentRoot({ 'a.md': '# A\n', 'notes.txt': 'text\n' });
    const handler = createSiteHandler({ root: root.dir, serveDocuments: true });
    try {
      for (const path of ['/', `/id/${idOf('a.md')}`, `/id/${idOf('notes.txt')}`, '/nowhere']) {
        const response = await handler(siteRequest(path));
        assert.equal(response.headers.get('cache-control'), 'no-cache', path);
      }
      const file = await handler(siteRequest(`/id/${idOf('notes.txt')}`));
      assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    } finally {
      await handler.close();
      root.remove();
    }
  });
});

describe('a Markdown document too large to render', () => {
  test('is not listed (it would answer 404), and says why', async () => {
    const root = makeContentRoot({ 'small.md': '# Small\n' });
    writeFileSync(root.path('huge.md'), `# Huge\n${'a'.repeat(9 * 1024 * 1024)}\n`);
    const handler = createSiteHandler({ root: root.dir, serveDocuments: true });
    try {
      const xml = await (await handler(siteRequest('/sitemap.xml'))).text();
      assert.deepEqual(locs(xml), [`https://example.com/id/${idOf('small.md')}`]);
      assert.equal((await handler(siteRequest(`/id/${idOf('huge.md')}`))).status, 404);
      const listing = await (await handler(siteRequest('/'))).text();
      assert.doesNotMatch(listing, /Huge|huge/);
      const diagnostics = await handler.diagnostics();
      assert.deepEqual(
        diagnostics.map((d) => [d.path, d.file, d.code, d.severity]),
        [['huge.md', 'huge.md', 'document-too-large', 'warning']],
      );
    } finally {
      await handler.close();
      root.remove();
    }
  });
});

describe('a root with nothing to list', () => {
  test('no sitemap (404) and no Sitemap: line, until a page is listed, and again after', async (t) => {
    const root = makeContentRoot({
      'notes.txt': 'text\n',
      'quiet.md': '# Q\n',
      'quiet.md.meta.yaml': 'noindex: true\n',
    });
    const handler = createSiteHandler({ root: root.dir });
    try {
      for (const round of [0, 1]) {
        const empty = await handler(siteRequest('/sitemap.xml'));
        assert.equal(empty.status, 404, `round ${round}`);
        assert.equal(empty.headers.get('content-type'), 'text/plain; charset=utf-8');
        const robots = await (await handler(siteRequest('/robots.txt'))).text();
        assert.doesNotMatch(robots, /Sitemap:/);
        assert.match(robots, /^User-agent: \*\n[\s\S]*Allow: \/\n$/);
        writeFileSync(root.path('page.md'), '# Page\n');
        const xml = await (await handler(siteRequest('/sitemap.xml'))).text();
        assert.deepEqual(locs(xml), [`https://example.com/id/${idOf('page.md')}`]);
        await assertValidSitemap(t, xml, 'urlset');
        assert.match(
          await (await handler(siteRequest('/robots.txt'))).text(),
          /\nSitemap: https:\/\/example\.com\/sitemap\.xml\n$/,
        );
        unlinkSync(root.path('page.md'));
      }
    } finally {
      await handler.close();
      root.remove();
    }
  });
});
