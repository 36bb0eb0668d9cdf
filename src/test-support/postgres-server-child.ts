// For postgres-server.test.ts: starts a server, prints `{ port, folder }`, then waits to be
// killed (or, with `throw`, ends with an uncaught error).
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startPostgresServer } from './postgres-server.ts';

const before = new Set(readdirSync(tmpdir()));
const server = await startPostgresServer();
const folder = readdirSync(tmpdir()).find(
  (name) => !before.has(name) && name.startsWith('waymark-pg-'),
);
process.stdout.write(`${JSON.stringify({ port: server.port, folder })}\n`);
if (process.argv[2] === 'throw')
  setTimeout(() => {
    throw new Error('the test process fails');
  }, 50);
else setInterval(() => {}, 1000);
