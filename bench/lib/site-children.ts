// The three server processes of the site benchmark, built once as plain JavaScript (as the
// package ships `dist/`), so neither server pays for type stripping in time or memory.

import { fileURLToPath } from 'node:url';
import { compileForChild } from './child-process.ts';
import type { LiveTask } from './site-live-child.ts';
import { type ServerHandle, startServer } from './site-server.ts';
import type { StaticTask } from './site-static-child.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LIVE = fileURLToPath(new URL('./site-live-child.ts', import.meta.url));
const STATIC = fileURLToPath(new URL('./site-static-child.ts', import.meta.url));
const MEMORY = fileURLToPath(new URL('./site-memory-child.ts', import.meta.url));

export interface ServerScripts {
  readonly live: string;
  readonly static: string;
  readonly memory: string;
  /** False when the build failed and the children run the TypeScript sources. */
  readonly compiled: boolean;
}

/** Compiles the child scripts (and waymark's sources they import) into `dir`. */
export async function buildServerScripts(dir: string): Promise<ServerScripts> {
  const compiled = await compileForChild(REPO, dir, [LIVE, STATIC, MEMORY]);
  const live = compiled(LIVE);
  const staticScript = compiled(STATIC);
  const memory = compiled(MEMORY);
  if (live === null || staticScript === null || memory === null) {
    return { live: LIVE, static: STATIC, memory: MEMORY, compiled: false };
  }
  return { live, static: staticScript, memory, compiled: true };
}

/**
 * The live handler over `task.root`. With `fromSources`, from the TypeScript sources: type
 * stripping keeps every line and column, so a CPU profile points into `src/` as written.
 */
export function startLive(
  scripts: ServerScripts,
  task: LiveTask,
  fromSources = false,
): Promise<ServerHandle> {
  return startServer(fromSources ? LIVE : scripts.live, task);
}

/** The same bytes held in memory: the reference the live handler is judged against. */
export function startMemory(scripts: ServerScripts, task: StaticTask): Promise<ServerHandle> {
  return startServer(scripts.memory, task);
}

export function startStatic(scripts: ServerScripts, task: StaticTask): Promise<ServerHandle> {
  return startServer(scripts.static, task);
}
