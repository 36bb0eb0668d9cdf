import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import type { HostRobots } from '../crawl-state.ts';
import { HostTable } from './host-table.ts';

function robotsOf(gapMs: number): HostRobots {
  return { status: 404, detail: null, url: 'https://x.test/robots.txt', body: null, gapMs };
}

/** The same rules, the slow and obvious way: a list of hosts scanned on every question. */
class ModelTable {
  readonly hosts = new Map<
    string,
    {
      seq: number;
      gap: number | null;
      next: number;
      robots: boolean;
      at: number | null;
      queued: number;
    }
  >();
  crawlGap = 100;

  host(origin: string) {
    let host = this.hosts.get(origin);
    if (host === undefined) {
      host = { seq: this.hosts.size, gap: null, next: 0, robots: false, at: null, queued: 0 };
      this.hosts.set(origin, host);
    }
    return host;
  }

  #eligible() {
    return [...this.hosts.entries()]
      .filter(([, h]) => h.robots && h.queued > 0)
      .sort(([, a], [, b]) => a.next - b.next || a.seq - b.seq);
  }

  ready(now: number) {
    const [first] = this.#eligible();
    return first !== undefined && first[1].next <= now ? first[0] : undefined;
  }

  waitMs(now: number) {
    const [first] = this.#eligible();
    return first === undefined ? null : Math.max(0, first[1].next - now);
  }
}

// Times in coarse steps, so that hosts' turns often fall on the same instant (ties).
test('the ready host and waitMs match a plain scan of every host, over random changes', () => {
  const random = seededRandom(11);
  const table = new HostTable(() => 100);
  const model = new ModelTable();
  const origins = Array.from({ length: 40 }, (_, i) => `https://h${i}.test`);
  let now = 0;
  for (let round = 0; round < 5_000; round++) {
    const origin = origins[Math.floor(random() * origins.length)] as string;
    const m = model.host(origin);
    const gap = () => m.gap ?? model.crawlGap;
    const op = Math.floor(random() * 6);
    if (op === 0) {
      const n = Math.floor(random() * 5) - 2;
      table.queue(origin, n);
      m.queued = Math.max(0, m.queued + n);
    } else if (op === 1) {
      table.book(origin, now);
      m.next = Math.max(m.next, now) + gap();
    } else if (op === 2) {
      const until = now + 100 * Math.floor(random() * 5);
      table.hold(origin, until);
      m.next = Math.max(m.next, until);
    } else if (op === 3) {
      const claim = table.claimRobots(origin, now);
      const expected = m.robots ? 'known' : m.at !== null ? 'busy' : 'fetch';
      assert.equal(claim, expected);
      if (claim === 'fetch') {
        m.at = Math.max(m.next, now);
        m.next = m.at + gap();
      }
    } else if (op === 4) {
      const gapMs = 100 * Math.floor(random() * 3);
      table.settleRobots(origin, robotsOf(gapMs), now);
      m.next = Math.max(m.next, (m.at ?? now) + gapMs);
      m.at = null;
      m.robots = true;
      m.gap = gapMs;
    } else {
      now += 50 * Math.floor(random() * 4);
    }
    assert.equal(table.ready(now)?.origin, model.ready(now), `round ${round}`);
    assert.equal(table.waitMs(now), model.waitMs(now), `round ${round}`);
    const claimed = [...model.hosts.values()].filter((h) => h.at !== null).length;
    assert.equal(table.robotsClaimed, claimed);
  }
});

test('a rollback puts every host back as it was, and forgets hosts first seen since begin', () => {
  const table = new HostTable(() => 50);
  table.queue('https://a.test', 2);
  table.settleRobots('https://a.test', robotsOf(10), 0);
  table.queue('https://b.test', 1);
  table.begin();
  table.book('https://a.test', 100);
  table.hold('https://a.test', 5_000);
  table.queue('https://a.test', -2);
  assert.deepEqual(table.claimWantedRobots(100), ['https://b.test']);
  table.queue('https://c.test', 3);
  assert.equal(table.claimRobots('https://d.test', 100), 'fetch');
  table.rollback();
  assert.equal(table.robotsClaimed, 0);
  assert.equal(table.queued('https://a.test'), 2);
  assert.deepEqual(table.ready(10), { origin: 'https://a.test', gap: 10 });
  assert.equal(table.queued('https://c.test'), 0);
  assert.deepEqual(table.claimWantedRobots(100), ['https://b.test'], 'b wants robots.txt again');
  assert.equal(table.claimRobots('https://d.test', 100), 'fetch', 'd was never claimed');
  // A commit keeps the changes.
  table.begin();
  table.book('https://a.test', 10);
  table.commit();
  table.rollback();
  assert.equal(table.ready(10), undefined);
  assert.equal(table.waitMs(10), 10);
});
