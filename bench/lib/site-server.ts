// A server under test in a process of its own, so the load generator in the bench process
// never shares its event loop (on 2 cores: one core each). `startServer` forks a child
// script; the child calls `serveInChild` with its request listener, listens on 127.0.0.1
// on an ephemeral port and answers the parent over IPC: its CPU time and peak memory so
// far, a CPU profile of a stretch of its life on request, and `close`, after which it exits.
//
// node:http and node:child_process are taken with process.getBuiltinModule, not imported:
// an ESM import of node:http also loads Node's bundled undici (about 12 MB of RSS,
// nodejs/node#59686), which `waymark serve` does not load and which would be counted against
// every server measured here; node:child_process is the parent's alone.

import { writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { peakRssNow } from './peak-rss.ts';

export interface ServerUsage {
  /** CPU time of the whole process so far (user + system), milliseconds. */
  readonly cpuMs: number;
  /** Peak resident memory of the process so far (Linux VmHWM), bytes. */
  readonly peakRss: number;
  readonly rss: number;
}

export interface ServerHandle {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** From spawn until the server listened, ms. */
  readonly startMs: number;
  /** `performance.now()` of this process when the server process was spawned. */
  readonly spawnedAt: number;
  usage(): Promise<ServerUsage>;
  /** Starts V8's CPU profiler in the server process. */
  startProfile(): Promise<void>;
  /** Stops it and writes the profile (`.cpuprofile` JSON) to `file`. */
  stopProfile(file: string): Promise<void>;
  /** Closes the server and waits for the process to exit. */
  close(): Promise<void>;
}

type ToChild =
  | { readonly type: 'usage' }
  | { readonly type: 'profile-start' }
  | { readonly type: 'profile-stop'; readonly file: string }
  | { readonly type: 'close' };
type FromChild =
  | { readonly type: 'ready'; readonly origin: string }
  | { readonly type: 'usage'; readonly usage: ServerUsage }
  | { readonly type: 'done' };

/** Forks `script` with `task` (JSON in argv); resolves once it listens. */
export function startServer(script: string, task: unknown): Promise<ServerHandle> {
  const started = performance.now();
  const child = process
    .getBuiltinModule('node:child_process')
    .fork(script, [JSON.stringify(task)], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  const usageWaiters: ((usage: ServerUsage) => void)[] = [];
  const doneWaiters: (() => void)[] = [];
  const command = (message: ToChild) =>
    new Promise<void>((done) => {
      doneWaiters.push(done);
      child.send(message);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`the server process ${script} exited (${signal ?? code})`)),
    );
    child.on('message', (message: FromChild) => {
      if (message.type === 'usage') {
        usageWaiters.shift()?.(message.usage);
        return;
      }
      if (message.type === 'done') {
        doneWaiters.shift()?.();
        return;
      }
      resolve({
        origin: message.origin,
        startMs: performance.now() - started,
        spawnedAt: started,
        usage: () =>
          new Promise((answer) => {
            usageWaiters.push(answer);
            child.send({ type: 'usage' } satisfies ToChild);
          }),
        startProfile: () => command({ type: 'profile-start' }),
        stopProfile: (file) => command({ type: 'profile-stop', file }),
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.send({ type: 'close' } satisfies ToChild);
          }
          await exited;
        },
      });
    });
  });
}

/** The child's side: serves `listener` on 127.0.0.1 and obeys the parent. */
export async function serveInChild(
  listener: RequestListener,
  onClose: () => Promise<void> = async () => {},
): Promise<void> {
  const server = process.getBuiltinModule('node:http').createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  // A bench that died must not leave its servers running.
  process.on('disconnect', () => process.exit(0));
  let profiler: Profiler | null = null;
  process.on('message', async (message: ToChild) => {
    if (message.type === 'profile-start') {
      profiler = await startProfiler();
      process.send?.({ type: 'done' } satisfies FromChild);
      return;
    }
    if (message.type === 'profile-stop') {
      await profiler?.stop(message.file);
      profiler = null;
      process.send?.({ type: 'done' } satisfies FromChild);
      return;
    }
    if (message.type === 'usage') {
      const { user, system } = process.cpuUsage();
      const usage: ServerUsage = {
        cpuMs: (user + system) / 1000,
        peakRss: peakRssNow(),
        rss: process.memoryUsage.rss(),
      };
      process.send?.({ type: 'usage', usage } satisfies FromChild);
      return;
    }
    server.closeAllConnections();
    server.close();
    void onClose().finally(() => process.exit(0));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.send?.({ type: 'ready', origin } satisfies FromChild);
}

interface Profiler {
  stop(file: string): Promise<void>;
}

/** V8's sampling profiler through the inspector, loaded only when asked for. */
async function startProfiler(): Promise<Profiler> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
