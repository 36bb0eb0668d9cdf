import { errorMessage } from '../error-message.ts';
import { WaymarkError } from '../waymark-error.ts';
import { SYSTEM_ERROR_WORDS } from './system-error-words.ts';

/** Why a file cannot be read, by system error code, in words. */
const REASONS: Readonly<Record<string, string>> = { ENOENT: 'no such file', ...SYSTEM_ERROR_WORDS };

/**
 * The `io-failed` error for a file that cannot be read at all, with the common reasons in
 * words ("no such file", "a directory, not a file", "permission denied") instead of Node's
 * `EISDIR: illegal operation on a directory, read`; the system error is its `cause`.
 */
export function cannotRead(path: string, error: unknown): WaymarkError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = REASONS[code ?? ''] ?? errorMessage(error);
  return new WaymarkError('io-failed', `cannot read ${path}: ${reason}`, { cause: error });
}
