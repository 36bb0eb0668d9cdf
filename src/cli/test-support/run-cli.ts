import { createReadStream } from 'node:fs';
import type { CliIo } from '../io.ts';
import { runCli } from '../main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process on real files, capturing its output. */
export async function runCliForTest(args: readonly string[], stdin = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    openFile: (path) =>
      path === '-' ? toAsync(new TextEncoder().encode(stdin)) : createReadStream(path),
    env: {},
    stderrIsTTY: false,
    version: '0.0.0-test',
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

async function* toAsync(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
