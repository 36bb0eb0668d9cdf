import assert from 'node:assert/strict';
import type { SiteServer } from '../../site/start-site-server.ts';
import { createServeCommand } from '../commands/serve.ts';
import type { CliIo } from '../io.ts';

/** A `waymark serve` running in this process, with what it printed so far. */
export interface Running {
  readonly server: SiteServer;
  readonly stdout: () => string;
  readonly stderr: () => string;
  stop(): Promise<number>;
}

/** Runs `waymark serve <args>` in-process until stop(). */
export async function serve(args: readonly string[]): Promise<Running> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    openFile: () => {
      throw new Error('not used');
    },
    env: {},
    stderrIsTTY: false,
    version: '0.0.0-test',
  };
  const stop = new AbortController();
  let listening: (server: SiteServer) => void = () => {};
  const started = new Promise<SiteServer>((resolve) => {
    listening = resolve;
  });
  const exit = createServeCommand({ stop: stop.signal, onListening: listening }).run(args, io);
  const server = await Promise.race([
    started,
    exit.then((code) => Promise.reject(new Error(`exited ${code}: ${err}`))),
  ]);
  return {
    server,
    stdout: () => out,
    stderr: () => err,
    stop: () => {
      stop.abort();
      return exit;
    },
  };
}

/** Waits for `condition`, checking every 20 ms; fails after 20 s. */
export async function until(condition: () => boolean, what: () => string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) assert.fail(`never happened; so far:\n${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
