import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Temporary states still open; one `exit` listener for all of them, added once. */
const temporaryDirs = new Set<string>();
let exitListener = false;

/**
 * A new folder for a temporary crawl state. It goes with the process too, when that ends
 * without closing the state (`process.exit` after a second Ctrl-C, say); only SIGKILL can
 * leave it behind.
 */
export function makeTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-crawl-'));
  if (!exitListener) {
    exitListener = true;
    process.on('exit', () => {
      for (const open of temporaryDirs) rmSync(open, { recursive: true, force: true });
    });
  }
  temporaryDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  temporaryDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
