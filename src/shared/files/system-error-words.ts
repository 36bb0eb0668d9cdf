/**
 * What the common file-system errors mean, in words, by code: `a directory, not a file`
 * instead of Node's `EISDIR: illegal operation on a directory, read`. Each holds whatever the
 * call was (a read, a write, a rename); the caller says which, and the system error stays
 * the `cause`.
 */
export const SYSTEM_ERROR_WORDS: Readonly<Record<string, string>> = {
  EISDIR: 'a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ELOOP: 'too many symbolic links (a link that leads back to itself?)',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  EROFS: 'a read-only file system',
  EBADF: 'it is closed',
};

/** A system error in words when its code is common, else Node's own message. */
export function systemErrorInWords(error: NodeJS.ErrnoException): string {
  return SYSTEM_ERROR_WORDS[error.code ?? ''] ?? error.message;
}
