import { codePointHex, UNSAFE_TO_SHOW } from '../../shared/printable.ts';

/**
 * `value` as one line of JSON that is safe on a terminal. JSON.stringify escapes C0 controls
 * but writes C1 controls (an 8-bit CSI), DEL and the bidi and line-separator controls raw;
 * those can only occur inside strings, where `\uXXXX` means the same character, so the line
 * parses to the same value.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(UNSAFE_TO_SHOW, (c) => `\\u${codePointHex(c, 4)}`)}\n`;
}
