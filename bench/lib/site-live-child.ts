// The contender of the site benchmark, run as a child process: waymark's live site handler
// over a content root, through its own Node adapter, exactly as a user would serve it. With
// `v8: 'serve'` the process first sets the V8 flags `waymark serve` sets for itself (from the
// same table), as a program serving a large root is told to; with `'defaults'` it keeps V8's.

import { fileURLToPath } from 'node:url';
import { tuneV8For } from '../../src/cli/internal/v8-tuning.ts';
import { serveInChild } from './site-server.ts';

const SCRIPT = fileURLToPath(import.meta.url);

export interface LiveTask {
  readonly root: string;
  /** Passed to `createSiteHandler` as its `config`. */
  readonly config: { readonly maxUrls?: number; readonly maxBytes?: number };
  readonly v8: 'serve' | 'defaults';
}

if (process.argv[1] === SCRIPT) {
  const task = JSON.parse(process.argv[2] ?? '{}') as LiveTask;
  // Before the handler's modules load, as bin.ts does before it imports a command.
  if (task.v8 === 'serve') tuneV8For('serve');
  const { createSiteHandler, toNodeListener } = await import('../../src/site/index.ts');
  const handler = createSiteHandler({ root: task.root, config: task.config });
  await serveInChild(toNodeListener(handler), () => handler.close());
}
