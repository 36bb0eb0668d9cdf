// I/O failures say what went wrong in words, with the system error as the cause; codes
// without words keep Node's message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWaymarkError } from '../waymark-error.ts';
import { asIoError } from './atomic-file.ts';

const systemError = (code: string, syscall: string, message: string) =>
  Object.assign(new Error(message), { code, syscall, errno: -1 });

const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ['ENOSPC', 'write', 'no space left on the device'],
  ['EROFS', 'open', 'a read-only file system'],
  ['EACCES', 'open', 'permission denied'],
  ['EEXIST', 'mkdir', 'a file is there, not a directory'],
  ['EEXIST', 'open', 'EEXIST: Node says this'],
  ['EIO', 'write', 'EIO: Node says this'],
];

for (const [code, syscall, words] of CASES) {
  test(`asIoError: ${code} in ${syscall}`, () => {
    const cause = systemError(code, syscall, `${code}: Node says this`);
    const made = asIoError('write out/sitemap.xml', cause);
    assert.ok(isWaymarkError(made) && made.code === 'io-failed');
    assert.equal(made.message, `cannot write out/sitemap.xml: ${words}`);
    assert.equal(made.cause, cause);
  });
}

test('asIoError leaves errors that are not the system’s as they are', () => {
  const thrown = new TypeError('a bug');
  assert.equal(asIoError('write x', thrown), thrown);
});
