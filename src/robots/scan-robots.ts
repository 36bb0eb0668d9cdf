import { readRobotsText } from './internal/robots-text.ts';
import { lineRecord, scanLines } from './internal/scan-lines.ts';
import type { RobotsLine } from './types.ts';

/**
 * Every line of a robots.txt as the parser reads it, for linters and editors: kind, key,
 * value, and flags for misspellings, missing colons, comments and over-long lines. Total,
 * like {@link parseRobots}; no size limit is applied.
 *
 * @example
 * ```ts
 * scanRobots('disalow: /x').map((l) => [l.kind, l.typo]); // [['disallow', true]]
 * ```
 */
export function scanRobots(input: string | Uint8Array): RobotsLine[] {
  const lines: RobotsLine[] = [];
  const { text, bytesAsChars } = readRobotsText(input);
  scanLines(text, bytesAsChars, {
    add(line) {
      lines.push(lineRecord(line));
    },
  });
  return lines;
}
