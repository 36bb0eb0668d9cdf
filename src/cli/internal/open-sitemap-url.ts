import { formatBytes } from '../../http/internal/format-limit.ts';
import type { Diagnostic } from '../../shared/diagnostic.ts';
import { printable } from '../../shared/printable.ts';
import {
  DEFAULT_MAX_SITEMAP_BYTES,
  parseSitemap,
  type ReadSitemapOptions,
  type SitemapReading,
} from '../../sitemap/index.ts';
import { parseSitemapFile } from '../../sitemap/node.ts';
import { type SitemapOpener, sitemapResponseOf } from '../../sitemap/walk-sitemaps.ts';
import type { CliIo } from '../io.ts';
import { usageError } from './args.ts';
import { displayName, openInput } from './input.ts';
import { parseSize } from './units.ts';

/** A sitemap argument opened for reading: a fetched URL, or a file or standard input. */
export interface OpenedSitemap {
  /** How the source is named in messages: the final URL, the file, or `<stdin>`. */
  readonly name: string;
  /** The HTTP status when fetched and not 200, else null. */
  readonly failedStatus: number | null;
  /** Its entries, read as they stream in. */
  readonly reading: SitemapReading;
}

const MIB = 1024 * 1024;

/** The read cap `--max-bytes` asks for (`200MiB`, `1GB`, `500000`), or the default. */
export function maxBytesOption(command: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_SITEMAP_BYTES;
  const bytes = parseSize(command, '--max-bytes', text);
  if (bytes < 1 || !Number.isSafeInteger(bytes)) {
    throw usageError(command, `--max-bytes takes a size from 1 byte up, not "${text}"`);
  }
  return bytes;
}

/**
 * Opens the `<url|file|->` argument of the sitemap commands. URLs are fetched with the given
 * User-Agent, and the reader gets the final URL and the Content-Type, so host checks and
 * charsets work. `maxBytes` caps what is read, counted after gzip decompression, for files
 * and URLs alike: the reader stops there with a `size-limit` error (see {@link cutReadHint}).
 * The download itself is not capped separately, as it can only be smaller (the reader
 * cancels it at the cap).
 */
export async function openSitemapSource(
  source: string,
  io: CliIo,
  userAgent: string,
  maxBytes: number,
): Promise<OpenedSitemap> {
  if (source === '-') {
    return {
      name: displayName(source),
      failedStatus: null,
      reading: parseSitemap(await openInput(source, io), { maxBytes }),
    };
  }
  if (!/^https?:\/\//i.test(source)) {
    // A file that cannot be opened fails the first step of the reading with `io-failed`.
    return { name: source, failedStatus: null, reading: parseSitemapFile(source, { maxBytes }) };
  }
  // The HTTP client (node:http, https, dns, crypto) is loaded only for a URL: reading a
  // local file or stdin is most uses, and loading it cost ~0.1 s CPU and ~14 MB RSS. It is
  // waymark's own transport, not Node's fetch: a gzip body cut short fails there, where
  // fetch reads it as a complete, shorter sitemap (see content-decoders.ts).
  const response = await cliSitemapOpener(source, {
    timeoutMs: 60_000,
    // The reader stops at maxBytes (with the hint below); this only stops a runaway body.
    maxBytes: 2 * maxBytes + MIB,
    headers: {
      'user-agent': userAgent,
      accept: 'application/xml, text/xml, text/plain;q=0.9, */*;q=0.5',
    },
  });
  if (response.status !== 200) await response.cancel();
  const { contentType } = response;
  const options: ReadSitemapOptions = {
    url: response.url,
    maxBytes,
    ...(contentType ? { contentType } : {}),
  };
  return {
    name: response.url,
    failedStatus: response.status === 200 ? null : response.status,
    reading: parseSitemap(response.body, options),
  };
}

/**
 * The command line's sitemap requests (the document given, and a walk's with `sitemap parse
 * -r`), over waymark's own transport: a compressed body cut short fails rather than reading
 * short. The client is loaded on the first request.
 */
export const cliSitemapOpener: SitemapOpener = async (url, request) => {
  const [{ openRequest }, { DEFAULT_FETCH_LIMITS }] = await Promise.all([
    import('../../http/internal/open-request.ts'),
    import('../../http/fetch-with-limits.ts'),
  ]);
  const response = await openRequest(url, {
    ...request,
    fetch: undefined,
    maxRedirects: DEFAULT_FETCH_LIMITS.maxRedirects,
    followRedirects: true,
  });
  return sitemapResponseOf(response);
};

/**
 * The line that tells how to read further when `name` was cut at the read cap, or null when
 * it was read whole. The reader's own diagnostic names its `maxBytes` option; on the command
 * line the flag is what helps.
 */
export function cutReadHint(
  command: string,
  name: string,
  diagnostics: readonly Diagnostic[],
  maxBytes: number,
): string | null {
  if (!diagnostics.some((d) => d.code === 'size-limit')) return null;
  const twice = `${Math.ceil((2 * maxBytes) / MIB)}MiB`;
  return `${command}: ${printable(name)} was read only up to the ${formatBytes(maxBytes)} cap; raise it with --max-bytes <size> (e.g. --max-bytes ${twice})\n`;
}
