import { readFile } from 'node:fs/promises';
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
    readStdin: async () => new TextEncoder().encode(stdin),
    readFile: async (path) => new Uint8Array(await readFile(path)),
    env: {},
  };
  const code = await runCli(args, io, '0.0.0-test');
  return { code, stdout, stderr };
}
