// A crawl state opened with readOnly, as crawl status, crawl export and report open it: the
// state of a crawl killed mid-step (items in flight, a WAL not yet copied in) is read as it
// is, and not a byte of it changes, nor is a side file left behind.
import assert from 'node:assert/strict';
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCliForTest } from '../cli/test-support/run-cli.ts';
import { openSqliteCrawlState } from './sqlite-crawl-state.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-read-only-'));
const path = join(dir, 'killed.db');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every file in `dir`, name and bytes. */
function snapshot(): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .filter((name) => name.startsWith('killed.'))
      .map((name) => [name, readFileSync(join(dir, name))]),
  );
}

function assertUnchanged(before: Map<string, Buffer>, what: string): void {
  const now = snapshot();
  assert.deepEqual([...now.keys()].sort(), [...before.keys()].sort(), `${what}: the files`);
  for (const [name, bytes] of before) {
    assert.ok(now.get(name)?.equals(bytes), `${what} changed ${name}`);
  }
}

before(() => {
  // Two pages taken, then the process killed: they stay in flight in the file.
  const program = `
    const { openSqliteCrawlState } = await import(${JSON.stringify(fileURLToPath(new URL('./sqlite-crawl-state.ts', import.meta.url)))});
    const state = openSqliteCrawlState(${JSON.stringify(path)}, { resume: false });
    await state.create({ start: 'https://a.example/', options: '{}', gapMs: 0 });
    const origin = 'https://a.example';
    await state.add(['/', '/a', '/b', '/c'].map((p) => ({ url: origin + p, origin, priority: 0, depth: 0, via: null, kind: 'page' })));
    await state.step({ finished: [], released: [], take: 8 });
    await state.settleRobots(origin, { status: 404, detail: null, url: origin + '/robots.txt', body: null, gapMs: 0 });
    const { taken } = await state.step({ finished: [], released: [], take: 2 });
    if (taken.length !== 2) throw new Error('took ' + taken.length);
    process.kill(process.pid, 'SIGKILL');
  `;
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', program], { stdio: 'pipe' });
  } catch (error) {
    if ((error as { signal?: string }).signal !== 'SIGKILL') throw error;
  }
  // A copy, as the crawl left it, for the test without write access.
  mkdirSync(join(dir, 'copy'));
  for (const name of ['killed.db', 'killed.db-wal']) {
    writeFileSync(join(dir, 'copy', name), readFileSync(join(dir, name)));
  }
});

test('read as the killed crawl left it, and left as it was', async () => {
  const before = snapshot();
  assert.ok(before.has('killed.db-wal'), 'the crawl was killed before its log was copied in');
  const state = openSqliteCrawlState(path, { resume: true, readOnly: true });
  try {
    assert.deepEqual(await state.counts(), { queued: 2, inFlight: 2, done: 0, seen: 4 });
    assert.equal((await state.crawl())?.start, 'https://a.example/');
    // A call that would write fails, and writes nothing.
    await assert.rejects(
      state.add([
        {
          url: 'https://a.example/d',
          origin: 'https://a.example',
          priority: 0,
          depth: 0,
          via: null,
          kind: 'page',
        },
      ]),
    );
  } finally {
    await state.close();
  }
  assertUnchanged(before, 'reading');
});

test('crawl status shows the items in flight, and changes nothing', async () => {
  const before = snapshot();
  const result = await runCliForTest(['crawl', 'status', '--state', path]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /4 seen: 2 queued, 2 in flight, 0 done/);
  assertUnchanged(before, 'crawl status');
});

test('a resume, by contrast, queues the interrupted items again', async () => {
  const state = openSqliteCrawlState(path, { resume: true });
  try {
    assert.deepEqual(await state.counts(), { queued: 4, inFlight: 0, done: 0, seen: 4 });
  } finally {
    await state.close();
  }
});

test('a state closed cleanly is read without making any file beside it, even while open', async () => {
  const clean = join(dir, 'clean');
  mkdirSync(clean);
  const file = join(clean, 'state.db');
  const writer = openSqliteCrawlState(file, { resume: false });
  await writer.create({ start: 'https://a.example/', options: '{}', gapMs: 0 });
  await writer.close();
  assert.deepEqual(readdirSync(clean), ['state.db']);
  const state = openSqliteCrawlState(file, { resume: true, readOnly: true });
  try {
    assert.equal((await state.crawl())?.start, 'https://a.example/');
    // No -wal or -shm: a folder this process may not write to would not stop the reading.
    assert.deepEqual(readdirSync(clean), ['state.db']);
  } finally {
    await state.close();
  }
});

/**
 * Runs `crawl status` on `state` as a user who may not write to its folder: this process when
 * it is not root (the folder made read-only), else `nobody` through setpriv (root writes
 * anywhere); null when neither can be arranged.
 */
function statusWithoutWriteAccess(folder: string, state: string): SpawnSyncReturns<string> | null {
  const bin = fileURLToPath(new URL('../cli/bin.ts', import.meta.url));
  const args = [bin, 'crawl', 'status', '--state', state];
  if (process.getuid?.() !== 0) {
    chmodSync(folder, 0o555);
    try {
      return spawnSync(process.execPath, args, { encoding: 'utf8' });
    } finally {
      chmodSync(folder, 0o755);
    }
  }
  if (spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  // nobody must reach the files: the temporary folder is made for root alone.
  chmodSync(dir, 0o755);
  return spawnSync(
    'setpriv',
    ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, ...args],
    { encoding: 'utf8' },
  );
}

test('no write access to the folder: a clean state is read; a killed one is refused clearly', (t) => {
  const folder = join(dir, 'locked');
  mkdirSync(folder);
  for (const name of ['killed.db', 'killed.db-wal']) {
    writeFileSync(join(folder, name), readFileSync(join(dir, 'copy', name)));
  }
  writeFileSync(join(folder, 'clean.db'), readFileSync(join(dir, 'clean', 'state.db')));
  chmodSync(folder, 0o755);
  const killed = statusWithoutWriteAccess(folder, join(folder, 'killed.db'));
  if (killed === null) {
    t.skip('runs as root without setpriv: cannot take away write access');
    return;
  }
  assert.equal(killed.status, 3, killed.stderr);
  assert.match(killed.stderr, /did not close it \(its log, killed\.db-wal, is beside it\)/);
  const clean = statusWithoutWriteAccess(folder, join(folder, 'clean.db'));
  assert.equal(clean?.status, 0, clean?.stderr);
  assert.match(clean?.stdout ?? '', /start +https:\/\/a\.example\//);
  assert.deepEqual(readdirSync(folder).sort(), ['clean.db', 'killed.db', 'killed.db-wal']);
});

test('readOnly goes with resume', () => {
  assert.throws(
    () => openSqliteCrawlState(path, { resume: false, readOnly: true }),
    /readOnly reads the crawl the file holds: it goes with resume: true/,
  );
});
