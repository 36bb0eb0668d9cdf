// What a read loads beyond the reader's own modules, seen from a fresh process: Node's zlib
// only once a document turns out to be gzip (a plain XML read has no use for it, and loading
// it costs every such read about 1 ms and 0.5 MB); and from `waymark/sitemap/node`, the
// writer's modules only once writeSitemaps is called (about 10 ms of a reading process).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const READER = fileURLToPath(new URL('../read-sitemap.ts', import.meta.url));

/** Reads `document` (gzipped when `gzip`) in a new process; the builtins it loaded on the way. */
function builtinsLoadedByRead(gzip: boolean): string[] {
  const program = `
    const { readSitemap } = await import(${JSON.stringify(READER)});
    const xml = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>';
    const before = new Set(process.moduleLoadList);
    const bytes = ${gzip}
      ? new Uint8Array(await new Response(new Blob([xml]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
      : new TextEncoder().encode(xml);
    const reading = await readSitemap(bytes);
    if (reading.entries.length !== 1) throw new Error('not read: ' + JSON.stringify(reading));
    process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

test('a plain XML read does not load node:zlib', () => {
  const loaded = builtinsLoadedByRead(false);
  assert.deepEqual(
    loaded.filter((m) => /zlib/.test(m)),
    [],
  );
});

test('a gzip read loads node:zlib and inflates with it', () => {
  const loaded = builtinsLoadedByRead(true);
  assert.ok(
    loaded.some((m) => m === 'NativeModule zlib'),
    loaded.join(', '),
  );
});

const NODE_ENTRY = fileURLToPath(new URL('../node.ts', import.meta.url));

test('waymark/sitemap/node loads the writer only when writeSitemaps is first called', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-module-load-'));
  try {
    const file = join(dir, 'sitemap.xml');
    writeFileSync(
      file,
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>',
    );
    const program = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ load: (url, context, next) => (loaded.push(url), next(url, context)) });
      const writer = () => loaded.filter((url) => /write-sitemaps|format-sitemap/.test(url)).length;
      const { readSitemapFile, writeSitemaps } = await import(${JSON.stringify(NODE_ENTRY)});
      const read = await readSitemapFile(${JSON.stringify(file)});
      if (read.entries.length !== 1) throw new Error('not read: ' + JSON.stringify(read));
      const afterRead = writer();
      const written = await writeSitemaps(read.entries, { dir: ${JSON.stringify(join(dir, 'out'))}, baseUrl: 'https://a.example/' });
      process.stdout.write(JSON.stringify({ afterRead, afterWrite: writer(), urls: written.urls }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
      encoding: 'utf8',
    });
    const { afterRead, afterWrite, urls } = JSON.parse(out);
    assert.equal(afterRead, 0, 'no writer module loaded by a read');
    assert.ok(afterWrite >= 2, `the writer loaded by writeSitemaps (${afterWrite} modules)`);
    assert.equal(urls, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
