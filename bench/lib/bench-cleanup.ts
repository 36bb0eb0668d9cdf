// Leaving nothing behind, however a benchmark ends. Tasks registered here (stop PostgreSQL,
// kill the workers, remove the temp folder) run once, newest first: from the benchmark's
// `finally`, or on SIGINT, SIGTERM or SIGHUP, after which the process exits. A SIGKILL runs
// no code, so a folder can also be guarded by a watchdog shell that holds a pipe from this
// process: when the pipe closes, however the process ended, the shell kills the pids listed
// in the folder's pid file (the benchmark's own children, kept current) and removes the
// folder. PostgreSQL from `startPostgresServer` has its own watchdog of the same kind.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

type Task = () => unknown;

/** A task that has not finished after this long is given up, so an exit is never stuck. */
const TASK_TIMEOUT_MS = 15_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const tasks: Task[] = [];
let running: Promise<void> | null = null;
let signalsHandled = false;
let interruptedBy: NodeJS.Signals | null = null;

/** True once a signal started the clean-up: errors it causes (killed workers) are not news. */
export function interrupted(): boolean {
  return interruptedBy !== null;
}

/** Registers `task` to run at clean-up (tasks run newest first). */
export function onCleanup(task: Task): void {
  tasks.push(task);
}

/** Runs every registered task once; later calls return the same promise. Never rejects. */
export function cleanUp(): Promise<void> {
  running ??= (async () => {
    for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
      try {
        await withTimeout(Promise.resolve().then(task), TASK_TIMEOUT_MS);
      } catch (error) {
        console.error(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return running;
}

/**
 * On SIGINT, SIGTERM or SIGHUP: clean up, then exit with 128 + the signal's number. A
 * second signal while cleaning up is ignored (each task is bounded by a timeout).
 */
export function cleanUpOnSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (interruptedBy !== null) return;
      interruptedBy = signal;
      console.error(`\n${signal}: stopping the benchmark and removing what it made`);
      void cleanUp().finally(() => process.exit(128 + constants.signals[signal]));
    });
  }
}

/** What {@link guardFolder} returns: keeps the folder's pid file current. */
export interface FolderGuard {
  /** Writes the pids the watchdog is to kill if this process dies without cleaning up. */
  setPids(pids: Iterable<number>): void;
}

/**
 * Starts a watchdog shell, in a session of its own (a Ctrl-C to the terminal does not reach
 * it), that removes `folder` once this process has ended, killing first the pids in its pid
 * file. Harmless after a normal clean-up: the folder is gone by then.
 */
export function guardFolder(folder: string): FolderGuard {
  const pidFile = join(folder, 'watchdog-pids');
  const script = `
read _ignored
if [ -f "$1" ]; then
  for pid in $(cat "$1"); do kill -KILL "$pid" 2>/dev/null; done
fi
rm -rf "$2"`;
  const watchdog = spawn('sh', ['-c', script, 'watchdog', pidFile, folder], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    setPids(pids) {
      writeFileSync(pidFile, [...pids].map((pid) => `${pid}\n`).join(''));
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`a clean-up task took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
