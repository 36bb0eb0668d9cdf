import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readSitemap } from '../read-sitemap.ts';
import { readLastmod } from './lastmod.ts';

/** The rule as it was before the collector's shortcut: the regular expression alone. */
const NOT_XSD = /^\d{4}(?:-\d{2})?$|T\d{2}:\d{2}(?:Z|[+-])/;

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const zone = fc.oneof(
  fc.constant('Z'),
  fc.tuple(fc.constantFrom('+', '-'), two(15), two(59)).map(([s, h, m]) => `${s}${h}:${m}`),
);
/** Every W3C Datetime form (and near misses: out-of-range parts, other zones, spaces). */
const lastmod = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 9999 }), two(13), two(32)).chain(([y, mo, d]) => {
    const year = String(y).padStart(4, '0');
    const date = `${year}-${mo}-${d}`;
    return fc.oneof(
      fc.constant(year),
      fc.constant(`${year}-${mo}`),
      fc.constant(date),
      fc.tuple(two(24), two(60), zone).map(([h, m, z]) => `${date}T${h}:${m}${z}`),
      fc.tuple(two(24), two(60), two(60), zone).map(([h, m, s, z]) => `${date}T${h}:${m}:${s}${z}`),
      fc
        .tuple(two(24), two(60), two(60), fc.integer({ min: 0, max: 99999 }), zone)
        .map(([h, m, s, f, z]) => `${date}T${h}:${m}:${s}.${f}${z}`),
      fc.tuple(two(24), two(60)).map(([h, m]) => `${date} ${h}:${m}`),
    );
  }),
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[<&]/g, '')),
);

test('lastmod-not-xsd is reported exactly when the regular expression says so', async () => {
  await fc.assert(
    fc.asyncProperty(lastmod, fc.constantFrom('', ' ', '\n '), async (value, pad) => {
      const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><lastmod>${pad}${value}${pad}</lastmod></url></urlset>`;
      const { diagnostics } = await readSitemap(xml);
      const reading = readLastmod(`${pad}${value}${pad}`);
      const expected = reading.w3c && reading.value !== null && NOT_XSD.test(reading.value);
      assert.equal(
        diagnostics.some((d) => d.code === 'lastmod-not-xsd'),
        expected,
        JSON.stringify(value),
      );
    }),
    { seed: 14, numRuns: 4000 },
  );
});
