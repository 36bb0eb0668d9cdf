// The push parser given a whole large document in one write reports the same positions as
// the readers, which feed it 4 KiB at a time: its diagnostic log remembers line breaks only
// 64 Ki characters back, so the parser hands the XML reader large text in pieces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSitemap, SitemapParser } from './index.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

test('one write of 400 KB: diagnostics on their own lines, as when read in pieces', async () => {
  const lines = [`<urlset ${NS}>`, '<url><loc>/relative-on-line-2</loc></url>'];
  for (let i = 0; i < 12_000; i++) lines.push(`<url><loc>https://a.example/${i}</loc></url>`);
  lines.push('<url><loc>/relative-near-the-end</loc></url>', '</urlset>');
  const text = lines.join('\n');
  assert.ok(text.length > 400_000);
  const parser = new SitemapParser({}, () => {});
  parser.write(text);
  parser.end();
  const positions = parser.diagnostics.map((d) => [d.code, d.line, d.column]);
  assert.deepEqual(positions, [
    ['relative-loc', 2, 1],
    ['relative-loc', 12_003, 1],
  ]);
  const pieces = (await readSitemap(text)).diagnostics.map((d) => [d.code, d.line, d.column]);
  assert.deepEqual(positions, pieces);
});
