// drainQueue: every task runs once, tasks added while running are run too, never more than
// the given number at a time, and the first failure stops it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainQueue } from './work-queue.ts';

/** A task is a node of a tree: running it queues its children, as a folder read does. */
interface Node {
  readonly name: string;
  readonly children: number;
  readonly depth: number;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const CASES = [
  { workers: 1, fanout: 3, depth: 4 },
  { workers: 4, fanout: 5, depth: 3 },
  { workers: 32, fanout: 10, depth: 3 },
  { workers: 64, fanout: 2, depth: 1 },
];

describe('drainQueue', () => {
  for (const { workers, fanout, depth } of CASES) {
    test(`${workers} workers over a tree of fan-out ${fanout}, depth ${depth}`, async () => {
      const queue: Node[] = [{ name: 'root', children: fanout, depth: 0 }];
      const ran: string[] = [];
      let active = 0;
      let most = 0;
      await drainQueue(queue, workers, async (node) => {
        active++;
        most = Math.max(most, active);
        await turn();
        ran.push(node.name);
        if (node.depth < depth) {
          for (let i = 0; i < node.children; i++) {
            queue.push({ name: `${node.name}/${i}`, children: fanout, depth: node.depth + 1 });
          }
        }
        await turn();
        active--;
      });
      let expected = 0;
      for (let level = 0; level <= depth; level++) expected += fanout ** level;
      assert.equal(ran.length, expected);
      assert.equal(new Set(ran).size, expected, 'each task once');
      assert.equal(active, 0, 'resolved only after the last task finished');
      assert.ok(most <= workers, `at most ${workers} at a time, saw ${most}`);
      assert.equal(most, Math.min(workers, fanout ** depth), 'as many as allowed when there are');
    });
  }

  test('an empty queue resolves at once', async () => {
    let runs = 0;
    await drainQueue<number>([], 8, async () => {
      runs++;
    });
    assert.equal(runs, 0);
  });

  test('the first failure rejects and starts nothing more', async () => {
    const queue = Array.from({ length: 100 }, (_, i) => i);
    const started: number[] = [];
    await assert.rejects(
      drainQueue(queue, 2, async (n) => {
        started.push(n);
        await turn();
        if (n === 95) throw new Error('task 95 failed');
      }),
      /task 95 failed/,
    );
    await turn();
    await turn();
    assert.ok(started.length <= 6, `started ${started.length}`);
  });

  test('a task that throws before returning a promise rejects too', async () => {
    await assert.rejects(
      drainQueue([1], 1, () => {
        throw new Error('at once');
      }),
      /at once/,
    );
  });
});
