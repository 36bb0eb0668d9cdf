// What a read loads beyond the reader's own modules, seen from a fresh process: Node's zlib
// only once a document turns out to be gzip (a plain XML read has no use for it, and loading
// it costs every such read about 1 ms and 0.5 MB).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
