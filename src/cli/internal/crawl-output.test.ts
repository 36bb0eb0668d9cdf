// `waymark crawl --out sitemap.xml` splits as the protocol requires: past 50,000 URLs the file
// at --out becomes the index and the parts go beside it, so what robots.txt names stays the
// entry point; a later run that fits in one file takes the parts away again.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SitemapUrl } from '../../sitemap/index.ts';
import type { CliIo } from '../io.ts';
import { writeCrawlOutput } from './crawl-output.ts';

const ORIGIN = 'https://example.com';
const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-output-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function* pages(n: number): AsyncGenerator<SitemapUrl> {
  for (let i = 0; i < n; i++) yield { loc: `${ORIGIN}/p/${i}` };
}

function capture(): { io: CliIo; stderr: () => string } {
  let stderr = '';
  const io = {
    stdout: () => {},
    stderr: (text: string) => {
      stderr += text;
    },
  } as unknown as CliIo;
  return { io, stderr: () => stderr };
}

const locs = (path: string) =>
  [...readFileSync(path, 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

test('past 50,000 URLs the --out file is the index of parts beside it; then one file again', async () => {
  const out = join(dir, 'sitemap.xml');
  const output = { out, format: 'xml', gzip: false, extensions: [] } as const;
  const split = capture();
  assert.equal(await writeCrawlOutput(pages(50_001), output, ORIGIN, split.io), out);
  assert.match(readFileSync(out, 'utf8'), /<sitemapindex /);
  assert.deepEqual(locs(out), [
    `${ORIGIN}/sitemap-part-0001.xml`,
    `${ORIGIN}/sitemap-part-0002.xml`,
  ]);
  assert.equal(locs(join(dir, 'sitemap-part-0001.xml')).length, 50_000);
  assert.deepEqual(locs(join(dir, 'sitemap-part-0002.xml')), [`${ORIGIN}/p/50000`]);
  assert.match(
    split.stderr(),
    /passes 50,000 URLs: .*sitemap\.xml is an index of 2 parts beside it/,
  );

  // Files of the caller's beside it, named like parts, are the caller's: never removed.
  writeFileSync(join(dir, 'sitemap-2024.xml'), 'mine');
  writeFileSync(join(dir, 'sitemap-0001.xml'), 'mine too');
  const again = capture();
  await writeCrawlOutput(pages(3), output, ORIGIN, again.io);
  assert.match(readFileSync(out, 'utf8'), /<urlset /);
  assert.equal(locs(out).length, 3);
  assert.deepEqual(readdirSync(dir).sort(), [
    'sitemap-0001.xml',
    'sitemap-2024.xml',
    'sitemap.xml',
  ]);
  assert.equal(again.stderr(), '');
});

test('an --out name the writer cannot split under still fails past the limit, and says why', async () => {
  const out = join(dir, 'sitemap.out');
  const output = { out, format: 'xml', gzip: false, extensions: [] } as const;
  await assert.rejects(writeCrawlOutput(pages(50_001), output, ORIGIN, capture().io), {
    message: /passes 50,000 URLs: use --out-dir, or an --out name ending in \.xml/,
  });
  assert.equal(existsSync(out), false);
});
