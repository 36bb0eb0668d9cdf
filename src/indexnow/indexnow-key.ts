/** 8 to 128 characters of a-z, A-Z, 0-9 and `-`, as the IndexNow documentation defines a key. */
const KEY = /^[a-zA-Z0-9-]{8,128}$/;

/**
 * True when `key` is a key IndexNow accepts: 8 to 128 characters, each a letter `a-z` or
 * `A-Z`, a digit or `-`.
 *
 * @example
 * ```ts
 * isValidIndexNowKey('73134416ae45434d98edc086e0bf6740'); // true
 * isValidIndexNowKey('short'); // false
 * ```
 */
export function isValidIndexNowKey(key: string): boolean {
  return KEY.test(key);
}
