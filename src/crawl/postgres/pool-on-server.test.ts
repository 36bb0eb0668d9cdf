// The pool against a real server: arrays go through as the statements send and read them,
// and a pool ended while a new connection waits for its first answer leaves nothing behind
// that could end the process (postgres.js's own type fetch did: see array-codec.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import { Pool } from './connection.ts';
import { startReplyHoldingProxy } from './test-support/reply-holding-proxy.ts';

const server = await startPostgresServer();
after(() => server.stop());

describe('a pool on a real server', () => {
  it('sends and reads back text, int, bigint and float8 arrays, nulls and any text included', async () => {
    const pool = await Pool.open(server.url, 1000);
    try {
      // PostgreSQL text cannot hold NUL; every other code point goes.
      const text = fc.string({ unit: 'binary' }).filter((value) => !value.includes('\0'));
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(text, { nil: null }), { maxLength: 20 }),
          async (values) => {
            const [row] = await pool.sql.unsafe('SELECT $1::text[] AS a', [values as never]);
            assert.deepEqual(row?.['a'], values);
          },
        ),
        { numRuns: 100 },
      );
      const [row] = await pool.sql.unsafe(
        'SELECT $1::int[] AS i, $2::bigint[] AS b, $3::float8[] AS f, $4::text[] AS e',
        [[1, null, -2147483648], [2 ** 53 - 1, 0], [0.1, -1e300, null], []] as never[],
      );
      assert.deepEqual(row, {
        i: [1, null, -2147483648],
        b: [2 ** 53 - 1, 0],
        f: [0.1, -1e300, null],
        e: [],
      });
    } finally {
      await pool.end();
    }
  });

  it('ended while a new connection waits for its first answer: the call fails, nothing is left unhandled', async () => {
    const proxy = await startReplyHoldingProxy(server.url);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const pool = await Pool.open(proxy.url, 1000);
      const answer = pool.sql.unsafe('SELECT 1').then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      );
      await proxy.holding;
      await pool.end();
      assert.equal(await answer, 'CONNECTION_DESTROYED');
      // Rejections nobody handles are reported after the microtasks of the turn they
      // happen in; a few turns later, any would have been.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await proxy.close();
    }
  });
});
