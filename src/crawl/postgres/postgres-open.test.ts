// Opening a PostgreSQL crawl state: the schema is created and migrated once, whatever the
// number of workers starting together; a newer schema is refused; a server that cannot be
// reached is a clear error that names it but never the password.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { isWaymarkError } from '../../shared/waymark-error.ts';
import { startPostgresServer } from '../../test-support/postgres-server.ts';
import { openPostgresCrawlState } from './postgres-crawl-state.ts';
import { DONE, inSchema, MIGRATIONS, SCHEMA_VERSION } from './schema.ts';

const server = await startPostgresServer();
const admin = postgres(server.url, { max: 2, onnotice: () => {} });
after(async () => {
  await admin.end();
  await server.stop();
});

const password = new URL(server.url).password;

/** Every version a fresh schema passes through: each migration notes its own. */
const ALL_VERSIONS = Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1);

async function versions(schema: string): Promise<number[]> {
  const rows = await admin.unsafe(
    `SELECT version FROM "${schema}".schema_version ORDER BY version`,
  );
  return rows.map((row) => Number(row['version']));
}

async function tables(schema: string): Promise<string[]> {
  const rows = await admin`
    SELECT c.relname || ':' || c.oid AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relkind = 'r' ORDER BY c.relname`;
  return rows.map((row) => String(row['t']));
}

function refusedWith(code: string, ...inMessage: string[]) {
  return (error: unknown) => {
    assert.ok(isWaymarkError(error), String(error));
    assert.equal(error.code, code, error.message);
    for (const text of inMessage) assert.ok(error.message.includes(text), error.message);
    assert.ok(!error.message.includes(password), `password in: ${error.message}`);
    return true;
  };
}

describe('openPostgresCrawlState', () => {
  it('creates the schema in a fresh database; a second open changes nothing', async () => {
    const state = await openPostgresCrawlState({ connection: server.url, crawl: 'fresh' });
    await state.close();
    assert.deepEqual(await versions('waymark'), ALL_VERSIONS);
    const made = await tables('waymark');
    assert.deepEqual(
      made.map((t) => t.split(':')[0]),
      ['crawls', 'hosts', 'schema_version', 'sitemap_files', 'urls', 'workers'],
    );
    const again = await openPostgresCrawlState({ connection: server.url, crawl: 'fresh' });
    await again.close();
    assert.deepEqual(await versions('waymark'), ALL_VERSIONS);
    assert.deepEqual(await tables('waymark'), made, 'the same tables, not new ones');
  });

  it('workers opening together on a fresh schema migrate it once', async () => {
    const states = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        openPostgresCrawlState({ connection: server.url, crawl: `c${i}`, schema: 'together' }),
      ),
    );
    await Promise.all(states.map((state) => state.close()));
    assert.deepEqual(await versions('together'), ALL_VERSIONS);
  });

  it('upgrades a schema of version 1 in place: its crawl is kept and reads as never counted', async () => {
    // As a waymark of schema version 1 left it, with a crawl and a result in it.
    await admin.begin(async (tx) => {
      await tx.unsafe('CREATE SCHEMA v1');
      await tx.unsafe(
        'CREATE TABLE v1.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const statement of MIGRATIONS[0] ?? []) await tx.unsafe(inSchema('v1', statement));
      await tx.unsafe('INSERT INTO v1.schema_version (version) VALUES (1)');
      const [crawl] = await tx.unsafe(
        `INSERT INTO v1.crawls (name, start, options, created_at) VALUES ('old', 'https://a.test/', '{}', 0) RETURNING id`,
      );
      const [host] = await tx.unsafe(
        `INSERT INTO v1.hosts (crawl, origin) VALUES ($1, 'https://a.test') RETURNING id`,
        [crawl?.['id']],
      );
      await tx.unsafe(
        `INSERT INTO v1.urls (crawl, host, priority, depth, state, linked, in_sitemap, key, kind,
           status, outcome)
         VALUES ($1, $2, 0, 0, ${DONE}, true, false, 'https://a.test/', 'page', 200, 'listed')`,
        [crawl?.['id'], host?.['id']],
      );
    });
    const state = await openPostgresCrawlState({
      connection: server.url,
      crawl: 'old',
      schema: 'v1',
    });
    try {
      assert.deepEqual(await versions('v1'), [1, 2]);
      const read = async () => {
        const results = [];
        for await (const r of state.results()) results.push(r);
        return results;
      };
      const [before] = await read();
      assert.deepEqual(
        [before?.url, before?.facts, before?.inlinks, before?.sitemaps, before?.sitemapLastmod],
        ['https://a.test/', null, 0, 0, null],
      );
      await state.add([
        {
          url: 'https://a.test/',
          origin: 'https://a.test',
          priority: 0,
          depth: 1,
          via: 'https://a.test/x',
          kind: 'page',
        },
      ]);
      assert.equal((await read())[0]?.inlinks, 1, 'counted from now on');
      assert.deepEqual(await state.sitemapFiles(), []);
    } finally {
      await state.close();
    }
  });

  it('refuses a schema newer than this waymark', async () => {
    const state = await openPostgresCrawlState({
      connection: server.url,
      crawl: 'x',
      schema: 'newer',
    });
    await state.close();
    await admin.unsafe('INSERT INTO newer.schema_version (version) VALUES ($1)', [
      SCHEMA_VERSION + 1,
    ]);
    await assert.rejects(
      openPostgresCrawlState({ connection: server.url, crawl: 'x', schema: 'newer' }),
      refusedWith('invalid-argument', `version ${SCHEMA_VERSION + 1}`, 'newer'),
    );
  });

  it('refuses a schema name that is not a plain identifier, before connecting', async () => {
    for (const schema of ['', 'Waymark', 'a-b', 'a;drop table x', '"q"', '1abc', 'x'.repeat(64)]) {
      await assert.rejects(
        openPostgresCrawlState({ connection: server.url, crawl: 'x', schema }),
        refusedWith('invalid-argument'),
        schema,
      );
    }
    await assert.rejects(
      openPostgresCrawlState({ connection: server.url, crawl: '' }),
      refusedWith('invalid-argument'),
    );
  });

  it('refuses a worker timeout of zero or over a day (its timers would overflow), and a bad rememberUrls', async () => {
    for (const workerTimeoutMs of [0, -1, Number.NaN, 86_400_001, 2 ** 31, Infinity]) {
      await assert.rejects(
        openPostgresCrawlState({ connection: server.url, crawl: 'x', workerTimeoutMs }),
        refusedWith('invalid-argument', 'workerTimeoutMs', 'a day'),
        String(workerTimeoutMs),
      );
    }
    const state = await openPostgresCrawlState({
      connection: server.url,
      crawl: 'a-day',
      workerTimeoutMs: 86_400_000,
    });
    await state.close();
    for (const rememberUrls of [-1, 1.5, Number.NaN]) {
      await assert.rejects(
        openPostgresCrawlState({ connection: server.url, crawl: 'x', rememberUrls }),
        refusedWith('invalid-argument', 'rememberUrls'),
        String(rememberUrls),
      );
    }
  });

  it('a server it cannot reach is a network error naming it, never the password', async () => {
    const port = await closedPort();
    const unreachable = `postgres://waymark:${password}@127.0.0.1:${port}/crawls`;
    await assert.rejects(
      openPostgresCrawlState({ connection: unreachable, crawl: 'x' }),
      refusedWith('network', `127.0.0.1:${port}/crawls`, 'ECONNREFUSED'),
    );
    const wrong = new URL(server.url);
    wrong.password = `${password}-wrong`;
    await assert.rejects(
      openPostgresCrawlState({ connection: wrong.href, crawl: 'x' }),
      refusedWith('network', `127.0.0.1:${server.port}/postgres`, '28P01'),
    );
    const missing = new URL(server.url);
    missing.pathname = '/nosuchdb';
    await assert.rejects(
      openPostgresCrawlState({ connection: missing.href, crawl: 'x' }),
      refusedWith('network', 'nosuchdb', '3D000'),
    );
    await assert.rejects(
      openPostgresCrawlState({ connection: `mysql://waymark:${password}@127.0.0.1/x`, crawl: 'x' }),
      refusedWith('invalid-argument', 'postgres://'),
    );
  });

  it('takes what the connection string leaves out from the PG* variables', async () => {
    const { hostname, port, username, password: pass } = new URL(server.url);
    const saved = { ...process.env };
    Object.assign(process.env, {
      PGHOST: hostname,
      PGPORT: port,
      PGUSER: username,
      PGPASSWORD: pass,
      PGDATABASE: 'postgres',
    });
    try {
      for (const connection of ['', `postgres://${hostname}:${port}/postgres`]) {
        const state = await openPostgresCrawlState({ connection, crawl: 'from-env' });
        assert.equal(state.location, `postgres from-env on ${hostname}:${port}/postgres`);
        await state.create({ start: 'https://a.test/', options: '{}', gapMs: 0 });
        assert.equal((await state.crawl())?.start, 'https://a.test/');
        await state.close();
      }
    } finally {
      for (const name of ['PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

describe('close', () => {
  it('ends the connections and the heartbeat: the process exits by itself', async () => {
    const child = fileURLToPath(new URL('./test-support/open-close-child.ts', import.meta.url));
    // A state that kept anything open would keep the child running until this times out.
    const { stdout } = await promisify(execFile)(process.execPath, [child, server.url, 'exits'], {
      timeout: 30_000,
    });
    assert.equal(stdout, '1\n');
    const [worker] = await admin.unsafe(
      "SELECT closed_at IS NOT NULL AS closed FROM waymark.workers w JOIN waymark.crawls c ON c.id = w.crawl WHERE c.name = 'exits'",
    );
    assert.equal(worker?.['closed'], true);
  });
});

/** A port nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 1),
      );
    });
  });
}
