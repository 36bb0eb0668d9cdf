// The contender of the site benchmark, run as a child process: waymark's live site handler
// over a content root, through its own Node adapter, exactly as a user would serve it.

import { fileURLToPath } from 'node:url';
import { createSiteHandler, toNodeListener } from '../../src/site/index.ts';
import { serveInChild } from './site-server.ts';

const SCRIPT = fileURLToPath(import.meta.url);

export interface LiveTask {
  readonly root: string;
  /** Passed to `createSiteHandler` as its `config`. */
  readonly config: { readonly maxUrls?: number; readonly maxBytes?: number };
}

if (process.argv[1] === SCRIPT) {
  const task = JSON.parse(process.argv[2] ?? '{}') as LiveTask;
  const handler = createSiteHandler({ root: task.root, config: task.config });
  await serveInChild(toNodeListener(handler), () => handler.close());
}
