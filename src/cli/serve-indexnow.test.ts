// Issue 13's done-criterion: `waymark serve` with `indexnow` in its configuration pushes a
// page edited on disk to an IndexNow endpoint on 127.0.0.1, and nothing for pages that are
// not public; it serves the key file and prints one line per submission.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startIndexNowEndpoint } from '../indexnow/test-support/indexnow-endpoint.ts';
import { serve, until } from './test-support/serve-in-process.ts';

const KEY = 'waymark-test-key-0001';
const ORIGIN = 'https://www.example.com';

test('waymark serve pushes an edited public page to IndexNow, and nothing for hidden ones', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-serve-indexnow-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const endpoint = await startIndexNowEndpoint();
  t.after(() => endpoint.close());
  const files: Record<string, string> = {
    'about.md': '# About\n',
    'about.md.meta.yaml': 'alias: about\n',
    'staff.md': '# Staff\n',
    'staff.md.meta.yaml': 'alias: staff\naccess: restricted\n',
    'quiet.md': '# Quiet\n',
    'quiet.md.meta.yaml': 'alias: quiet\nnoindex: true\n',
    'waymark.site.yaml': `indexnow:\n  key: ${KEY}\n  endpoint: ${endpoint.url}\n  debounceMs: 200\n  minIntervalMs: 0\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  let mtime = Math.floor(Date.now() / 1000) + 1000;
  const edit = (name: string, text: string): void => {
    writeFileSync(join(dir, name), text);
    mtime += 10;
    utimesSync(join(dir, name), mtime, mtime);
  };
  const running = await serve([dir, '--port', '0', '--origin', ORIGIN]);
  try {
    const origin = running.server.origin;
    assert.equal(running.stderr(), '');
    const keyFile = await fetch(`${origin}/${KEY}.txt`);
    assert.equal(keyFile.status, 200);
    assert.equal(keyFile.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await keyFile.text(), KEY);

    // Not public: restricted and noindex pages change, and the server has seen it.
    edit('staff.md', '# Staff, edited\n');
    edit('quiet.md', '# Quiet, edited\n');
    await (await fetch(`${origin}/sitemap.xml`)).arrayBuffer();
    // A public page: no request needed, the server notices the edit by itself.
    edit('about.md', '# About us\n');
    await until(
      () => /indexnow: 1 URL submitted/.test(running.stdout()),
      () => `${running.stdout()}${running.stderr()}${JSON.stringify(endpoint.requests)}`,
    );
    assert.equal(endpoint.requests.length, 1, 'one request, with only the public page');
    assert.deepEqual(endpoint.requests[0]?.body, {
      host: 'www.example.com',
      key: KEY,
      keyLocation: `${ORIGIN}/${KEY}.txt`,
      urlList: [`${ORIGIN}/about`],
    });
    assert.match(
      running.stdout(),
      new RegExp(
        `^waymark serve: indexnow: 1 URL submitted to ${endpoint.url.replaceAll('.', '\\.')}: 200 OK: URL submitted successfully\\n`,
        'm',
      ),
    );

    // Not accepted: printed on stderr with what is kept for the next try.
    endpoint.script([403]);
    edit('about.md', '# About us, again\n');
    await until(
      () => /indexnow: 1 URL not accepted/.test(running.stderr()),
      () => running.stderr(),
    );
    assert.match(
      running.stderr(),
      /^waymark serve: indexnow: 1 URL not accepted by .*: 403 Forbidden: .*; 1 kept, next try in \d+ s\n/m,
    );
  } finally {
    assert.equal(await running.stop(), 0);
  }
});
