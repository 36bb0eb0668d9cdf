import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { isWaymarkError } from '../shared/waymark-error.ts';
import type { CrawlResultFields, FrontierItem, TakenItem } from './frontier.ts';
import { openSqliteCrawlState, type SqliteCrawlState } from './sqlite-crawl-state.ts';
import { linksOf, parentOf, seedUrls } from './test-support/crawl-state-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-state-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** A fresh state file path. */
const fresh = () => join(dir, `state-${files++}.db`);

const ANY = () => true;
const LISTED: CrawlResultFields = {
  status: 200,
  outcome: 'listed',
  reason: null,
  lastmod: null,
  finalUrl: null,
  data: null,
};

function page(url: string, extra: Partial<FrontierItem> = {}): FrontierItem {
  return {
    url,
    origin: new URL(url).origin,
    priority: 0,
    depth: 0,
    via: null,
    kind: 'page',
    ...extra,
  };
}

const urls = (items: readonly { url: string }[]) => items.map((item) => item.url);

function withState(fn: (state: SqliteCrawlState) => void, options = {}): void {
  const state = openSqliteCrawlState(null, { resume: false, ...options });
  try {
    fn(state);
  } finally {
    state.close();
  }
}

test('take orders by priority, then depth, then first added', () => {
  withState((state) => {
    state.addMany([
      page('https://a.test/p1-d2', { priority: 1, depth: 2 }),
      page('https://a.test/p0-d1-first', { priority: 0, depth: 1 }),
      page('https://a.test/p1-d0', { priority: 1, depth: 0 }),
      page('https://a.test/p0-d1-second', { priority: 0, depth: 1 }),
      page('https://b.test/p0-d0', { priority: 0, depth: 0 }),
      page('https://a.test/p-1-d9', { priority: -1, depth: 9 }),
      page('https://b.test/p0.5-d0', { priority: 0.5, depth: 0 }),
    ]);
    assert.deepEqual(urls(state.take(3, ANY)), [
      'https://a.test/p-1-d9',
      'https://b.test/p0-d0',
      'https://a.test/p0-d1-first',
    ]);
    assert.deepEqual(urls(state.take(10, ANY)), [
      'https://a.test/p0-d1-second',
      'https://b.test/p0.5-d0',
      'https://a.test/p1-d0',
      'https://a.test/p1-d2',
    ]);
    assert.deepEqual(state.take(10, ANY), []);
  });
});

test('take only serves ready origins, asks each once, and caps items per origin', () => {
  withState((state) => {
    for (const origin of ['https://a.test', 'https://b.test', 'https://c.test']) {
      state.addMany([1, 2, 3].map((i) => page(`${origin}/${i}`)));
    }
    const asked: string[] = [];
    const taken = state.take(10, (origin) => {
      asked.push(origin);
      return origin !== 'https://b.test';
    });
    assert.deepEqual(asked.sort(), ['https://a.test', 'https://b.test', 'https://c.test']);
    // Same priority and depth: first added first, not round robin.
    assert.deepEqual(urls(taken), [
      'https://a.test/1',
      'https://a.test/2',
      'https://a.test/3',
      'https://c.test/1',
      'https://c.test/2',
      'https://c.test/3',
    ]);
    assert.deepEqual(
      state.take(10, () => false),
      [],
    );
    assert.equal(state.take(0, ANY).length, 0);
  });
  withState((state) => {
    for (const origin of ['https://a.test', 'https://b.test']) {
      state.addMany([1, 2, 3].map((i) => page(`${origin}/${i}`)));
    }
    assert.deepEqual(urls(state.take(10, ANY, { perOrigin: 1 })), [
      'https://a.test/1',
      'https://b.test/1',
    ]);
    assert.deepEqual(urls(state.take(3, ANY, { perOrigin: 2 })), [
      'https://a.test/2',
      'https://a.test/3',
      'https://b.test/2',
    ]);
  });
});

test('a URL is added once, under its normalised form, whatever became of it', () => {
  withState((state) => {
    assert.equal(state.add(page('https://a.test/x')), true);
    assert.equal(state.add(page('https://a.test/x')), false);
    assert.equal(state.add(page('HTTPS://A.test:443/y/../x#top')), false);
    assert.equal(state.addMany([page('https://a.test/y'), page('https://a.test/y#z')]), 1);
    const [x] = state.take(1, ANY);
    assert.ok(x);
    state.complete(x, LISTED);
    assert.equal(state.add(page('https://a.test/x')), false, 'done');
    const [y] = state.take(1, ANY);
    assert.ok(y);
    assert.equal(state.add(page('https://a.test/y')), false, 'in flight');
    assert.deepEqual(state.counts(), { queued: 0, inFlight: 1, done: 1, seen: 2 });
  });
  // The URL as added is the one handed back; a caller's normaliser decides what is the same.
  withState(
    (state) => {
      state.add(page('https://a.test/A'));
      assert.equal(state.add(page('https://a.test/a')), false);
      assert.deepEqual(urls(state.take(5, ANY)), ['https://a.test/A']);
    },
    { normalizeUrl: (url: string) => url.toLowerCase() },
  );
});

test('complete records the result and its links in one step', () => {
  withState((state) => {
    state.add(page('https://a.test/', { priority: 1 }));
    const [home] = state.take(1, ANY);
    assert.ok(home);
    const links = [
      page('https://a.test/a', { depth: 1, via: 'https://a.test/' }),
      page('https://a.test/', { depth: 1, via: 'https://a.test/' }),
      page('https://b.test/b', { depth: 1, via: 'https://a.test/', kind: 'sitemap' }),
    ];
    const result = { ...LISTED, lastmod: '2024-05-01', data: '{"images":1}' };
    const added = state.complete(home, result, links, { originData: '{"robots":"ok"}' });
    assert.equal(added, 2);
    assert.deepEqual(state.counts(), { queued: 2, inFlight: 0, done: 1, seen: 3 });
    assert.equal(state.originData('https://a.test'), '{"robots":"ok"}');
    assert.deepEqual(
      [...state.results()],
      [
        {
          url: 'https://a.test/',
          kind: 'page',
          depth: 0,
          via: null,
          status: 200,
          outcome: 'listed',
          reason: null,
          lastmod: '2024-05-01',
          finalUrl: null,
          data: '{"images":1}',
          linked: true,
          inSitemap: false,
        },
      ],
    );
    // Completing it again is a mistake, and adds none of the links.
    assert.throws(
      () => state.complete(home, LISTED, [page('https://a.test/late')]),
      (error) => isWaymarkError(error) && error.code === 'invalid-argument',
    );
    // So is a bad link: the page stays in flight, and no link is added.
    const [next] = state.take(1, ANY);
    assert.ok(next);
    assert.throws(
      () =>
        state.complete(next, LISTED, [
          page('https://a.test/ok'),
          { ...page('https://a.test/'), url: 'not a url' },
        ]),
      (error) => isWaymarkError(error) && error.code === 'invalid-argument',
    );
    assert.deepEqual(state.counts(), { queued: 1, inFlight: 1, done: 1, seen: 3 });
    assert.equal(state.add(page('https://a.test/ok')), true, 'was not added');
  });
});

test('release puts an item back at its place, or holds it until notBefore', () => {
  let now = 1_000;
  withState(
    (state) => {
      state.addMany(['/1', '/2', '/3'].map((path) => page(`https://a.test${path}`)));
      const [one, two] = state.take(2, ANY);
      assert.ok(one && two);
      assert.equal(one.attempt, 1);
      state.release(one);
      state.release(two, now + 500);
      assert.deepEqual(state.counts(), { queued: 3, inFlight: 0, done: 0, seen: 3 });
      assert.equal(state.heldUntil(), 1_500);
      const again = state.take(5, ANY);
      assert.deepEqual(urls(again), ['https://a.test/1', 'https://a.test/3']);
      assert.equal(again[0]?.attempt, 2);
      now = 1_499;
      assert.deepEqual(state.take(5, ANY), []);
      now = 1_500;
      const held = state.take(5, ANY);
      assert.deepEqual(urls(held), ['https://a.test/2']);
      assert.equal(held[0]?.attempt, 2);
      assert.equal(state.heldUntil(), null);
      // A notBefore already past queues it at once.
      state.release(held[0] as TakenItem, 1_000);
      assert.deepEqual(urls(state.take(5, ANY)), ['https://a.test/2']);
      state.complete(again[0] as TakenItem, LISTED);
      assert.throws(() => state.release(one, 2_000), /not in flight/);
      // Releasing and taking never changes what was seen.
      assert.deepEqual(state.counts(), { queued: 0, inFlight: 2, done: 1, seen: 3 });
    },
    { now: () => now },
  );
});

test('results stream in URL order', () => {
  withState((state) => {
    const all = ['https://b.test/', 'https://a.test/z', 'https://a.test/a', 'https://a.test/m'];
    state.addMany(all.map((url) => page(url)));
    state.add(page('https://a.test/queued', { priority: 9 }));
    for (const item of state.take(4, ANY)) {
      state.complete(item, { ...LISTED, outcome: 'skipped', reason: 'noindex', status: 200 });
    }
    const results = state.results();
    assert.equal(typeof results.next, 'function');
    assert.deepEqual(urls([...results]), [...all].sort());
    assert.equal([...state.results()][0]?.reason, 'noindex');
  });
});

test('resume continues a crawl; in-flight items are queued again', () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: true });
  assert.equal(state.resumed, false, 'nothing to resume');
  state.setMeta('options', '{"depth":3}');
  state.setOriginData('https://a.test', '{"delay":1}');
  state.addMany(['/1', '/2', '/3', '/4'].map((p, i) => page(`https://a.test${p}`, { depth: i })));
  const [one, two] = state.take(2, ANY);
  assert.ok(one && two);
  state.complete(one, LISTED);
  state.close();
  state.close();
  assert.throws(() => state.take(1, ANY), /closed/);

  state = openSqliteCrawlState(path, { resume: true });
  assert.equal(state.resumed, true);
  assert.deepEqual(state.counts(), { queued: 3, inFlight: 0, done: 1, seen: 4 });
  assert.equal(state.meta('options'), '{"depth":3}');
  assert.equal(state.meta('other'), null);
  assert.equal(state.originData('https://a.test'), '{"delay":1}');
  const rest = state.take(5, ANY);
  assert.deepEqual(urls(rest), ['https://a.test/2', 'https://a.test/3', 'https://a.test/4']);
  assert.equal(rest[0]?.attempt, 2, 'the interrupted take counts');
  assert.equal(rest[0]?.id, two.id);
  assert.equal(state.add(page('https://a.test/1')), false);
  state.close();

  state = openSqliteCrawlState(path, { resume: false });
  assert.equal(state.resumed, false);
  assert.deepEqual(state.counts(), { queued: 0, inFlight: 0, done: 0, seen: 0 });
  assert.equal(state.meta('options'), null);
  assert.equal(state.add(page('https://a.test/1')), true);
  state.close();
});

test('transaction commits its calls together, or none of them', () => {
  const path = fresh();
  let state = openSqliteCrawlState(path, { resume: false });
  state.addMany(['/1', '/2', '/3'].map((p) => page(`https://a.test${p}`)));
  const [one] = state.take(1, ANY);
  assert.ok(one);

  // A throw rolls back every call, the counts with them.
  const before = state.counts();
  assert.throws(
    () =>
      state.transaction(() => {
        state.complete(one, LISTED, [page('https://a.test/new')]);
        assert.equal(state.take(1, ANY).length, 1);
        assert.equal(state.counts().done, 1);
        throw new Error('boom');
      }),
    /boom/,
  );
  assert.deepEqual(state.counts(), before);
  assert.equal(state.add(page('https://a.test/new')), true, 'the link was rolled back');

  // Nested transactions join the outer one; a callback may not open one.
  const taken = state.transaction(() => {
    state.complete(one, LISTED);
    return state.transaction(() =>
      state.take(1, () => {
        assert.throws(() => state.transaction(() => 0), /within its own callback/);
        return true;
      }),
    );
  });
  assert.deepEqual(urls(taken), ['https://a.test/2']);
  state.close();

  state = openSqliteCrawlState(path, { resume: true });
  assert.deepEqual(state.counts(), { queued: 3, inFlight: 0, done: 1, seen: 4 });
  assert.deepEqual(
    [...state.results()].map((r) => [r.url, r.outcome]),
    [['https://a.test/1', 'listed']],
  );
  state.close();
});

test('a state file is locked while open, and other files are refused', () => {
  const path = fresh();
  const state = openSqliteCrawlState(path, { resume: false });
  assert.throws(
    () => openSqliteCrawlState(path, { resume: true }),
    (error) => isWaymarkError(error) && /in use by another process/.test(error.message),
  );
  state.close();

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

test('a temporary state is deleted on close', () => {
  const state = openSqliteCrawlState(null, { resume: false });
  state.add(page('https://a.test/'));
  assert.ok(existsSync(state.path));
  state.close();
  assert.ok(!existsSync(state.path));
});

test('misuse is reported', () => {
  withState((state) => {
    const bad: [Partial<FrontierItem>, RegExp][] = [
      [{ origin: '' }, /origin/],
      [{ priority: Number.NaN }, /priority/],
      [{ depth: -1 }, /depth/],
      [{ depth: 1.5 }, /depth/],
      [{ kind: 'image' as 'page' }, /kind/],
      [{ url: '/relative' }, /not absolute/],
    ];
    for (const [extra, message] of bad) {
      assert.throws(() => state.add({ ...page('https://a.test/'), ...extra }), message);
    }
    state.add(page('https://a.test/'));
    assert.throws(
      () => state.take(1, () => state.add(page('https://a.test/2'))),
      /within its own callback/,
    );
    assert.throws(() => state.take(-1, ANY), /counts >= 0/);
    // The failed take changed nothing.
    assert.deepEqual(state.counts(), { queued: 1, inFlight: 0, done: 0, seen: 1 });
    assert.equal(state.take(1, ANY).length, 1);
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
    const counts = state.counts();
    assert.equal(counts.inFlight, 0);
    const done = new Map([...state.results()].map((result) => [result.url, result.depth]));
    const queued = state.take(Number.MAX_SAFE_INTEGER, ANY);
    assert.equal(done.size, counts.done);
    assert.equal(queued.length, counts.queued, 'every queued item can be taken');
    assert.equal(counts.seen, done.size + queued.length);

    // Each completion the child saw committed is recorded, and never queued again.
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
    state.close();
  }
});

test('a URL both linked and named by a sitemap keeps both facts, in either order', () => {
  const state = openSqliteCrawlState(null, { resume: false });
  try {
    const item = (url: string, kind: 'page' | 'sitemap') => ({
      url,
      origin: 'https://a.test',
      priority: kind === 'page' ? 100 : 10,
      depth: 1,
      via: kind === 'page' ? 'https://a.test/' : 'sitemap',
      kind,
    });
    state.addMany([
      item('https://a.test/both-1', 'sitemap'),
      item('https://a.test/both-2', 'page'),
      item('https://a.test/orphan', 'sitemap'),
      item('https://a.test/unlisted', 'page'),
    ]);
    state.addMany([
      item('https://a.test/both-1', 'page'),
      item('https://a.test/both-2', 'sitemap'),
    ]);
    for (;;) {
      const [taken] = state.take(1, () => true);
      if (taken === undefined) break;
      state.complete(taken, {
        status: 200,
        outcome: 'listed',
        reason: null,
        lastmod: null,
        finalUrl: null,
        data: null,
      });
    }
    assert.deepEqual(
      [...state.results()].map((r) => [r.url.slice(15), r.linked, r.inSitemap]),
      [
        ['both-1', true, true],
        ['both-2', true, true],
        ['orphan', false, true],
        ['unlisted', true, false],
      ],
    );
  } finally {
    state.close();
  }
});
