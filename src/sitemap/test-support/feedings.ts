// The standing chunk-boundary checks for the sitemap reader's tests: one input fed whole,
// byte by byte and at seeded random splits, through the push parser and through the
// streaming reader, each way giving a comparable outcome.
import { seededRandom } from '../../test-support/seeded-random.ts';
import { parseSitemap, SitemapParser } from '../index.ts';
import type { ReadSitemapOptions } from '../read-sitemap.ts';
import type { Diagnostic, SitemapEntry, SitemapKind } from '../types.ts';

export interface Outcome {
  readonly kind: SitemapKind;
  readonly locs: readonly string[];
  readonly entries: readonly SitemapEntry[];
  readonly diagnostics: readonly Diagnostic[];
}

/** `input` (bytes or text) cut into pieces of 1 to `max` bytes or characters, seeded. */
export function randomSplit<T extends Uint8Array | string>(
  input: T,
  seed: number,
  max: number,
): T[] {
  const next = seededRandom(seed);
  const pieces: T[] = [];
  for (let at = 0; at < input.length; ) {
    const size = 1 + Math.floor(next() * max);
    pieces.push(
      (typeof input === 'string'
        ? input.slice(at, at + size)
        : (input as Uint8Array).subarray(at, at + size)) as T,
    );
    at += size;
  }
  return pieces;
}

/** Whole, one byte at a time, and three seeded random splittings. */
export function feedings(bytes: Uint8Array): [string, Uint8Array[]][] {
  return [
    ['whole', [bytes]],
    ['byte by byte', Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1))],
    ['random splits of 1-7', randomSplit(bytes, 1, 7)],
    ['random splits of 1-100', randomSplit(bytes, 2, 100)],
    ['random splits of 1-5000', randomSplit(bytes, 3, 5000)],
  ];
}

export function outcomeOf(
  kind: SitemapKind,
  entries: readonly SitemapEntry[],
  diagnostics: readonly Diagnostic[],
): Outcome {
  return { kind, locs: entries.map((e) => e.loc), entries, diagnostics };
}

/** The push parser fed `pieces` (plain bytes: it does not inflate). */
export function pushParse(
  pieces: readonly Uint8Array[],
  options: ReadSitemapOptions = {},
): Outcome {
  const entries: SitemapEntry[] = [];
  const parser = new SitemapParser(options, (entry) => entries.push(entry));
  for (const piece of pieces) parser.write(piece);
  parser.end();
  return outcomeOf(parser.kind, entries, parser.diagnostics);
}

/** The streaming reader fed `pieces` as an async iterable (gzip allowed). */
export async function streamParse(
  pieces: readonly Uint8Array[],
  options: ReadSitemapOptions = {},
): Promise<Outcome> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield* pieces;
  }
  const reading = parseSitemap(chunks(), options);
  const entries: SitemapEntry[] = [];
  for await (const entry of reading) entries.push(entry);
  return outcomeOf(reading.kind, entries, reading.diagnostics);
}

/** Diagnostic codes, in order. */
export function codes(outcome: Outcome): string[] {
  return outcome.diagnostics.map((d) => d.code);
}
