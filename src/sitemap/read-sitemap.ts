import type { Diagnostic } from '../shared/diagnostic.ts';
import { errorMessage } from '../shared/error-message.ts';
import { flattenBatches } from './internal/batch-flattener.ts';
import {
  type ChunkSource,
  chunksOf,
  gunzipIfNeeded,
  type SitemapInput,
} from './internal/byte-source.ts';
import { ReadingTime } from './internal/reading-time.ts';
import { SitemapParser, type SitemapParserOptions } from './sitemap-parser.ts';
import type { SitemapDocument, SitemapEntry, SitemapKind } from './types.ts';

export { DEFAULT_MAX_SITEMAP_BYTES } from './sitemap-parser.ts';

/** Default time budget for reading one document: 60 s. */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Input is parsed, and its entries handed out, this much at a time. Large chunks (a file
 * stream's 64 KiB, a gunzip burst) otherwise keep their decoded text and a few hundred
 * entries alive while the consumer works through them; live data at a garbage collection is
 * what makes V8 grow its young generation, so small pieces keep the process's memory low.
 */
const PIECE = 4 * 1024;

export interface ReadSitemapOptions extends SitemapParserOptions {
  /**
   * Milliseconds the reading may take before it stops with a `time-limit` error, keeping
   * what was read. It counts time spent reading (waiting for input, inflating, parsing),
   * not time the consumer spends between entries, so a slow consumer is never cut off; a
   * stalled input is. Default 60,000 (60 s).
   */
  readonly timeoutMs?: number;
  /** The clock `timeoutMs` is measured with, in milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

/** Entries as they are read, and the kind and diagnostics once iteration has finished. */
export interface SitemapReading extends AsyncIterable<SitemapEntry> {
  /** The document's kind; final once iteration ends (`unknown` before the first element). */
  readonly kind: SitemapKind;
  /** Every problem found; complete once iteration ends. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads a sitemap as a stream of entries: a string, bytes, a Web `ReadableStream`, a Node
 * `Readable` or any `AsyncIterable` of byte chunks, gzipped or not. Memory stays flat: only
 * the entry being read is held. Time is linear in the bytes read, and bounded by `maxBytes`
 * and `timeoutMs`. Iterate once; stopping early cancels the input.
 *
 * @example
 * ```ts
 * const response = await fetch('https://example.com/sitemap.xml.gz');
 * const reading = parseSitemap(response.body!, { url: response.url });
 * for await (const entry of reading) console.log(entry.loc);
 * console.log(reading.kind, reading.diagnostics.length);
 * ```
 */
export function parseSitemap(
  input: SitemapInput,
  options: ReadSitemapOptions = {},
): SitemapReading {
  return entriesOf(parseSitemapBatches(input, options));
}

/** A batch reading handed out an entry at a time. */
export function entriesOf(batches: SitemapBatchReading): SitemapReading {
  return readingOf(flattenBatches(batches[Symbol.asyncIterator]()), batches);
}

/** {@link SitemapReading} in batches: the entries each piece of input completed. */
export interface SitemapBatchReading
  extends AsyncIterable<SitemapEntry[]>,
    Pick<SitemapReading, 'kind' | 'diagnostics'> {}

/**
 * {@link parseSitemap} handing out the entries of each piece of input at once, for consumers
 * that pass entries on (the walker): each step through an async generator costs a promise,
 * which per entry is a measurable share of reading.
 */
export function parseSitemapBatches(
  input: SitemapInput,
  options: ReadSitemapOptions = {},
): SitemapBatchReading {
  return readBatches(async () => chunksOf(input), options);
}

/**
 * {@link parseSitemapBatches} on the source `open` gives, opened when iteration starts. A
 * failure to open rejects the iteration (nothing was read: there is no document to report
 * on); a failure after that is a `read-error` diagnostic, with the entries before it kept.
 * Opening counts against `timeoutMs`, so an open that never ends (a FIFO with no writer)
 * cannot hold the reading.
 */
export function readBatches(
  open: () => Promise<ChunkSource>,
  options: ReadSitemapOptions = {},
): SitemapBatchReading {
  const outcome: Outcome = { kind: 'unknown', diagnostics: [] };
  async function* batches(): AsyncGenerator<SitemapEntry[]> {
    // One array, emptied by splice: a new empty array per batch made V8 throw away the
    // compiled code that pushes entries (the array literal's element kind changes on first push).
    const queue: SitemapEntry[] = [];
    const parser = new SitemapParser(options, (entry) => {
      queue.push(entry);
    });
    const extra: Diagnostic[] = [];
    const time = new ReadingTime(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.now);
    const opening = open();
    const opened = await time.race(opening);
    if (opened === ReadingTime.OVER) {
      // Released whenever the open ends, since nothing will read it.
      opening.then((late) => late.close()).catch(() => {});
      outcome.diagnostics = [time.problem()];
      return;
    }
    const source = gunzipIfNeeded(opened);
    let cut = false;
    // Stays true when the consumer stops iterating (break, return): the rest was not read,
    // which says nothing of the document.
    let left = true;
    try {
      reading: for (;;) {
        const chunk = await time.race(source.next());
        if (chunk === null) break;
        if (chunk === ReadingTime.OVER) {
          cut = true;
          extra.push(time.problem());
          break;
        }
        for (let at = 0; at < chunk.length && !parser.stopped; at += PIECE) {
          parser.write(
            chunk.length <= PIECE
              ? chunk
              : typeof chunk === 'string'
                ? chunk.slice(at, at + PIECE)
                : chunk.subarray(at, at + PIECE),
          );
          outcome.kind = parser.kind;
          if (queue.length > 0) {
            const batch = queue.splice(0);
            time.pause();
            yield batch;
            time.resume();
          }
          if (time.over()) {
            cut = true;
            extra.push(time.problem());
            break reading;
          }
        }
        if (parser.stopped) break;
      }
      left = false;
    } catch (error) {
      left = false;
      cut = true;
      const what = source.gzipped()
        ? 'the gzip data is truncated or corrupt'
        : 'reading the input failed';
      extra.push(
        problem(
          source.gzipped() ? 'gzip-error' : 'read-error',
          'error',
          `${what} (${errorMessage(error)}); entries before it were kept`,
        ),
      );
    } finally {
      source.close();
      if (source.trailingData()) {
        extra.push(
          problem(
            'gzip-trailing-data',
            'warning',
            'bytes that are not gzip follow the compressed data; they were ignored',
          ),
        );
      }
      parser.end(left ? { abandoned: true } : { cut });
      outcome.kind = parser.kind;
      outcome.diagnostics = [...extra, ...parser.diagnostics];
    }
    if (queue.length > 0) yield queue;
  }
  return readingOf(batches(), outcome);
}

/** What a reading knows once iteration has ended; written by the reading's generator. */
interface Outcome {
  kind: SitemapKind;
  diagnostics: readonly Diagnostic[];
}

/**
 * A reading over `iterator`, iterable once, whose kind and diagnostics are read from
 * `outcome` when asked (they settle as iteration goes on).
 */
function readingOf<T>(
  iterator: AsyncIterator<T>,
  outcome: Readonly<Outcome>,
): AsyncIterable<T> & Readonly<Outcome> {
  return {
    [Symbol.asyncIterator]: () => iterator,
    get kind() {
      return outcome.kind;
    },
    get diagnostics() {
      return outcome.diagnostics;
    },
  };
}

/**
 * Reads a whole sitemap at once: `{ kind, entries, diagnostics }`. The same core as
 * {@link parseSitemap}; prefer that one for documents that may be large.
 *
 * @example
 * ```ts
 * const { kind, entries } = await readSitemap(await readFile('sitemap.xml'));
 * ```
 */
export async function readSitemap(
  input: SitemapInput,
  options: ReadSitemapOptions = {},
): Promise<SitemapDocument> {
  return wholeDocument(parseSitemap(input, options));
}

/** Every entry of `reading`, with its kind and diagnostics. */
export async function wholeDocument(reading: SitemapReading): Promise<SitemapDocument> {
  const entries: SitemapEntry[] = [];
  for await (const entry of reading) entries.push(entry);
  return { kind: reading.kind, entries, diagnostics: reading.diagnostics };
}

function problem(code: string, severity: Diagnostic['severity'], message: string): Diagnostic {
  return { code, severity, message, line: 1, column: 1 };
}
