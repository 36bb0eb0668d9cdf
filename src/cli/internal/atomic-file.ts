import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isWaymarkError, WaymarkError } from '../../shared/waymark-error.ts';

/**
 * Writes `chunks` to `path` atomically: into a temporary file beside it, renamed over `path`
 * only when everything was written. On any failure the temporary file is removed and `path`
 * is untouched.
 */
export async function writeFileAtomically(
  path: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const stream = createWriteStream(temporary);
  try {
    for await (const chunk of chunks) {
      if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    }
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
    await rename(temporary, path);
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    if (isWaymarkError(error)) throw error;
    throw new WaymarkError('io-failed', `cannot write ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
