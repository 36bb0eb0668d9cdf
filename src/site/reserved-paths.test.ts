import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReservedPaths } from './index.ts';

describe('ReservedPaths', () => {
  test('the built-ins, the admin prefix and configured entries, each with its publish flag', () => {
    const reserved = new ReservedPaths({
      adminPath: 'cms',
      reserved: ['drafts/', { path: '/cart.html', publish: false }],
    });
    assert.deepEqual(
      reserved.entries.map((e) => [e.path, e.prefix, e.publish]),
      [
        ['/robots.txt', false, false],
        ['/sitemap.xml', false, false],
        ['/sitemap_index.xml', false, false],
        ['/sitemaps/', true, false],
        ['/id/', true, false],
        ['/login/', true, true],
        ['/api/', true, true],
        ['/builtin/', true, true],
        ['/cms/', true, false],
        ['/drafts/', true, true],
        ['/cart.html', false, false],
      ],
    );
    assert.deepEqual(reserved.disallowed(), ['/login/', '/api/', '/builtin/', '/drafts/']);
  });

  const MATCHES: [path: string, reason: string | null][] = [
    ['/robots.txt', 'robots.txt'],
    ['/robots.txt/', 'robots.txt'],
    ['/robots.txt.bak', null],
    ['/api', 'the API'],
    ['/api/', 'the API'],
    ['/Api/v1', 'the API'],
    ['/apis', null],
    ['/cms/x', 'the admin area'],
    ['/cmsx', null],
    ['/about', null],
  ];
  for (const [path, reason] of MATCHES) {
    test(`match ${path}`, () => {
      assert.equal(new ReservedPaths({ adminPath: 'cms/' }).match(path)?.reason ?? null, reason);
    });
  }

  test('an entry that names the admin path is never published', () => {
    for (const adminPath of ['api/', 'api/admin', 'login', 'drafts/admin']) {
      const reserved = new ReservedPaths({ adminPath, reserved: ['drafts/', 'drafts/admin/x/'] });
      const marker = `/${adminPath.replace(/\/$/, '')}`;
      for (const path of reserved.disallowed())
        assert.ok(!path.includes(marker), `${adminPath}: ${path}`);
    }
  });

  const OVERLAPS: [config: { adminPath: string; reserved?: string[] }, message: RegExp | null][] = [
    [{ adminPath: 'id/' }, /adminPath: \/id\/ overlaps \/id\//],
    [{ adminPath: 'ID' }, /adminPath: \/ID\/ overlaps \/id\//],
    [{ adminPath: 'id/admin' }, /overlaps \/id\//],
    [{ adminPath: 'sitemaps' }, /overlaps \/sitemaps\//],
    [{ adminPath: 'sitemap.xml' }, /overlaps \/sitemap\.xml/],
    [{ adminPath: 'admin', reserved: ['sitemap.xml'] }, /reserved: \/sitemap\.xml overlaps/],
    [{ adminPath: 'admin', reserved: ['robots.txt'] }, /reserved: \/robots\.txt overlaps/],
    [{ adminPath: 'admin', reserved: ['sitemaps/sitemap-0001.xml'] }, /overlaps \/sitemaps\//],
    [{ adminPath: 'admin', reserved: ['id/dead0001'] }, /overlaps \/id\//],
    // Neighbours that only share a prefix of characters are fine.
    [{ adminPath: 'sitemap', reserved: ['identity/', 'robots.txt.bak', 'sitemapsx/'] }, null],
    [{ adminPath: 'login' }, null],
  ];
  for (const [config, message] of OVERLAPS) {
    test(`waymark's own paths cannot be reserved: ${JSON.stringify(config)}`, () => {
      if (message === null) {
        assert.doesNotThrow(() => new ReservedPaths(config));
      } else {
        assert.throws(() => new ReservedPaths(config), { code: 'invalid-argument', message });
      }
    });
  }
});
