// What only the SQLite state does: the file (lock, schema version, temporary file, resume,
// kill -9) and politeness on an injected clock, to the millisecond. What every state does is
// in the shared conformance suite (sqlite-crawl-state-conformance.test.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import type { CrawlState, StepRequest } from './crawl-state.ts';
import { MAX_COUNTED_INLINKS } from './internal/report-counts.ts';
import { IN_FLIGHT } from './internal/sqlite-schema.ts';
import {
  openSqliteCrawlState,
  type SqliteCrawlState,
  type SqliteCrawlStateOptions,
} from './sqlite-crawl-state.ts';
import {
  drain,
  finished,
  LISTED,
  page,
  robotsOf,
  step,
  urls,
} from './test-support/conformance/helpers.ts';
import { linksOf, parentOf, seedUrls } from './test-support/crawl-state-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-state-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** A fresh state file path. */
const fresh = () => join(dir, `state-${files++}.db`);

const A = 'https://a.test';
const B = 'https://b.test';

async function withState(
  fn: (state: SqliteCrawlState) => Promise<void>,
  options: Partial<SqliteCrawlStateOptions> = {},
): Promise<void> {
  const state = openSqliteCrawlState(null, { resume: false, ...options });
  try {
    await fn(state);
  } finally {
    await state.close();
  }
}

async function resultsOf(state: CrawlState) {
  const all = [];
  for await (const result of state.results()) all.push(result);
  return all;
}

test('politeness runs on the injected clock, to the millisecond', async () => {
  let now = 10_000;
  await withState(
    async (state) => {
      await state.create({ start: `${A}/`, options: '{}', gapMs: 1_000 });
      assert.equal((await state.crawl())?.createdAt, 10_000);
      await state.add([1, 2, 3].map((i) => page(`${A}/${i}`)));
      await state.add([page(`${B}/1`)]);
      // The robots.txt request is booked at 10,000: the next waits a crawl gap.
      assert.deepEqual((await step(state, { take: 5 })).robots, [A, B]);
      now = 10_050;
      // Crawl-delay raises a's gap to 3 s, counted from its robots.txt request.
      await state.settleRobots(A, robotsOf(A, 3_000));
      await state.settleRobots(B, robotsOf(B, 1_500));
      let result = await step(state, { take: 5 });
      assert.deepEqual(result.taken, []);
      assert.equal(result.waitMs, 1_450, "b's turn: 10,000 + 1,500");
      now = 11_500;
      result = await step(state, { take: 5 });
      assert.deepEqual(urls(result.taken), [`${B}/1`]);
      assert.equal(result.waitMs, 1_500, "b has nothing left; a's turn comes at 13,000");
      assert.equal(await state.reserve(B), 1_500, 'b was booked at 11,500');
      now = 12_999;
      assert.equal((await step(state, { take: 5 })).waitMs, 1);
      now = 13_000;
      result = await step(state, { take: 5 });
      assert.deepEqual(urls(result.taken), [`${A}/1`], 'one item a step');
      assert.equal(result.waitMs, 3_000);
      // A late step takes one item, and books from when it ran, not from the missed turn.
      now = 20_000;
      assert.deepEqual(urls((await step(state, { take: 5 })).taken), [`${A}/2`]);
      now = 22_999;
      assert.deepEqual((await step(state, { take: 5 })).taken, []);
      // Retry-After holds the host past its turn.
      now = 23_000;
      const [three] = (await step(state, { take: 5 })).taken;
      assert.ok(three);
      result = await step(state, { released: [{ item: three, notBefore: 30_000 }], take: 5 });
      assert.deepEqual(result.taken, []);
      assert.equal(result.waitMs, 7_000);
      now = 29_999;
      assert.deepEqual((await step(state, { take: 5 })).taken, []);
      now = 30_000;
      const again = (await step(state, { take: 5 })).taken;
      assert.deepEqual(urls(again), [`${A}/3`]);
      assert.equal(again[0]?.attempt, 2);
    },
    { now: () => now },
  );
});

test('hosts whose turn came at the same instant give items in the order they were first seen', async () => {
  let now = 0;
  await withState(
    async (state) => {
      await state.create({ start: `${B}/`, options: '{}', gapMs: 100 });
      await state.add([page(`${B}/1`), page(`${A}/1`), page(`${B}/2`), page(`${A}/2`)]);
      for (const origin of [A, B]) {
        assert.equal(await state.claimRobots(origin), 'fetch');
        await state.settleRobots(origin, robotsOf(origin, 100));
      }
      now = 100;
      assert.deepEqual(urls((await step(state, { take: 5 })).taken), [`${B}/1`, `${A}/1`]);
      now = 200;
      assert.deepEqual(urls((await step(state, { take: 1 })).taken), [`${B}/2`]);
      // a's turn (200) came before b's (300): a first, whatever the order of first sight.
      now = 400;
      await state.add([page(`${B}/3`)]);
      assert.deepEqual(urls((await step(state, { take: 5 })).taken), [`${A}/2`, `${B}/3`]);
    },
    { now: () => now },
  );
});

test('a custom normaliser decides which URLs are the same; the URL as added is handed back', async () => {
  await withState(
    async (state) => {
      await state.add([page(`${A}/A`)]);
      assert.equal(await state.add([page(`${A}/a`)]), 0);
      await state.settleRobots(A, robotsOf(A, 0));
      assert.deepEqual(urls((await step(state, { take: 5 })).taken), [`${A}/A`]);
    },
    { normalizeUrl: (url: string) => url.toLowerCase() },
  );
});

test('results are read a page at a time, in URL order, while other calls go on', async () => {
  await withState(async (state) => {
    const all = Array.from({ length: 700 }, (_, i) => `${A}/${String(i).padStart(4, '0')}`);
    await state.add(all.map((url) => page(url)));
    await state.settleRobots(A, robotsOf(A, 0));
    const { taken } = await step(state, { take: 600 });
    await step(state, { finished: taken.map((item) => finished(item)) });
    const read: string[] = [];
    for await (const result of state.results()) {
      read.push(result.url);
      // Results recorded while the reading goes on are read when their place is still ahead.
      if (read.length === 1) {
        const rest = (await step(state, { take: 100 })).taken;
        await step(state, { finished: rest.map((item) => finished(item)) });
      }
    }
    assert.deepEqual(read, all);
  });
});

test('resume continues a crawl: the record and counters kept, in-flight items queued again', async () => {
  const path = fresh();
  let now = 1_000;
  const clock = { now: () => now };
  let state = openSqliteCrawlState(path, { resume: true, ...clock });
  assert.equal(state.resumed, false, 'nothing to resume');
  await state.create({ start: `${A}/`, options: '{"depth":3}', gapMs: 0 });
  await state.add(
    ['/1', '/2', '/3', '/4'].map((p, i) => page(`${A}${p}`, { depth: i, redirects: i })),
  );
  await state.add([page(`${B}/1`), page(`${B}/2`)]);
  await state.settleRobots(A, robotsOf(A, 0));
  await state.settleRobots(B, robotsOf(B, 0));
  await state.claimSitemaps();
  await state.settleSitemaps(7);
  const taken = (await step(state, { take: 5 })).taken;
  assert.deepEqual(urls(taken), [`${A}/1`, `${A}/2`, `${A}/3`, `${A}/4`, `${B}/1`]);
  const [one, two] = taken;
  const b1 = taken.find((item) => item.url === `${B}/1`);
  assert.ok(one && two && b1);
  await step(state, {
    finished: [finished(one, { depthCut: 2 })],
    released: [{ item: b1, notBefore: 5_000 }],
  });
  assert.deepEqual(await state.counts(), { queued: 2, inFlight: 3, done: 1, seen: 6 });
  await state.close();
  await state.close();
  await assert.rejects(step(state, { take: 1 }), /closed/);
  // close queued the items in flight again, in the file.
  const db = new DatabaseSync(path);
  assert.equal(
    db.prepare(`SELECT count(*) AS n FROM urls WHERE state = ${IN_FLIGHT}`).get()?.['n'],
    0,
  );
  db.close();

  now = 2_000;
  state = openSqliteCrawlState(path, { resume: true, ...clock });
  assert.equal(state.resumed, true);
  assert.deepEqual(await state.counts(), { queued: 5, inFlight: 0, done: 1, seen: 6 });
  const record = await state.crawl();
  assert.deepEqual(record, {
    start: `${A}/`,
    options: '{"depth":3}',
    gapMs: 0,
    createdAt: 1_000,
    sitemapsRead: true,
    sitemapUrls: 7,
    depthCut: 2,
    requested: 1,
    finishedAt: null,
  });
  assert.equal(await state.claimSitemaps(), false, 'read');
  // Hosts are forgotten: robots.txt again; b is still held by its Retry-After.
  assert.equal(await state.robots(A), null);
  const first = await step(state, { take: 10 });
  assert.deepEqual(first.taken, []);
  assert.deepEqual(first.robots, [A, B]);
  await state.settleRobots(A, robotsOf(A, 0));
  await state.settleRobots(B, robotsOf(B, 0));
  const rest = await step(state, { take: 10 });
  assert.deepEqual(urls(rest.taken), [`${A}/2`, `${A}/3`, `${A}/4`]);
  assert.equal(rest.taken[0]?.attempt, 2, 'the interrupted take counts');
  assert.deepEqual(
    rest.taken.map((item) => item.redirects),
    [1, 2, 3],
    'redirects kept in the file',
  );
  assert.equal(rest.taken[0]?.id, two.id);
  assert.equal(rest.waitMs, 3_000);
  // A result of the take before the resume is not recorded: that lease is gone.
  const late = await step(state, { finished: [finished(two)] });
  assert.equal(late.lost, 1);
  now = 5_000;
  assert.deepEqual(urls((await step(state, { take: 10 })).taken), [`${B}/1`, `${B}/2`]);
  assert.equal(await state.add([page(`${A}/1`)]), 0);
  await state.close();

  state = openSqliteCrawlState(path, { resume: false });
  assert.equal(state.resumed, false);
  assert.equal(await state.crawl(), null);
  assert.deepEqual(await state.counts(), { queued: 0, inFlight: 0, done: 0, seen: 0 });
  assert.equal(await state.add([page(`${A}/1`)]), 1);
  await state.close();
});

test('a step that fails in the database changes nothing, in the file or in memory', async () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: false });
  await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
  await state.close();
  // A real failure inside the transaction, at a take after the results and releases.
  const db = new DatabaseSync(path);
  db.exec(`CREATE TRIGGER boom BEFORE UPDATE OF state ON urls
    WHEN NEW.state = ${IN_FLIGHT} AND OLD.key LIKE '%/boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  db.close();
  state = openSqliteCrawlState(path, { resume: true });
  try {
    await state.add([page(`${A}/1`), page(`${A}/2`), page(`${B}/1`), page(`${B}/boom`)]);
    await state.settleRobots(A, robotsOf(A, 0));
    await state.settleRobots(B, robotsOf(B, 0));
    const [one, two] = (await step(state, { take: 2 })).taken;
    assert.ok(one && two);
    const before = await state.counts();
    await assert.rejects(
      step(state, {
        finished: [finished(one, { discovered: [page('https://c.test/1')], depthCut: 3 })],
        released: [{ item: two, notBefore: Date.now() + 3_600_000 }],
        take: 10,
      }),
      (error) =>
        isWaymarkError(error) && error.code === 'io-failed' && /boom/.test(String(error.cause)),
    );
    assert.deepEqual(await state.counts(), before);
    assert.equal(await state.reserve(A), 0, 'the hold on a was undone');
    const after = await step(state, { finished: [finished(one)], take: 1 });
    assert.equal(after.lost, 0, 'still in flight');
    assert.equal(after.requested, 1);
    assert.deepEqual(urls(after.taken), [`${B}/1`], 'b/1 was queued again');
    assert.deepEqual(after.robots, [], 'c.test was never queued');
    assert.equal((await state.crawl())?.depthCut, 0);
    assert.deepEqual(await state.counts(), { queued: 1, inFlight: 2, done: 1, seen: 4 });
  } finally {
    await state.close();
  }
});

test('sitemaps given up are claimed again by the next state opened; a finish stays claimed', async () => {
  const path = fresh();
  let now = 1_000;
  let state = openSqliteCrawlState(path, { resume: false, now: () => now });
  await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
  assert.equal(await state.claimSitemaps(), true);
  await state.settleSitemaps(null);
  now = 1_500;
  assert.equal(await state.claimFinish(), true);
  await state.close();
  state = openSqliteCrawlState(path, { resume: true });
  assert.equal((await state.crawl())?.finishedAt, 1_500);
  assert.equal(await state.claimFinish(), false, 'claimed once per crawl, across resumes');
  assert.equal(await state.claimSitemaps(), true);
  await state.close();
});

test('a state file is locked while open, and other files are refused', async () => {
  const path = fresh();
  const state = openSqliteCrawlState(path, { resume: false });
  assert.throws(
    () => openSqliteCrawlState(path, { resume: true }),
    (error) => isWaymarkError(error) && /in use by another process/.test(error.message),
  );
  await state.close();

  const other = fresh();
  const db = new DatabaseSync(other);
  db.exec('CREATE TABLE precious (x); INSERT INTO precious VALUES (1)');
  db.close();
  for (const resume of [false, true]) {
    assert.throws(
      () => openSqliteCrawlState(other, { resume }),
      (error) => isWaymarkError(error) && /not a waymark crawl state/.test(error.message),
    );
  }
  const text = fresh();
  writeFileSync(text, 'not a database, but a long enough text to have a header\n'.repeat(20));
  assert.throws(
    () => openSqliteCrawlState(text, { resume: false }),
    (error) => isWaymarkError(error) && error.code === 'invalid-argument',
  );
});

test('a state of an older schema is refused on resume and replaced without', async () => {
  const path = fresh();
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA application_id = ${0x57594d43}; PRAGMA user_version = 2;
    CREATE TABLE urls (id INTEGER PRIMARY KEY); CREATE TABLE origins (origin TEXT);`);
  db.close();
  assert.throws(
    () => openSqliteCrawlState(path, { resume: true }),
    (error) =>
      isWaymarkError(error) &&
      error.code === 'invalid-argument' &&
      /schema version 2, this waymark reads 5; start afresh without resume/.test(error.message),
  );
  const state = openSqliteCrawlState(path, { resume: false });
  assert.equal(await state.add([page(`${A}/1`)]), 1);
  await state.close();
});

test('a temporary state is deleted on close', async () => {
  const state = openSqliteCrawlState(null, { resume: false });
  await state.add([page(`${A}/`)]);
  assert.ok(existsSync(state.path));
  assert.equal(state.location, state.path);
  await state.close();
  assert.ok(!existsSync(state.path));
});

test('misuse is refused before anything changes', async () => {
  await withState(async (state) => {
    await state.add([page(`${A}/1`), page(`${A}/2`)]);
    await state.settleRobots(A, robotsOf(A, 0));
    const [one] = (await step(state, { take: 1 })).taken;
    assert.ok(one);
    const bad: [Partial<StepRequest>, RegExp][] = [
      [{ finished: [finished(one, { result: { ...LISTED, data: {} as string } })] }, /data must/],
      [
        { finished: [finished(one, { result: { ...LISTED, outcome: 'ok' as 'listed' } })] },
        /outcome/,
      ],
      [{ finished: [finished(one, { result: { ...LISTED, status: 2.5 } })] }, /status/],
      [{ finished: [finished(one, { depthCut: -1 })] }, /depthCut/],
      [{ finished: [finished(one, { item: { ...one, id: Number.NaN } })] }, /not an item taken/],
      [{ released: [{ item: one, notBefore: Number.NaN }] }, /notBefore/],
    ];
    for (const [request, message] of bad) {
      await assert.rejects(step(state, { ...request, take: 1 }), message);
    }
    await assert.rejects(state.settleRobots(A, robotsOf(A, -1)), /gapMs/);
    await assert.rejects(state.settleRobots('', robotsOf(A, 0)), /origin/);
    await assert.rejects(state.reserve(''), /origin/);
    await assert.rejects(state.settleSitemaps(-1), /sitemapUrls/);
    await assert.rejects(state.create({ start: '', options: '{}', gapMs: 0 }), /start URL/);
    await assert.rejects(
      state.create({ start: `${A}/`, options: '{}', gapMs: Number.NaN }),
      /gapMs/,
    );
    assert.deepEqual(await state.counts(), { queued: 1, inFlight: 1, done: 0, seen: 2 });
    assert.equal((await step(state, { finished: [finished(one)] })).lost, 0);
  });
});

/** Runs the child crawler on `path` and kills it at a random moment once it has started. */
async function crawlAndKill(path: string, resume: boolean, log: string): Promise<void> {
  const script = new URL('./test-support/crawl-state-child.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, path, resume ? '1' : '0', log], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.once('data', () => {
    setTimeout(() => child.kill('SIGKILL'), 100 + Math.random() * 150);
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  assert.equal(signal, 'SIGKILL', `the child ended by itself (code ${code})`);
}

test('kill -9 mid-crawl loses nothing, repeats nothing and corrupts nothing', async () => {
  const path = fresh();
  const log = `${path}.log`;
  // Each kill lands at a random step; three make a torn step very likely to be caught.
  await crawlAndKill(path, false, log);
  await crawlAndKill(path, true, log);
  await crawlAndKill(path, true, log);
  const logged = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  assert.ok(logged.length > 0);

  const db = new DatabaseSync(path);
  assert.equal(db.prepare('PRAGMA integrity_check').get()?.['integrity_check'], 'ok');
  db.close();

  // A clock far ahead, so items held back by a release are queued too.
  const state = openSqliteCrawlState(path, { resume: true, now: () => Number.MAX_SAFE_INTEGER });
  try {
    const counts = await state.counts();
    assert.equal(counts.inFlight, 0);
    const done = new Map((await resultsOf(state)).map((result) => [result.url, result.depth]));
    const all = { take: Number.MAX_SAFE_INTEGER };
    for (const origin of (await step(state, all)).robots) {
      await state.settleRobots(origin, robotsOf(origin, 0));
    }
    const queued = (await step(state, all)).taken;
    assert.equal(done.size, counts.done);
    assert.equal(queued.length, counts.queued, 'every queued item can be taken');
    assert.equal(counts.seen, done.size + queued.length);
    assert.equal((await state.crawl())?.requested, done.size, 'the counter kept up');

    // Each result the child saw committed is recorded, and never queued again.
    for (const url of logged) assert.ok(done.has(url), `lost result of ${url}`);
    for (const item of queued) assert.ok(!done.has(item.url), `done yet queued: ${item.url}`);

    // Links and the page they came from were recorded together, each way round.
    const seen = new Set([...done.keys(), ...urls(queued)]);
    for (const url of seedUrls()) assert.ok(seen.has(url), `lost seed ${url}`);
    for (const url of seen) {
      const parent = parentOf(url);
      if (parent !== null) assert.ok(done.has(parent), `link ${url} without its page`);
    }
    for (const [url, depth] of done) {
      for (const link of linksOf(url, depth)) assert.ok(seen.has(link), `page without ${link}`);
    }
  } finally {
    await state.close();
  }
});

test('links to a URL at the in-link cap change nothing; a sitemap entry still counts; a failed step teaches nothing', async () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: false });
  await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
  await state.close();
  // A real failure inside a step's transaction, after the step has marked /menu.
  const db = new DatabaseSync(path);
  db.exec(`CREATE TRIGGER boom BEFORE INSERT ON urls WHEN NEW.key LIKE '%/boom'
    BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  db.close();
  state = openSqliteCrawlState(path, { resume: true });
  const link = (name: string) => page(`${A}/${name}`, { depth: 1, via: `${A}/` });
  const links = (name: string, n: number) => Array.from({ length: n }, () => link(name));
  try {
    await state.add([page(`${A}/`)]);
    await state.settleRobots(A, robotsOf(A, 0));
    const [home] = (await step(state, { take: 1 })).taken;
    assert.ok(home);
    await state.add(links('menu', MAX_COUNTED_INLINKS - 1));
    // This step brings /menu to the cap, then fails: the cap was never reached.
    await assert.rejects(
      step(state, { finished: [finished(home, { discovered: [link('menu'), link('boom')] })] }),
      (error) => isWaymarkError(error) && error.code === 'io-failed',
    );
    await step(state, { finished: [finished(home, { discovered: [link('menu')] })] });
    await state.add(links('menu', 5));
    await state.add([page(`${A}/menu`, { kind: 'sitemap', via: `${A}/sitemap.xml` })]);
    await drain(state);
    const menu = (await resultsOf(state)).find((r) => r.url === `${A}/menu`);
    assert.deepEqual([menu?.inlinks, menu?.sitemaps], [MAX_COUNTED_INLINKS, 1]);
  } finally {
    await state.close();
  }
});

test('links to known URLs are logged, not written into their rows: the WAL grows by little', async () => {
  const path = fresh();
  const state = openSqliteCrawlState(path, { resume: false });
  const link = (i: number) => page(`${A}/p/${i}`, { depth: 1, via: `${A}/` });
  try {
    await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
    await state.settleRobots(A, robotsOf(A, 0));
    await state.add(Array.from({ length: 5000 }, (_, i) => link(i)));
    const walBefore = statSync(`${path}-wal`).size;
    // 100 pages' worth of links, 50 each, to URLs spread over the table. In place, each
    // call rewrote ~50 database pages (1 KiB each) into the WAL: ~5 MB in all.
    for (let call = 0; call < 100; call++) {
      await state.add(Array.from({ length: 50 }, (_, i) => link((i * 97 + call * 13) % 5000)));
    }
    const grown = statSync(`${path}-wal`).size - walBefore;
    assert.ok(grown < 1_000_000, `WAL grew by ${grown} bytes`);
    await drain(state);
    const counted = (await resultsOf(state)).reduce(
      (sum, result) => sum + (result.inlinks ?? 0),
      0,
    );
    assert.equal(counted, 5000 + 100 * 50);
  } finally {
    await state.close();
  }
});

test('logged in-links are folded in at 100,000, survive a resume and are all counted', async () => {
  const path = fresh();
  const link = (i: number) => page(`${A}/p/${i}`, { depth: 1, via: `${A}/` });
  const all = Array.from({ length: 1000 }, (_, i) => link(i));
  let state = openSqliteCrawlState(path, { resume: false });
  try {
    await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
    await state.add(all);
    // 99 calls log 99,000 rows; the 100th reaches 100,000 and folds; one more logs 1,000.
    for (let call = 0; call < 101; call++) await state.add(all);
  } finally {
    await state.close();
  }
  const db = new DatabaseSync(path);
  const logged = db.prepare('SELECT count(*) AS n FROM inlink_log').get()?.['n'];
  const folded = db.prepare(`SELECT inlinks FROM urls WHERE key = '${A}/p/7'`).get()?.['inlinks'];
  db.close();
  assert.deepEqual([logged, folded], [1000, 101]);
  state = openSqliteCrawlState(path, { resume: true });
  try {
    await state.settleRobots(A, robotsOf(A, 0));
    await state.add(all);
    await drain(state);
    const results = await resultsOf(state);
    assert.equal(results.length, 1000);
    assert.ok(results.every((result) => result.inlinks === 103));
  } finally {
    await state.close();
  }
});

test('a URL whose insert was rolled back is inserted by the next link to it', async () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: false });
  await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
  await state.close();
  const db = new DatabaseSync(path);
  db.exec(`CREATE TRIGGER boom BEFORE INSERT ON urls WHEN NEW.key LIKE '%/boom'
    BEGIN SELECT RAISE(ABORT, 'boom'); END`);
  db.close();
  state = openSqliteCrawlState(path, { resume: true });
  const link = (name: string) => page(`${A}/${name}`, { depth: 1, via: `${A}/` });
  try {
    await state.settleRobots(A, robotsOf(A, 0));
    // /x is inserted, then the call fails: /x was never there.
    await assert.rejects(state.add([link('x'), link('x'), link('boom')]));
    assert.equal(await state.add([link('x'), link('x')]), 1);
    await drain(state);
    const x = (await resultsOf(state)).find((r) => r.url === `${A}/x`);
    assert.equal(x?.inlinks, 2);
  } finally {
    await state.close();
  }
});

test('a state of schema version 4 is resumed: it gets the in-link log and version 5', async () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: false });
  const link = (i: number) => page(`${A}/p/${i}`, { depth: 1, via: `${A}/` });
  await state.create({ start: `${A}/`, options: '{}', gapMs: 0 });
  await state.add([link(1), link(1)]);
  await state.close();
  // What a waymark of schema 4 left: no log, counts in the rows.
  let db = new DatabaseSync(path);
  db.exec('DROP TABLE inlink_log; PRAGMA user_version = 4;');
  db.close();
  state = openSqliteCrawlState(path, { resume: true });
  try {
    await state.settleRobots(A, robotsOf(A, 0));
    await state.add([link(1), link(2)]);
    await drain(state);
    const counts = (await resultsOf(state)).map((r) => [r.url, r.inlinks]);
    assert.deepEqual(counts, [
      [`${A}/p/1`, 3],
      [`${A}/p/2`, 1],
    ]);
  } finally {
    await state.close();
  }
  db = new DatabaseSync(path);
  assert.equal(db.prepare('PRAGMA user_version').get()?.['user_version'], 5);
  db.close();
});
