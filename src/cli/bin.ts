#!/usr/bin/env node
import { createReadStream, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { runCli } from './main.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => new Uint8Array(await buffer(process.stdin)),
  readFile: async (path) => new Uint8Array(await readFile(path)),
  openFile: (path) => (path === '-' ? process.stdin : createReadStream(path)),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
  version: pkg.version,
});
