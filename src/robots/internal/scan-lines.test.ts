// Differential test: the one-pass scanner (offsets, keys matched on char codes, strings made
// on demand) against its slow twin, the scanner as it was (test-support/scan-lines-reference.ts),
// on seeded random files built to hit every branch: odd keys and casing, missing colons,
// comments and NULs, `%` and non-ASCII values, over-long lines, every line end, invalid UTF-8.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../test-support/seeded-random.ts';
import { parseRobots } from '../parse-robots.ts';
import { scanRobots } from '../scan-robots.ts';
import { referenceScanLines } from '../test-support/scan-lines-reference.ts';
import type { RobotsLine } from '../types.ts';
import { LineCursor } from './line-cursor.ts';
import { PolicyBuilder } from './policy-builder.ts';
import { readRobotsText } from './robots-text.ts';

const KEYS = [
  'User-agent',
  'user-AGENT',
  'useragent',
  'User agent',
  'user-agentx',
  'Allow',
  'aLLOW',
  'allowed',
  'Disallow',
  'DISALLOW',
  'disalow',
  'dissallow',
  'diasllow',
  'disallaw',
  'dissalow',
  'Sitemap',
  'site-map',
  'SITEMAPS',
  'Content-Usage',
  'content-signal',
  'Content-Usages',
  'Crawl-delay',
  'crawl-DELAY',
  'Clean-param',
  'Host',
  'noindex',
  'NoFollow',
  'noarchive',
  'Unicorns',
  'dİsallow',
  '\u212Arawl-delay',
  'usér-agent',
  'u',
  'a',
  'd',
  's',
  'c',
  'h',
  'n',
  '',
  ' ',
  'x y',
];
const SEPARATORS = [':', ': ', ' : ', ':\t', ' ', '\t', '', '::', ' \v: '];
const VALUES = [
  '/',
  '/a/b',
  '*',
  '/*.php$',
  '/a$',
  '$',
  '/caf%c3%a9',
  '/café',
  '/%zz',
  '/100%',
  'Googlebot',
  'Googlebot/2.1 (+http://x)',
  '* junk',
  'bot_-x',
  'https://a.example/sitemap.xml',
  '/rel/map.xml',
  'http://[::1',
  'ftp://x/y',
  '2',
  '2.5',
  '.5',
  '1e3',
  'train-ai=n',
  '/p train-ai=y',
  '/ä search=no',
  'a b',
  '/x # c',
  '/x#c',
  '/x\0y',
  '\0',
  '😀',
  '\uD800',
  '/index.html',
  '/d/index.htm',
  '',
];
/** Openings that make a file an HTML page, or nearly. */
const STARTS = [
  '<!DOCTYPE html>\n',
  ' \t\n<html>',
  '<HEAD>',
  '<?xml v?>',
  '\u00a0<html>',
  '<htm',
  '<p>',
  `${' '.repeat(600)}<html>`,
  '\u2028<!doctype HTML>',
  ' ',
];
const LINE_ENDS = ['\n', '\r', '\r\n', '\n\r', '\n\n'];

function randomText(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const lines: string[] = [];
  const count = Math.floor(next() * 14);
  for (let i = 0; i < count; i++) {
    const r = next();
    let line: string;
    if (r < 0.08) line = pick(['', '   ', '# note', '  # x', '\t']);
    else if (r < 0.12) line = `${pick(KEYS)}${pick(SEPARATORS)}${'é/'.repeat(6000)}`;
    else if (r < 0.16)
      line = `${pick(KEYS)}${pick(SEPARATORS)}${'ab/'.repeat(6000)}${pick(VALUES)}`;
    else if (r < 0.18) line = `# ${'x'.repeat(17_000)}: y`;
    else if (r < 0.2)
      // `%`, non-ASCII, `#` or NUL early in an over-long line: inside the part that is kept.
      line = `${pick(KEYS)}${pick(SEPARATORS)}${pick(VALUES)}${pick(['', '#', '\0', ':'])}${'ab/'.repeat(6000)}`;
    else if (r < 0.24)
      // Values either side of the length the scanner stops looping over at.
      line = `${pick(KEYS)}${pick(SEPARATORS)}/${'a'.repeat(50 + Math.floor(next() * 30))}${pick(['', '%2f', 'é', '%'])}`;
    else
      line = `${pick(['', ' ', '\t'])}${pick(KEYS)}${pick(SEPARATORS)}${pick(VALUES)}${pick(['', ' ', ' # c', '#', '\0tail'])}`;
    lines.push(line);
  }
  if (next() < 0.1) {
    // Many non-ASCII rule values, then ASCII ones: the scanner switches how it finds them.
    for (let i = 0; i < 24; i++)
      lines.push(
        `Disallow: /${next() < 0.6 ? 'é' : 'e'}${i}%`.slice(0, next() < 0.8 ? -1 : undefined),
      );
  }
  let text = lines.join(pick(LINE_ENDS)) + (next() < 0.5 ? pick(LINE_ENDS) : '');
  if (next() < 0.15) text = pick(STARTS) + text;
  return next() < 0.1 ? `\uFEFF${text}` : text;
}

/** The same text as bytes, with a few bytes replaced so it is often not valid UTF-8. */
function randomBytes(next: () => number, text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  for (let i = Math.floor(next() * 4); i > 0 && bytes.length > 0; i--) {
    bytes[Math.floor(next() * bytes.length)] = pick8(next);
  }
  return bytes;
}

function pick8(next: () => number): number {
  return [0x80, 0xc3, 0xe9, 0xff, 0xef, 0x0d, 0x23, 0x3a, 0x00][Math.floor(next() * 9)] as number;
}

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
  builder.checkForHtml(text);
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
