// What must hold when many `waymark crawl` workers share one crawl through PostgreSQL (issue
// 11), proved with real worker processes against one real PostgreSQL and sites on 127.0.0.1:
// politeness is global, a worker killed with -9 loses nothing, a restart of the database
// loses nothing, and the workers together give the answers one SQLite process gives.
//
// Every crawl starts the same way: the creating worker first, then (once the crawl exists)
// the joiners. The site then holds its pages unanswered after the first few, until every
// worker has its `--concurrency` of pages in flight: so each test knows, without timing,
// that every worker took part (and, for kill -9, that the killed one had pages in flight).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CrawlSummary } from '../crawl/index.ts';
import { startPostgresServer } from '../test-support/postgres-server.ts';
import { runCliForTest } from './test-support/run-cli.ts';
import { type SharedCrawlSite, startSharedCrawlSite } from './test-support/shared-crawl-site.ts';

const BIN = fileURLToPath(new URL('./bin.ts', import.meta.url));
const WORKERS = 3;
/** Each worker's `--concurrency`: pages it has in flight at most. */
const CONCURRENCY = 2;
/** A crawl that hangs fails its test instead of the whole run. */
const TIMEOUT = { timeout: 60_000 };

const database = await startPostgresServer();
const ROOT = mkdtempSync(join(tmpdir(), 'waymark-crawl-shared-'));
/** The workers' TMPDIR: it must stay empty. */
const WORKER_TMP = join(ROOT, 'tmp');
mkdirSync(WORKER_TMP);
/** Never in a worker's output: messages show the connection string without it. */
const PASSWORD = new URL(database.url).password;
const running = new Set<Worker>();
after(async () => {
  await stopWorkers();
  await database.stop();
  rmSync(ROOT, { recursive: true, force: true });
});

/** Ends the workers still running (a test that failed half way), each by its own pid. */
async function stopWorkers(): Promise<void> {
  const left = [...running];
  for (const worker of left) worker.child.kill('SIGKILL');
  await Promise.all(left.map((worker) => worker.exit));
}

let dirs = 0;
function freshDir(): string {
  const dir = join(ROOT, `run-${++dirs}`);
  mkdirSync(dir);
  return dir;
}

interface Worker {
  readonly child: ChildProcess;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its `--out` (written only if it finished the crawl) and `--feeds`. */
  readonly out: string;
  readonly feeds: string;
  stderr(): string;
}

/** `waymark crawl …` in a process of its own. */
function startWorker(
  args: readonly string[],
  dir: string,
  index: number,
  env: Record<string, string> = {},
): Worker {
  const out = join(dir, `sitemap-${index}.xml`);
  const feeds = join(dir, `feeds-${index}.txt`);
  const child = spawn(
    process.execPath,
    [BIN, 'crawl', ...args, '--out', out, '--feeds', feeds, '--json-log'],
    { env: { ...process.env, TMPDIR: WORKER_TMP, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const worker: Worker = {
    child,
    out,
    feeds,
    stderr: () => stderr,
    exit: new Promise((resolve) =>
      child.once('close', (code, signal) => {
        running.delete(worker);
        resolve({ code, signal });
      }),
    ),
  };
  running.add(worker);
  return worker;
}

/** `promise`, or a failure naming the worker that ended before it settled. */
async function whileAllRun<T>(workers: readonly Worker[], promise: Promise<T>): Promise<T> {
  const ended = workers.map((worker, i) =>
    worker.exit.then(({ code, signal }) => {
      throw new Error(`worker ${i} ended early (${code ?? signal}):\n${worker.stderr()}`);
    }),
  );
  return Promise.race([promise, ...ended]);
}

/**
 * The creating worker (`--state`, the start URL and the crawl's options), and, once the crawl
 * exists in the database, the joiners (`--join`, the connection string from WAYMARK_STATE,
 * only this worker's own options).
 */
async function startCrawl(
  name: string,
  start: string,
  shared: readonly string[],
  own: readonly string[],
  dir: string,
): Promise<Worker[]> {
  const creator = startWorker(
    [start, '--state', database.url, '--crawl', name, ...shared, ...own],
    dir,
    0,
  );
  await whileAllRun([creator], crawlCreated(name));
  const joiners = Array.from({ length: WORKERS - 1 }, (_, i) =>
    startWorker(['--crawl', name, '--join', ...own], dir, i + 1, { WAYMARK_STATE: database.url }),
  );
  return [creator, ...joiners];
}

/** Resolves once the creating worker has made the crawl. */
async function crawlCreated(name: string): Promise<void> {
  while ((await statusOf(name)).code !== 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function statusOf(name: string) {
  return runCliForTest(['crawl', 'status', '--state', database.url, '--crawl', name, '--json']);
}

interface CrawlStatus {
  finishedAt: string | null;
  counts: { queued: number; inFlight: number; done: number; seen: number };
  requested: number;
  workers: { pid: number; alive: boolean; requested: number }[];
}

async function status(name: string): Promise<CrawlStatus> {
  const result = await statusOf(name);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as CrawlStatus;
}

interface Done {
  summary: CrawlSummary;
  written: string | null;
}

/** The `done` record of a worker's JSON log (a notice may follow it). */
function doneRecord(log: string): Done {
  const done = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string })
    .find((record) => record.type === 'done');
  assert.ok(done !== undefined, `no done record in ${log}`);
  return done as unknown as Done;
}

/** Waits for the workers; each must end with 0. Exactly one wrote the sitemap: its file. */
async function finished(workers: readonly Worker[]): Promise<{ done: Done[]; writer: Worker }> {
  const done: Done[] = [];
  for (const worker of workers) {
    const { code, signal } = await worker.exit;
    assert.equal(code, 0, `exit ${code ?? signal}:\n${worker.stderr()}`);
    assert.ok(!worker.stderr().includes(PASSWORD), 'the password is never shown');
    done.push(doneRecord(worker.stderr()));
  }
  const writers = workers.filter((_, i) => done[i]?.written != null);
  assert.equal(writers.length, 1, 'one worker writes the sitemap');
  const writer = writers[0] as Worker;
  assert.deepEqual(
    readdirSync(dirname(writer.out)).filter((file) => file.startsWith('sitemap-')),
    [basename(writer.out)],
    'no other worker wrote one',
  );
  return { done, writer };
}

/** One process, its state in an SQLite file: the answers the workers must give. */
async function crawlAlone(start: string, shared: readonly string[], dir: string) {
  const out = join(dir, 'alone.xml');
  const feeds = join(dir, 'alone-feeds.txt');
  const result = await runCliForTest([
    'crawl',
    start,
    ...shared,
    '--state',
    join(dir, 'alone.db'),
    '--out',
    out,
    '--feeds',
    feeds,
    '--json-log',
  ]);
  assert.equal(result.code, 0, result.stderr);
  return { sitemap: readFileSync(out, 'utf8'), feeds, done: doneRecord(result.stderr) };
}

/**
 * Resolves once the site holds `--concurrency` pages of every worker (see `holdAfter`): then
 * each worker has taken part, and has pages in flight.
 */
async function everyWorkerInFlight(
  site: SharedCrawlSite,
  workers: readonly Worker[],
): Promise<void> {
  await whileAllRun(workers, site.whenHeld(WORKERS * CONCURRENCY));
}

function locs(sitemap: string): string[] {
  return [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] as string);
}

test(
  'politeness is global: the gap, robots.txt once, Retry-After for everyone',
  TIMEOUT,
  async () => {
    // Crawl-delay 0.3 s raises the gap of --rate 10 (100 ms) to 300 ms. Two requests from all
    // workers together may arrive up to TOLERANCE closer than that: a request leaves a moment
    // after the step that booked it (the transaction's answer, a connection to open), and that
    // moment varies by tens of ms on a busy shared machine. 100 ms stays clear of what a broken
    // schedule gives: --rate alone spaces requests 100 ms apart, and three workers keeping
    // their own schedules send three requests in each 300 ms.
    const GAP = 300;
    const TOLERANCE = 100;
    const site = await startSharedCrawlSite({
      pages: 16,
      crawlDelay: GAP / 1000,
      unavailableOnce: ['/p/9'],
    });
    const dir = freshDir();
    try {
      site.holdAfter(7);
      const workers = await startCrawl(
        'polite',
        site.url('/'),
        ['--rate', '10'],
        ['--concurrency', String(CONCURRENCY)],
        dir,
      );
      await everyWorkerInFlight(site, workers);
      site.release();
      await finished(workers);

      const times = site.server.requests.map((request) => `${request.time} ${request.path}`);
      const arrivals = site.server.requests.map((request) => request.time);
      const gaps = arrivals.slice(1).map((time, i) => time - (arrivals[i] as number));
      assert.ok(
        gaps.every((gap) => gap >= GAP - TOLERANCE),
        `requests closer than ${GAP - TOLERANCE} ms:\n${times.join('\n')}`,
      );
      // The request after the 503 waited out its Retry-After: 1 (with the same tolerance).
      const unavailable = site.server.requests.findIndex((request) => request.path === '/p/9');
      assert.ok(
        (gaps[unavailable] ?? 0) >= 1000 - TOLERANCE,
        `Retry-After: 1, yet ${gaps[unavailable]} ms to the next request:\n${times.join('\n')}`,
      );

      const counts = site.requestCounts();
      assert.equal(counts.get('/robots.txt'), 1, 'robots.txt is fetched once for the whole crawl');
      assert.equal(counts.get('/p/9'), 2, 'the page that answered 503 is asked for again, once');
      const pages = ['/', ...Array.from({ length: 15 }, (_, n) => `/p/${n + 1}`)];
      for (const page of pages) assert.ok(counts.has(page), `${page} was crawled`);
      for (const [path, n] of counts) {
        if (path !== '/p/9') assert.equal(n, 1, `${path} requested ${n} times`);
      }

      const crawl = await status('polite');
      assert.notEqual(crawl.finishedAt, null);
      assert.equal(crawl.workers.length, WORKERS);
      assert.ok(
        crawl.workers.filter((worker) => worker.requested > 0).length >= 2,
        `several workers crawled: ${JSON.stringify(crawl.workers)}`,
      );
      assert.deepEqual(readdirSync(WORKER_TMP), []);
    } finally {
      await stopWorkers();
      await site.close();
    }
  },
);

describe('kill -9 of a worker mid-crawl', () => {
  let site: SharedCrawlSite;
  let alone: Awaited<ReturnType<typeof crawlAlone>>;
  let from: number;
  let killed: Worker;
  let result: Awaited<ReturnType<typeof finished>>;

  before(async () => {
    site = await startSharedCrawlSite({ pages: 40 });
    const dir = freshDir();
    alone = await crawlAlone(site.url('/'), ['--rate', '0'], dir);
    from = site.server.requests.length;
    site.holdAfter(7);
    const workers = await startCrawl(
      'killed',
      site.url('/'),
      ['--rate', '0'],
      ['--concurrency', String(CONCURRENCY), '--worker-timeout', '2s'],
      dir,
    );
    await everyWorkerInFlight(site, workers);
    const [creator, joiner, other] = workers as [Worker, Worker, Worker];
    killed = joiner;
    killed.child.kill('SIGKILL');
    assert.equal((await killed.exit).signal, 'SIGKILL');
    site.release();
    result = await finished([creator, other]);
  }, TIMEOUT);
  after(async () => {
    await stopWorkers();
    await site?.close();
  });

  test('the others finish, and write the sitemap one process writes', () => {
    assert.equal(readFileSync(result.writer.out, 'utf8'), alone.sitemap);
    assert.deepEqual(readdirSync(WORKER_TMP), []);
  });

  test('they took its pages in flight after --worker-timeout, and asked for nothing else twice', () => {
    const twice = [...site.requestCounts(from)].filter(([, n]) => n > 1);
    assert.equal(twice.length, CONCURRENCY, JSON.stringify(twice));
    assert.ok(twice.every(([, n]) => n === 2));
  });

  test('crawl status: finished, and the killed worker gone', async () => {
    const crawl = await status('killed');
    assert.notEqual(crawl.finishedAt, null);
    assert.deepEqual(
      { queued: crawl.counts.queued, inFlight: crawl.counts.inFlight },
      { queued: 0, inFlight: 0 },
    );
    const gone = crawl.workers.find((worker) => worker.pid === killed.child.pid);
    assert.equal(gone?.alive, false, JSON.stringify(crawl.workers));
  });
});

test(
  'a restart of PostgreSQL mid-crawl: the workers wait, reconnect and finish',
  TIMEOUT,
  async () => {
    const site = await startSharedCrawlSite({ pages: 40 });
    const dir = freshDir();
    try {
      const alone = await crawlAlone(site.url('/'), ['--rate', '0'], dir);
      const from = site.server.requests.length;
      site.holdAfter(7);
      const workers = await startCrawl(
        'restarted',
        site.url('/'),
        ['--rate', '0'],
        ['--concurrency', String(CONCURRENCY)],
        dir,
      );
      await everyWorkerInFlight(site, workers);
      // The server begins its shutdown at once; the pages answered now come back to workers
      // whose database is going away.
      const restarted = database.restart();
      site.release();
      await restarted;
      const { writer } = await finished(workers);

      const sitemap = readFileSync(writer.out, 'utf8');
      assert.equal(sitemap, alone.sitemap);
      assert.equal(new Set(locs(sitemap)).size, locs(sitemap).length, 'no page is listed twice');
      for (const [path, n] of site.requestCounts(from))
        assert.equal(n, 1, `${path} requested ${n} times`);
      assert.ok(
        workers.some((worker) => /the database is away/.test(worker.stderr())),
        workers.map((worker) => worker.stderr()).join('\n'),
      );
      assert.deepEqual(readdirSync(WORKER_TMP), []);
    } finally {
      await stopWorkers();
      await site.close();
    }
  },
);

// On a site of this file's own rather than fixture-site.ts: that one has no feeds, and its
// pages cannot be held until every worker has some (its stalled page would also hold a
// worker for the whole --timeout).
describe('the workers give the answers one process gives', () => {
  const SHARED = ['--rate', '0', '--max-depth', '5'];
  let site: SharedCrawlSite;
  let dir: string;
  let alone: Awaited<ReturnType<typeof crawlAlone>>;
  let from: number;
  let result: Awaited<ReturnType<typeof finished>>;

  before(async () => {
    site = await startSharedCrawlSite({ pages: 31, traps: true });
    dir = freshDir();
    alone = await crawlAlone(site.url('/'), SHARED, dir);
    from = site.server.requests.length;
    site.holdAfter(7);
    const workers = await startCrawl(
      'answers',
      site.url('/'),
      SHARED,
      ['--concurrency', String(CONCURRENCY)],
      dir,
    );
    await everyWorkerInFlight(site, workers);
    site.release();
    result = await finished(workers);
  }, TIMEOUT);
  after(async () => {
    await stopWorkers();
    await site?.close();
  });

  test('the site has something under every heading', () => {
    const { summary } = alone.done;
    assert.deepEqual(Object.keys(summary.skipped).sort(), [
      'canonical-elsewhere',
      'client-error',
      'noindex-header',
      'noindex-meta',
      'non-html',
      'redirect',
      'redirect-off-origin',
      'robots-disallowed',
      'server-error',
      'too-many-redirects',
    ]);
    assert.equal(summary.errors, 1);
    assert.ok(summary.sitemapComparison !== null);
    assert.ok(summary.sitemapComparison.orphans > 0 && summary.sitemapComparison.missing > 0);
    assert.deepEqual(summary.truncated, { maxPages: null, maxDepth: { limit: 5, links: 1 } });
    assert.ok(summary.feeds.length >= 4, JSON.stringify(summary.feeds));
  });

  test('the sitemap', () => {
    assert.equal(readFileSync(result.writer.out, 'utf8'), alone.sitemap);
  });

  test('robots.txt, the sitemaps and every page were each requested once', () => {
    const counts = site.requestCounts(from);
    for (const path of ['/robots.txt', '/sitemap_index.xml', '/sitemap-1.xml.gz', '/p/30']) {
      assert.ok(counts.has(path), path);
    }
    for (const [path, n] of counts) assert.equal(n, 1, `${path} requested ${n} times`);
  });

  test("every worker's summary: the same counts, skip reasons and comparison", () => {
    const answers = (summary: CrawlSummary) => {
      const { durationMs: _took, rate: _rate, feeds: _feeds, ...rest } = summary;
      return rest;
    };
    // Every worker's summary is the whole crawl's.
    for (const done of result.done)
      assert.deepEqual(answers(done.summary), answers(alone.done.summary));
  });

  test('the finishing worker names the same feeds', () => {
    const written = result.done.find((done) => done.written !== null);
    assert.deepEqual(written?.summary.feeds, alone.done.summary.feeds);
    assert.equal(readFileSync(result.writer.feeds, 'utf8'), readFileSync(alone.feeds, 'utf8'));
  });

  test('crawl export writes the same sitemap; crawl status says it is finished', async () => {
    const out = join(dir, 'export.xml');
    const exported = await runCliForTest([
      'crawl',
      'export',
      '--state',
      database.url,
      '--crawl',
      'answers',
      '--out',
      out,
    ]);
    assert.equal(exported.code, 0, exported.stderr);
    const written = readFileSync(result.writer.out, 'utf8');
    assert.equal(readFileSync(out, 'utf8'), written);
    const outDir = join(dir, 'export');
    mkdirSync(outDir);
    const intoDir = await runCliForTest([
      'crawl',
      'export',
      '--state',
      database.url,
      '--crawl',
      'answers',
      '--out-dir',
      outDir,
    ]);
    assert.equal(intoDir.code, 0, intoDir.stderr);
    // --out-dir writes the same URLs, unindented.
    assert.deepEqual(locs(readFileSync(join(outDir, 'sitemap.xml'), 'utf8')), locs(written));

    const crawl = await status('answers');
    assert.notEqual(crawl.finishedAt, null);
    assert.deepEqual(
      { queued: crawl.counts.queued, inFlight: crawl.counts.inFlight },
      { queued: 0, inFlight: 0 },
    );
    assert.equal(
      crawl.requested,
      result.done.find((done) => done.written !== null)?.summary.fetched,
    );
    assert.equal(crawl.workers.length, WORKERS);
  });

  test('a --join with an option the crawl does not have is refused, naming it', async () => {
    const requests = site.server.requests.length;
    const refused = await runCliForTest([
      'crawl',
      '--state',
      database.url,
      '--crawl',
      'answers',
      '--join',
      '--max-depth',
      '7',
    ]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /\(--max-depth\): stored 5, given 7/);
    assert.ok(!refused.stderr.includes(PASSWORD));
    assert.equal(site.server.requests.length, requests, 'no request was made');
  });

  test('a --join of a crawl that does not exist exits 2', async () => {
    const missing = await runCliForTest([
      'crawl',
      '--state',
      database.url,
      '--crawl',
      'no-such-crawl',
      '--join',
    ]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /no crawl named "no-such-crawl"/);
  });
});
