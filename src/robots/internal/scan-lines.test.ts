// Differential test: the one-pass scanner (offsets, keys matched on char codes, strings made
// on demand) against its slow twin, the scanner as it was (test-support/scan-lines-reference.ts),
// on seeded random files built to hit every branch: odd keys and casing, missing colons,
// comments and NULs, `%` and non-ASCII values, over-long lines, every line end, invalid UTF-8.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { parseRobots } from '../parse-robots.ts';
import { scanRobots } from '../scan-robots.ts';
import { randomBytes, randomText } from '../test-support/random-robots.ts';
import { referenceScanLines } from '../test-support/scan-lines-reference.ts';
import type { RobotsLine } from '../types.ts';
import { LineCursor } from './line-cursor.ts';
import { PolicyBuilder } from './policy-builder.ts';
import { readRobotsText } from './robots-text.ts';

function referenceLines(input: string | Uint8Array): RobotsLine[] {
  const lines: RobotsLine[] = [];
  const { text, bytesAsChars } = readRobotsText(input);
  referenceScanLines(text, bytesAsChars, (line) => lines.push(line));
  return lines;
}

/** A scanned record shown to the builder as a cursor, as the old scanner's lines were. */
class RecordCursor extends LineCursor {
  readonly #record: RobotsLine;
  constructor(record: RobotsLine) {
    super();
    this.#record = record;
    this.line = record.line;
    this.kind = record.kind;
    this.typo = record.typo;
    this.crawlDelay = record.kind === 'unsupported' && record.key.toLowerCase() === 'crawl-delay';
    this.missingColon = record.missingColon;
    this.hasComment = record.hasComment;
    this.tooLong = record.tooLong;
    this.invalidUtf8 = record.invalidUtf8;
  }
  override key(): string {
    return this.#record.key;
  }
  override value(): string {
    return this.#record.value;
  }
  override valueFirstChar(): number {
    return this.#record.value.length > 0 ? this.#record.value.charCodeAt(0) : Number.NaN;
  }
  override pattern(): string | null {
    return this.#record.pattern;
  }
}

/** parseRobots as it was fed by the old scanner. */
function referenceParse(input: string | Uint8Array, url: string) {
  const builder = new PolicyBuilder(url);
  const { text, bytesAsChars } = readRobotsText(input);
  builder.checkDocument(text);
  referenceScanLines(text, bytesAsChars, (record) => builder.add(new RecordCursor(record)));
  return builder.build();
}

function plain(robots: ReturnType<typeof parseRobots>) {
  return {
    groups: robots.groups,
    sitemaps: robots.sitemaps,
    diagnostics: robots.diagnostics,
    usageOutsideGroups: robots.usageOutsideGroups,
  };
}

test('the one-pass scanner reads every line as the reference scanner does', () => {
  const next = seededRandom(14);
  for (let round = 0; round < 1500; round++) {
    const text = randomText(next);
    const inputs: (string | Uint8Array)[] = [text, randomBytes(next, text)];
    for (const input of inputs) {
      const where = `round ${round}: ${JSON.stringify(typeof input === 'string' ? input : [...input]).slice(0, 300)}`;
      assert.deepEqual(scanRobots(input), referenceLines(input), where);
      const url = 'https://example.com/robots.txt';
      assert.deepEqual(
        plain(parseRobots(input, { url, maxBytes: Number.POSITIVE_INFINITY })),
        plain(referenceParse(input, url)),
        where,
      );
    }
  }
});
