// The bulk upsert of SqliteQueue.insert held to the per-row insert it replaced
// (test-support/per-row-insert.ts): the same calls on two fresh state files leave the same
// rows (ids, values, counts), the same in-link log, the same new-URL counts per host.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import type { FrontierItem, FrontierKind } from '../crawl-state.ts';
import { HostTable } from './host-table.ts';
import { SqliteQueue } from './sqlite-queue.ts';
import { prepareDatabase } from './sqlite-schema.ts';
import { MAX_UPSERT_ROWS, Statements } from './sqlite-statements.ts';
import { PerRowInsert } from './test-support/per-row-insert.ts';

const dir = mkdtempSync(join(tmpdir(), 'waymark-sqlite-queue-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function openDb(): DatabaseSync {
  const file = join(dir, `state-${files++}.db`);
  const db = new DatabaseSync(file);
  prepareDatabase(db, file, false, 'normal');
  return db;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ORIGINS = ['https://a.test', 'https://b.test', 'http://c.test:8080'];
/** A few URLs most rows link to, as a site's menu: they reach the in-link cap. */
const MENU = 4;
const URLS = 300;

function items(next: () => number, count: number): FrontierItem[] {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  const out: FrontierItem[] = [];
  for (let i = 0; i < count; i++) {
    const n = next() < 0.4 ? Math.floor(next() * MENU) : Math.floor(next() * URLS);
    const origin = ORIGINS[n % ORIGINS.length] as string;
    // Some URLs are added as written differently from their key (the normaliser lowercases).
    const path = next() < 0.1 ? `/Page-${n}` : `/page-${n}`;
    const kind: FrontierKind = pick(['page', 'page', 'page', 'page', 'sitemap', 'robots']);
    const roll = next();
    out.push({
      url: `${origin}${path}`,
      origin,
      kind,
      priority: roll < 0.3 ? 0 : roll < 0.5 ? 0.5 : next() * 3 - 1,
      depth: Math.floor(next() * 4),
      via: next() < 0.8 ? `${origin}/from-${Math.floor(next() * 50)}` : null,
      redirects: next() < 0.9 ? 0 : 1 + Math.floor(next() * 2),
      ...(kind === 'sitemap' && next() < 0.7
        ? { lastmod: next() < 0.5 ? `2024-0${1 + Math.floor(next() * 9)}-01` : null }
        : {}),
    });
  }
  return out;
}

function tables(db: DatabaseSync) {
  return {
    urls: db.prepare('SELECT * FROM urls ORDER BY id').all(),
    log: db.prepare('SELECT rowid AS at, key, n FROM inlink_log ORDER BY rowid').all(),
  };
}

test('the bulk insert leaves the rows, the in-link log and the hosts as the per-row insert did', () => {
  const bulkDb = openDb();
  const referenceDb = openDb();
  try {
    const hosts = new HostTable(() => 0);
    const queue = new SqliteQueue(new Statements(bulkDb), hosts, (url) => url.toLowerCase());
    const reference = new PerRowInsert(referenceDb);
    const next = random(14);
    // Sizes around the statements' row counts, then anything up to 4x the largest.
    const sizes = [0, 1, 2, 3, MAX_UPSERT_ROWS - 1, MAX_UPSERT_ROWS, MAX_UPSERT_ROWS + 1];
    for (let call = 0; call < 400; call++) {
      const size = sizes[call] ?? Math.floor(next() * next() * 4 * MAX_UPSERT_ROWS);
      const rows = items(next, size).map((item) => queue.row(item));
      for (const db of [bulkDb, referenceDb]) db.exec('BEGIN IMMEDIATE');
      hosts.begin();
      const queued = new Map(reference.queued);
      const added = queue.insert(rows);
      assert.equal(added, reference.insert(rows), `new URLs of call ${call}`);
      if (call % 37 === 36) {
        queue.foldInlinks();
        reference.foldInlinks();
      }
      // Some calls are rolled back: what the queue learned in them must be forgotten.
      const rolledBack = call % 11 === 10;
      for (const db of [bulkDb, referenceDb]) db.exec(rolledBack ? 'ROLLBACK' : 'COMMIT');
      if (rolledBack) {
        hosts.rollback();
        queue.rollback();
        reference.rollback(queued);
      } else {
        hosts.commit();
        queue.commit();
        reference.commit();
      }
      assert.deepEqual(tables(bulkDb), tables(referenceDb), `after call ${call}`);
    }
    for (const origin of ORIGINS) {
      assert.equal(hosts.queued(origin), reference.queued.get(origin), origin);
    }
    // The menu reached the cap (so saturated keys were skipped), the log was used.
    const capped = bulkDb.prepare('SELECT count(*) AS n FROM urls WHERE inlinks >= 1000').get();
    assert.equal(capped?.['n'], MENU);
    assert.ok(tables(bulkDb).log.length > 0);
  } finally {
    bulkDb.close();
    referenceDb.close();
  }
});
