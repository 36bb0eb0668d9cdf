// Kills a crawl mid-way (a child process, SIGKILL) and resumes it: nothing recorded is fetched
// again (only what was in flight at the kill may be), and the sitemap and the summary equal
// an uninterrupted crawl's. The server lives in this process, so its log spans both runs.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTreeSite } from './test-support/tree-site.ts';
import type { CrawlSummary } from './types.ts';

const PAGES = 120;
const CONCURRENCY = 3;
const bin = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));

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
    '--json-log',
    '--no-sitemaps',
    '--max-depth',
    '20',
  ];
  return spawn(process.execPath, resume ? [...args, '--resume'] : args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** The exit code, and the summary from the JSON log's `done` line (null when killed first). */
async function exited(
  child: ChildProcess,
): Promise<{ code: number | null; summary: CrawlSummary | null }> {
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) =>
    child.once('close', (exitCode) => resolve(exitCode)),
  );
  const done = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; summary?: CrawlSummary })
    .find((record) => record.type === 'done');
  return { code, summary: done?.summary ?? null };
}

/** What must be the same whether or not the crawl was interrupted. */
function comparable(summary: CrawlSummary | null) {
  assert.ok(summary !== null, 'the run wrote a summary');
  const { fetched, listed, skipped, errors, truncated, unreachable } = summary;
  return { fetched, listed, skipped, errors, truncated, unreachable };
}

test('a crawl killed with SIGKILL resumes without fetching recorded pages again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-resume-'));
  let child: ChildProcess | null = null;
  let pages = 0;
  const server = await startTreeSite({
    pages: PAGES,
    onPage: () => {
      pages++;
      if (pages === 40) child?.kill('SIGKILL');
    },
  });
  try {
    const url = server.url('/');
    child = runCrawl(url, join(dir, 'state.db'), join(dir, 'resumed.xml'), false);
    assert.equal((await exited(child)).code, null, 'the first run was killed');
    const beforeResume = server.requests.length;
    child = runCrawl(url, join(dir, 'state.db'), join(dir, 'resumed.xml'), true);
    const resumedRun = await exited(child);
    assert.equal(resumedRun.code, 0);

    const pagePaths = server.requests
      .map((r) => r.path)
      .filter((p) => p === '/' || p.startsWith('/p/'));
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
    const fresh = await startTreeSite({ pages: PAGES });
    try {
      const whole = runCrawl(fresh.url('/'), join(dir, 'fresh.db'), join(dir, 'fresh.xml'), false);
      const wholeRun = await exited(whole);
      assert.equal(wholeRun.code, 0);
      // Skip reasons recorded before the kill are counted after the resume too.
      assert.deepEqual(comparable(resumedRun.summary), comparable(wholeRun.summary));
      assert.ok(Object.keys(comparable(wholeRun.summary).skipped).length >= 3);
      const locs = (file: string, origin: string) =>
        [...readFileSync(join(dir, file), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
          (m[1] as string).slice(origin.length),
        );
      const resumed = locs('resumed.xml', server.origin);
      const noindex = Array.from({ length: PAGES }, (_, n) => n).filter((n) => n % 7 === 3);
      assert.equal(resumed.length, PAGES - noindex.length);
      assert.deepEqual(resumed, locs('fresh.xml', fresh.origin));
    } finally {
      await fresh.close();
    }
  } finally {
    child?.kill('SIGKILL');
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
