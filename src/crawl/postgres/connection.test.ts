// The pool's own bookkeeping, without a server: postgres.js connects lazily, so a pool for an
// address nothing listens on is made and ended without a connection attempt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Pool } from './connection.ts';

const NOWHERE = 'postgres://waymark@127.0.0.1:9/nothing';

test('a lost connection replaces the pool once, whoever reports it', async () => {
  const pool = await Pool.open(NOWHERE, 1000);
  const first = pool.sql;
  pool.replace(first);
  const second = pool.sql;
  assert.notEqual(second, first);
  // A second report of the same lost pool changes nothing.
  pool.replace(first);
  assert.equal(pool.sql, second);
  await pool.end();
});

test('after end, a connection cut off by the end opens no new pool', async () => {
  const pool = await Pool.open(NOWHERE, 1000);
  const ended = pool.sql;
  await pool.end();
  pool.replace(ended);
  assert.equal(pool.sql, ended);
});

test('target_session_attrs is refused, from the URL or PGTARGETSESSIONATTRS', async () => {
  const refused = { name: 'WaymarkError', code: 'invalid-argument' };
  await assert.rejects(Pool.open(`${NOWHERE}?target_session_attrs=read-write`, 1000), refused);
  // The name percent-encoded, as the driver decodes it.
  await assert.rejects(Pool.open(`${NOWHERE}?target%5Fsession%5Fattrs=primary`, 1000), refused);
  const before = process.env['PGTARGETSESSIONATTRS'];
  process.env['PGTARGETSESSIONATTRS'] = 'primary';
  try {
    await assert.rejects(Pool.open(NOWHERE, 1000), refused);
    await assert.rejects(Pool.open(`${NOWHERE}?target_session_attrs=`, 1000), refused);
  } finally {
    if (before === undefined) delete process.env['PGTARGETSESSIONATTRS'];
    else process.env['PGTARGETSESSIONATTRS'] = before;
  }
  // An empty value, with nothing in the environment, asks for nothing; nor does the name
  // where the driver does not read it (in the fragment).
  for (const url of [`${NOWHERE}?target_session_attrs=`, `${NOWHERE}#&target_session_attrs=x`]) {
    const pool = await Pool.open(url, 1000);
    await pool.end();
  }
});
