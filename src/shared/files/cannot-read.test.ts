import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWaymarkError } from '../waymark-error.ts';
import { cannotRead } from './cannot-read.ts';

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

const CASES: ReadonlyArray<readonly [string, unknown, string]> = [
  ['ENOENT', errno('ENOENT', "ENOENT: no such file or directory, open 'x'"), 'no such file'],
  [
    'EISDIR',
    errno('EISDIR', 'EISDIR: illegal operation on a directory, read'),
    'a directory, not a file',
  ],
  ['EACCES', errno('EACCES', "EACCES: permission denied, open 'x'"), 'permission denied'],
  ['EPERM', errno('EPERM', "EPERM: operation not permitted, open 'x'"), 'permission denied'],
  [
    'ENOTDIR',
    errno('ENOTDIR', 'ENOTDIR: not a directory'),
    'a part of the path is a file, not a directory',
  ],
  [
    'ELOOP',
    errno('ELOOP', 'ELOOP: too many symbolic links encountered'),
    'too many symbolic links (a link that leads back to itself?)',
  ],
  ['EBADF', errno('EBADF', 'EBADF: bad file descriptor'), 'it is closed'],
  ['another code', errno('EIO', 'EIO: i/o error, read'), 'EIO: i/o error, read'],
  ['not an Error', 'the disk went away', 'the disk went away'],
  ['null', null, 'null'],
];

for (const [what, error, reason] of CASES) {
  test(`cannotRead: ${what}`, () => {
    const made = cannotRead('data/sitemap.xml', error);
    assert.ok(isWaymarkError(made) && made.code === 'io-failed');
    assert.equal(made.message, `cannot read data/sitemap.xml: ${reason}`);
    assert.equal(made.cause, error);
  });
}
