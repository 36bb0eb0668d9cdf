// The collector remembers the last normal lastmod it read (a repeat then costs a comparison):
// entries read together must get the lastmods and diagnostics each gets read alone, whatever
// runs of repeats, empty values, padding and unreadable values come in between.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readSitemap } from '../read-sitemap.ts';
import { readLastmod } from './lastmod.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const LASTMODS = [
  '2024-05-06T07:08:09+00:00',
  ' 2024-05-06T07:08:09+00:00 ',
  '2024-05-06',
  '2024-05-06T07:08:09Z',
  '',
  ' ',
  'yesterday',
  '2024-13-01',
  '2024-05-06T07:08+02:00',
  'Mon, 06 May 2024 07:08:09 GMT',
];

const urlset = (lastmods: readonly (string | null)[]) =>
  `<urlset ${NS}>${lastmods
    .map(
      (lastmod, i) =>
        `<url><loc>https://a.example/${i}</loc>${lastmod === null ? '' : `<lastmod>${lastmod}</lastmod>`}</url>`,
    )
    .join('\n')}</urlset>`;

test('lastmods read together are what each is read alone', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.option(fc.constantFrom(...LASTMODS), { nil: null }), { maxLength: 12 }),
      async (lastmods) => {
        const together = await readSitemap(urlset(lastmods));
        for (const [i, lastmod] of lastmods.entries()) {
          const alone = await readSitemap(urlset([lastmod]));
          const expected = lastmod === null ? undefined : (readLastmod(lastmod).value ?? undefined);
          assert.equal(alone.entries[0]?.lastmod, expected, JSON.stringify(lastmod));
          assert.equal(
            together.entries[i]?.lastmod,
            alone.entries[0]?.lastmod,
            JSON.stringify(lastmod),
          );
          const codes = (reading: typeof alone, line: number) =>
            reading.diagnostics.filter((d) => d.line === line).map((d) => [d.code, d.message]);
          assert.deepEqual(codes(together, i + 1), codes(alone, 1), JSON.stringify(lastmod));
        }
      },
    ),
    { numRuns: 200 },
  );
});
