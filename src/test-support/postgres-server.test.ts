// The test PostgreSQL server: it keeps data across a restart and a crash, removes every file
// on stop, and a test process that dies (however) leaves no server and no folder behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startPostgresServer } from './postgres-server.ts';

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `test` (every 100 ms, at most 20 s) until it is true. */
async function eventually(test: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await test()) return;
    await sleep(100);
  }
  assert.fail(what);
}

describe('startPostgresServer', () => {
  it('keeps committed data across a restart and a crash; stop removes every file', async () => {
    const before = new Set(readdirSync(tmpdir()));
    const server = await startPostgresServer();
    const folders = readdirSync(tmpdir()).filter((name) => !before.has(name));
    assert.equal(folders.length, 1, `one new entry in the temp dir: ${folders.join(', ')}`);
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      await sql`CREATE TABLE t (n int)`;
      await sql`INSERT INTO t VALUES (1)`;
      await server.restart();
      await sql`INSERT INTO t VALUES (2)`;
      await server.kill();
      assert.equal(await listening(server.port), false);
      await server.restart();
      const rows = await sql`SELECT n FROM t ORDER BY n`;
      assert.deepEqual(
        rows.map((row) => row['n']),
        [1, 2],
      );
    } finally {
      await sql.end();
      await server.stop();
      await server.stop();
    }
    assert.equal(await listening(server.port), false);
    assert.deepEqual(
      readdirSync(tmpdir()).filter((name) => !before.has(name)),
      [],
    );
  });

  for (const ending of ['SIGKILL', 'SIGTERM', 'throw'] as const) {
    it(`a test process ended by ${ending} leaves no server and no folder`, async () => {
      const child = spawn(
        process.execPath,
        [fileURLToPath(new URL('./postgres-server-child.ts', import.meta.url)), ending],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const exited = once(child, 'exit');
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const { port, folder } = JSON.parse((await lines.next()).value as string) as {
        port: number;
        folder: string;
      };
      assert.ok(folder && existsSync(join(tmpdir(), folder)));
      assert.equal(await listening(port), true);
      if (ending !== 'throw') child.kill(ending);
      await exited;
      await eventually(async () => !(await listening(port)), 'the server still listens');
      await eventually(() => !existsSync(join(tmpdir(), folder)), `${folder} is still there`);
    });
  }
});
