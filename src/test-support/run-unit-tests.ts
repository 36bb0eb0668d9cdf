// `npm run test:unit`: the unit tests, each file in its own process as `node --test` runs
// them, with a temporary folder of their own (TMPDIR), which must be empty again at the end:
// a test that leaves files behind fails the run, so a suite run from cron never fills /tmp.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const temporary = mkdtempSync(join(tmpdir(), 'waymark-tests-'));
// mkdtemp makes it 0700; the PostgreSQL test servers (postgres-server.ts) run as the
// `postgres` user when the tests run as root, and that user must be able to pass through
// this folder to reach its data folder (search only: it still cannot list it).
chmodSync(temporary, 0o711);
const run = spawnSync(
  process.execPath,
  ['--test', '--test-reporter=spec', ...process.argv.slice(2), 'src/**/*.test.ts'],
  { stdio: 'inherit', env: { ...process.env, TMPDIR: temporary } },
);
const left = readdirSync(temporary);
rmSync(temporary, { recursive: true, force: true });
if (left.length > 0) {
  process.stderr.write(
    `\nThe tests left ${left.length} entries in their temporary folder (each test must remove what it creates): ${left.sort().join(', ')}\n`,
  );
  process.exit(1);
}
process.exit(run.status ?? 1);
