import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { flattenBatches } from './batch-flattener.ts';

/** Batches from a generator that records whether it was ended, as parseSitemapBatches is. */
function source(batches: number[][]) {
  const seen = { ended: false, pulled: 0 };
  async function* generate(): AsyncGenerator<number[]> {
    try {
      for (const batch of batches) {
        seen.pulled++;
        yield batch;
      }
    } finally {
      seen.ended = true;
    }
  }
  return { iterator: generate(), seen };
}

describe('flattenBatches', () => {
  test('hands out every item in order, skipping empty batches', async () => {
    const { iterator, seen } = source([[1, 2], [], [3], [], [], [4, 5, 6]]);
    const items: number[] = [];
    for await (const item of flattenBatches(iterator)) items.push(item);
    assert.deepEqual(items, [1, 2, 3, 4, 5, 6]);
    assert.equal(seen.ended, true);
  });

  test('break ends the source at once, without reading further batches', async () => {
    const { iterator, seen } = source([[1, 2], [3], [4]]);
    const items: number[] = [];
    for await (const item of flattenBatches(iterator)) {
      items.push(item);
      if (item === 2) break;
    }
    assert.deepEqual(items, [1, 2]);
    assert.equal(seen.ended, true);
    assert.equal(seen.pulled, 1);
  });

  test('calls made together get the items in order, then done', async () => {
    const { iterator } = source([[1], [2, 3]]);
    const flat = flattenBatches(iterator);
    const results = await Promise.all([flat.next(), flat.next(), flat.next(), flat.next()]);
    assert.deepEqual(
      results.map((r) => (r.done === true ? 'done' : r.value)),
      [1, 2, 3, 'done'],
    );
  });

  test('throw ends the source and rethrows; later calls are done', async () => {
    const { iterator, seen } = source([[1], [2]]);
    const flat = flattenBatches(iterator);
    assert.deepEqual(await flat.next(), { done: false, value: 1 });
    await assert.rejects(flat.throw?.(new Error('stop')) as Promise<unknown>, /stop/);
    assert.equal(seen.ended, true);
    assert.deepEqual(await flat.next(), { done: true, value: undefined });
  });
});
