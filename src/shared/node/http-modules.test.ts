// Importing waymark must not load Node's bundled undici (about 12 MB of resident memory) or
// TLS: an ESM import of node:http loads both (nodejs/node#59686). Each check runs in a fresh
// process, whose list of loaded internal modules tells.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const SRC = new URL('../../', import.meta.url).href;
const HEAVY = /undici|tls|https/;

/** The internal modules of `HEAVY` that a fresh process has loaded after running `body`. */
function heavyModulesAfter(body: string): string[] {
  const script = `${body}\nprocess.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => ${HEAVY}.test(m))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

test('the check sees undici and TLS when node:http is imported', () => {
  assert.ok(heavyModulesAfter("await import('node:http');").some((m) => m.includes('undici')));
});

test('importing every entry point loads neither undici nor TLS', () => {
  const entries = ['index', 'robots/index', 'sitemap/index', 'sitemap/node', 'crawl/index'];
  entries.push('http/index', 'url/index', 'navmap/index', 'site/index', 'indexnow/index');
  const imports = entries.map((e) => `await import(${JSON.stringify(`${SRC}${e}.ts`)});`);
  assert.deepEqual(heavyModulesAfter(imports.join('\n')), []);
});

test('a page fetched over http and a site served over http load neither', () => {
  const body = `
    const { startSiteServer } = await import(${JSON.stringify(`${SRC}site/index.ts`)});
    const { openOnce } = await import(${JSON.stringify(`${SRC}http/internal/node-open.ts`)});
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'http-modules-'));
    writeFileSync(join(root, 'index.md'), '# Home\\n');
    const server = await startSiteServer({ root, port: 0 });
    const response = await openOnce(server.origin + '/robots.txt', {
      timeoutMs: 10_000, maxBytes: 1e6, userAgent: 'test', accept: '*/*',
    });
    let bytes = 0;
    for await (const chunk of response.body) bytes += chunk.byteLength;
    if (response.status !== 200 || bytes === 0) throw new Error('no robots.txt: ' + response.status);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  `;
  assert.deepEqual(heavyModulesAfter(body), []);
});
