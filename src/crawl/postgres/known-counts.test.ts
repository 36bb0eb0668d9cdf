import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownCounts } from './known-counts.ts';

const HOME = 'https://a.test/';
const ABOUT = 'https://a.test/about';
const CONTACT = 'https://a.test/contact';

describe('KnownCounts', () => {
  it('sums per URL and finding result; sends each URL once, sorted, and small indexes', () => {
    const counts = new KnownCounts();
    const one = { id: 70, attempt: 1 };
    const two = { id: 71, attempt: 3 };
    counts.count(CONTACT, one, 1, 0);
    counts.count(HOME, one, 1, 0);
    counts.count(HOME, one, 1, 0);
    counts.count(HOME, two, 1, 0);
    counts.count(HOME, null, 0, 1);
    counts.count(ABOUT, two, 1, 0);
    counts.count(ABOUT, two, 0, 0);
    assert.equal(counts.size, 5);
    const [keys, ids, attempts, k, parent, inlinks, sitemaps] = counts.parameters();
    assert.deepEqual(keys, [HOME, ABOUT, CONTACT]);
    assert.deepEqual(
      [ids, attempts],
      [
        [70, 71],
        [1, 3],
      ],
    );
    // Rows in the order first counted: contact by one, home by one (twice), home by two,
    // home added directly, about by two.
    assert.deepEqual(k, [3, 1, 1, 1, 2]);
    assert.deepEqual(parent, [1, 1, 2, null, 2]);
    assert.deepEqual(inlinks, [1, 2, 1, 0, 1]);
    assert.deepEqual(sitemaps, [0, 0, 0, 1, 0]);
  });

  it('nothing to count is no row', () => {
    const counts = new KnownCounts();
    counts.count(HOME, null, 0, 0);
    assert.equal(counts.size, 0);
    assert.deepEqual(counts.parameters(), [[], [], [], [], [], [], []]);
  });
});
