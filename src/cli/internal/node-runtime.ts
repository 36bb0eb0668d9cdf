// bin.ts reads this before anything else is imported, on whatever Node the user has. It must
// stay free of imports and of APIs newer than Node 16, so that an old Node prints what is
// needed instead of crashing deep in the module graph (node:sqlite, which the crawl state
// uses, is ERR_UNKNOWN_BUILTIN_MODULE before 22.13).

/** The Node.js versions waymark runs on, as people read them. */
export const NODE_REQUIREMENT = 'Node.js 22.13 or later (23.4 or later on Node 23)';

/**
 * Why this Node.js cannot run waymark, or null when it can. `node:sqlite` loads without a
 * flag from 22.13 on the 22 line and from 23.4 on the 23 line. A version that does not read
 * as `v<major>.<minor>` is let through: the check is there to explain, not to guess.
 */
export function unsupportedNodeMessage(version: string, execPath: string): string | null {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  if (match === null) return null;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  const supported = major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
  if (supported) return null;
  return `waymark needs ${NODE_REQUIREMENT}; this is Node.js ${version} (${execPath})`;
}

const SQLITE_WARNING = 'SQLite is an experimental feature';

/**
 * True for the ExperimentalWarning Node 22 and 23 emit when `node:sqlite` is first loaded,
 * in any of the forms `process.emitWarning` takes (Node's own call is
 * `emitWarning(message, 'ExperimentalWarning', code, ctor)`).
 */
export function isSqliteExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const message =
    typeof warning === 'string' ? warning : warning instanceof Error ? warning.message : '';
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions
        ? (typeOrOptions as { type?: unknown }).type
        : warning instanceof Error
          ? warning.name
          : 'Warning';
  return type === 'ExperimentalWarning' && message.startsWith(SQLITE_WARNING);
}

/** The part of `process` the warning filter replaces. */
export interface WarningEmitter {
  emitWarning: NodeJS.Process['emitWarning'];
}

/**
 * Drops the SQLite ExperimentalWarning, and only it, from `target.emitWarning` (the
 * `process`): the crawl state is waymark's business, not the user's, and the line would
 * look like a problem on every 22.x run. Every other warning passes unchanged. Returns a
 * function that puts the original back.
 */
export function hideSqliteExperimentalWarning(target: WarningEmitter): () => void {
  const original = target.emitWarning;
  const filtered = function (this: unknown, warning: unknown, ...rest: unknown[]): void {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    (original as (...args: unknown[]) => void).call(this, warning, ...rest);
  };
  target.emitWarning = filtered as NodeJS.Process['emitWarning'];
  return () => {
    target.emitWarning = original;
  };
}
