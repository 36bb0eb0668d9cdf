import { WaymarkError } from '../../shared/waymark-error.ts';
import type { CliIo } from '../io.ts';

/** Reads a file argument, `-` meaning standard input. */
export async function readInput(path: string, io: CliIo): Promise<Uint8Array> {
  if (path === '-') return io.readStdin();
  try {
    return await io.readFile(path);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'no such file'
        : String((error as Error).message);
    throw new WaymarkError('io-failed', `cannot read ${path}: ${reason}`, { cause: error });
  }
}

/** How a file argument is named in messages. */
export function displayName(path: string): string {
  return path === '-' ? '<stdin>' : path;
}
