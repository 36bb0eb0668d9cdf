// The same-host check on each entry's loc (`cross-host-loc`), which nothing tested before the
// reader began taking a plain loc's host without building a reading object: entries on
// another host (or port) are kept and warned about, entries on the sitemap's own host are
// not, whether the loc takes the plain-URL shortcut or goes through the URL parser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSitemap } from '../read-sitemap.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** loc as written, and whether it is off the host of https://shop.example/sitemap.xml. */
const CASES: readonly (readonly [string, boolean])[] = [
  ['https://shop.example/a', false],
  ['https://shop.example', false],
  ['https://shop.example?q=1', false],
  ['http://shop.example/b', false],
  ['  https://shop.example/padded  ', false],
  ['HTTPS://SHOP.EXAMPLE/upper', false],
  ['https://shop.example:443/default-port', false],
  ['https://shop.example/./dots/../c', false],
  ['https://other.example/a', true],
  ['https://shop.example:8443/a', true],
  ['https://www.shop.example/a', true],
  ['https://shop.example.evil.example/a', true],
  ['https://SHOP.example.:8443/a', true],
  ['https://127.0.0.1/a', true],
];

test('cross-host-loc is reported exactly for locs off the sitemap host, by either path', async () => {
  const body = CASES.map(([loc]) => `<url><loc>${loc}</loc></url>`).join('\n');
  const reading = await readSitemap(
    new TextEncoder().encode(`<urlset ${NS}>\n${body}\n</urlset>`),
    {
      url: 'https://shop.example/sitemap.xml',
    },
  );
  assert.equal(reading.entries.length, CASES.length);
  const warned = reading.diagnostics
    .filter((d) => d.code === 'cross-host-loc')
    .map((d) => d.message.slice(0, d.message.indexOf(' is not on')));
  const expected = CASES.filter(([, off]) => off).map(([loc]) => new URL(loc.trim()).href);
  assert.deepEqual(warned, expected);
});

test('without the sitemap URL no loc is checked for its host', async () => {
  const body = CASES.map(([loc]) => `<url><loc>${loc}</loc></url>`).join('\n');
  const reading = await readSitemap(new TextEncoder().encode(`<urlset ${NS}>\n${body}\n</urlset>`));
  assert.equal(reading.entries.length, CASES.length);
  assert.deepEqual(
    reading.diagnostics.filter((d) => d.code === 'cross-host-loc'),
    [],
  );
});
