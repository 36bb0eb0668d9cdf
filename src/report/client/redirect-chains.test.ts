import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReportPageRow } from '../report-data.ts';
import { sampleReport } from '../test-support/sample-report-data.ts';
import { MAX_CHAIN_HOPS, redirectChains } from './redirect-chains.ts';

function row(url: string, status: number, target: string | null): ReportPageRow {
  return [
    url,
    status,
    target === null ? 'listed' : 'skipped',
    target === null ? null : 'redirect',
    target,
    1,
    0,
    1,
    0,
    null,
    null,
    null,
    10,
    null,
    1,
    null,
    null,
  ];
}

test('the sample has one chain of two hops, ending in a 200', () => {
  const chains = redirectChains(sampleReport().pages);
  assert.deepEqual(
    chains.map(({ urls, hops, end }) => ({ urls, hops, end })),
    [
      {
        urls: [
          'https://example.com/old-page',
          'https://example.com/older-page',
          'https://example.com/about',
        ],
        hops: 2,
        end: '200',
      },
    ],
  );
});

test('chains: lengths, loops, unknown ends and the hop cap', () => {
  const cases: [string, ReportPageRow[], { start: string; hops: number; end: string }[]][] = [
    ['one hop is no chain', [row('/a', 301, '/b'), row('/b', 200, null)], []],
    [
      'three hops, and the two-hop tail',
      [row('/a', 301, '/b'), row('/b', 301, '/c'), row('/c', 301, '/d'), row('/d', 404, null)],
      [
        { start: '/a', hops: 3, end: '404' },
        { start: '/b', hops: 2, end: '404' },
      ],
    ],
    [
      'a target never fetched',
      [row('/a', 301, '/b'), row('/b', 301, '/c')],
      [{ start: '/a', hops: 2, end: 'unknown' }],
    ],
    [
      'a loop is cut where it closes',
      [row('/a', 301, '/b'), row('/b', 301, '/a')],
      [
        { start: '/a', hops: 2, end: 'loop' },
        { start: '/b', hops: 2, end: 'loop' },
      ],
    ],
  ];
  for (const [name, rows, expected] of cases) {
    const got = redirectChains(rows).map((chain) => ({
      start: rows[chain.start]?.[0],
      hops: chain.hops,
      end: chain.end,
    }));
    assert.deepEqual(got, expected, name);
  }
  const long = Array.from({ length: 40 }, (_, index) => row(`/${index}`, 301, `/${index + 1}`));
  const first = redirectChains(long)[0];
  assert.equal(first?.hops, MAX_CHAIN_HOPS);
  assert.equal(first?.end, 'cut');
});
