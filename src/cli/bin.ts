#!/usr/bin/env node
import { hideSqliteExperimentalWarning, unsupportedNodeMessage } from './internal/node-runtime.ts';
import { tuneV8For } from './internal/v8-tuning.ts';

// Checked before anything else is imported: on an older Node the module graph fails to load
// (node:sqlite), with a stack trace even for --help. The exit status is EXIT_FAILURE (the
// job cannot be done here), written out so that nothing is imported before the check.
const unsupported = unsupportedNodeMessage(process.version, process.execPath);
if (unsupported !== null) {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 3;
} else {
  hideSqliteExperimentalWarning(process);
  exitQuietlyWhenOutputCloses();
  // Before anything allocates much: see v8-tuning.ts.
  tuneV8For(process.argv.slice(2).find((arg) => arg !== '--debug'));
  // Not a top-level await: a Node too old for one (before 14.8) still parses this module
  // and gets the message above. runCli catches every failure of a command.
  void run();
}

/**
 * `waymark sitemap parse big.xml | head -1`: once the reader has gone there is no one to tell,
 * so the process ends at once, silently, with the status of a process killed by SIGPIPE
 * (128 + 13), as `cat` or `grep` would end (a shell with `pipefail` sees it; others do not).
 */
function exitQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(128 + 13);
    });
  }
}

async function run(): Promise<void> {
  const { createReadStream, readFileSync } = await import('node:fs');
  const { runCli } = await import('./main.ts');
  const { interruptSignal } = await import('./internal/interrupt.ts');

  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };

  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    openFile: (path) => (path === '-' ? process.stdin : createReadStream(path)),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    version: pkg.version,
    interrupts: () => interruptSignal(process),
  });
}
