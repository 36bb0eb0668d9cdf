// Kills a crawl mid-way (a child process, SIGKILL) and resumes it: nothing recorded is fetched
// again (only what was in flight at the kill may be), and the sitemap equals an uninterrupted
// crawl's. The server lives in this process, so its access log spans both runs.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../http/test-support/test-server.ts';

const PAGES = 120;
const CONCURRENCY = 3;
const bin = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));

/** A tree of pages: /p/N links to /p/2N and /p/2N+1. */
async function startTreeSite(onPage: () => void) {
  return startTestServer({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow:\n',
    },
    '*': (req, res) => {
      const match = /^\/p\/(\d+)$/.exec(req.url ?? '');
      const n = match === null ? (req.url === '/' ? 0 : -1) : Number(match[1]);
      if (n < 0 || n >= PAGES) {
        res.writeHead(404).end();
        return;
      }
      onPage();
      const links = [2 * n + 1, 2 * n + 2]
        .filter((k) => k < PAGES)
        .map((k) => `<a href="/p/${k}">${k}</a>`);
      // A little latency keeps several requests in flight, like a real site.
      setTimeout(() => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><body>${links.join('')}</body></html>`);
      }, 5);
    },
  });
}

function runCrawl(url: string, state: string, out: string, resume: boolean): ChildProcess {
  const args = [
    bin,
    'crawl',
    url,
    '--state',
    state,
    '--out',
    out,
    '--rate',
    '0',
    '--concurrency',
    String(CONCURRENCY),
    '--quiet',
    '--no-sitemaps',
    '--max-depth',
    '20',
  ];
  return spawn(process.execPath, resume ? [...args, '--resume'] : args, { stdio: 'ignore' });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test('a crawl killed with SIGKILL resumes without fetching recorded pages again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-resume-'));
  let child: ChildProcess | null = null;
  let pages = 0;
  const server = await startTreeSite(() => {
    pages++;
    if (pages === 40) child?.kill('SIGKILL');
  });
  try {
    const url = server.url('/');
    child = runCrawl(url, join(dir, 'state.db'), join(dir, 'resumed.xml'), false);
    assert.equal(await exited(child), null, 'the first run was killed');
    const beforeResume = server.requests.length;
    child = runCrawl(url, join(dir, 'state.db'), join(dir, 'resumed.xml'), true);
    assert.equal(await exited(child), 0);

    const pagePaths = server.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
    const counts = new Map<string, number>();
    for (const path of pagePaths) counts.set(path, (counts.get(path) ?? 0) + 1);
    const repeated = [...counts.values()].filter((n) => n > 1).length;
    assert.ok(
      repeated <= CONCURRENCY,
      `${repeated} pages fetched twice; at most ${CONCURRENCY} were in flight`,
    );
    assert.equal(counts.size, PAGES, 'every page was fetched');
    assert.ok(beforeResume < server.requests.length);

    // The same crawl without interruption gives the same sitemap.
    const fresh = await startTreeSite(() => {});
    try {
      const whole = runCrawl(fresh.url('/'), join(dir, 'fresh.db'), join(dir, 'fresh.xml'), false);
      assert.equal(await exited(whole), 0);
      const locs = (file: string, origin: string) =>
        [...readFileSync(join(dir, file), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
          (m[1] as string).slice(origin.length),
        );
      const resumed = locs('resumed.xml', server.origin);
      assert.equal(resumed.length, PAGES);
      assert.deepEqual(resumed, locs('fresh.xml', fresh.origin));
    } finally {
      await fresh.close();
    }
  } finally {
    child?.kill('SIGKILL');
    await server.close();
  }
});
