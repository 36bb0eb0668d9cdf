import { usageError } from './args.ts';

/** Where a crawl keeps its state, as the command line and the environment say. */
export type StateLocation =
  /** A temporary SQLite file, deleted at the end (no `--state`). */
  | { readonly kind: 'temporary' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'postgres';
      /** The connection string as given; it may hold a password: never print it. */
      readonly connection: string;
      readonly crawl: string;
      /** The connection string without its password, for messages. */
      readonly display: string;
    };

const POSTGRES_SCHEME = /^postgres(?:ql)?:\/\//i;

/** True for a `--state` value that names a PostgreSQL database rather than a file. */
export function isPostgresUrl(state: string): boolean {
  return POSTGRES_SCHEME.test(state);
}

/**
 * Reads `--state` and `--crawl`. A crawl name means a shared crawl in PostgreSQL: its
 * connection string comes from `--state`, else `WAYMARK_STATE`, else `postgres://` with every
 * part from the standard `PG*` variables, so a password need never be on a command line
 * (where `ps` shows it to everyone). Without a name, `--state` is an SQLite file.
 */
export function stateLocation(
  command: string,
  given: { readonly state?: string | undefined; readonly crawl?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): StateLocation {
  const { crawl } = given;
  if (crawl === undefined) {
    if (given.state === undefined) return { kind: 'temporary' };
    if (isPostgresUrl(given.state)) {
      throw usageError(
        command,
        '--state postgres://… needs --crawl <name>: one database holds many crawls',
      );
    }
    return { kind: 'sqlite', path: given.state };
  }
  if (!/^[\w.:-]{1,100}$/.test(crawl)) {
    throw usageError(
      command,
      `--crawl takes a name of letters, digits and . _ : - (at most 100), not "${crawl}"`,
    );
  }
  const connection = given.state ?? nonEmpty(env['WAYMARK_STATE']) ?? 'postgres://';
  if (!isPostgresUrl(connection)) {
    const from = given.state === undefined ? 'WAYMARK_STATE' : '--state';
    throw usageError(
      command,
      `--crawl shares a crawl through PostgreSQL: ${from} must be a postgres:// URL, not "${connection}"`,
    );
  }
  return { kind: 'postgres', connection, crawl, display: withoutPassword(connection) };
}

/** A connection string with its password replaced by `***`, for messages and logs. */
export function withoutPassword(connection: string): string {
  const url = URL.parse(connection);
  if (url === null) return connection.replace(/:[^:@/]*@/, ':***@');
  if (url.password !== '') url.password = '***';
  for (const key of [...url.searchParams.keys()]) {
    if (key.toLowerCase() === 'password') url.searchParams.set(key, '***');
  }
  return url.href;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
