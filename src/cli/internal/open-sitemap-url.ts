import { openWithLimits } from '../../http/index.ts';
import { parseSitemap, type ReadSitemapOptions, type SitemapReading } from '../../sitemap/index.ts';
import type { CliIo } from '../io.ts';
import { displayName, openInput } from './input.ts';

/** A sitemap argument opened for reading: a fetched URL, or a file or standard input. */
export interface OpenedSitemap {
  /** How the source is named in messages: the final URL, the file, or `<stdin>`. */
  readonly name: string;
  /** The HTTP status when fetched and not 200, else null. */
  readonly failedStatus: number | null;
  /** Its entries, read as they stream in. */
  readonly reading: SitemapReading;
}

/**
 * Opens the `<url|file|->` argument of the sitemap commands. URLs are fetched with generous
 * caps (a sitemap may be 50 MiB) and the given User-Agent; the reader gets the final URL and
 * the Content-Type, so host checks and charsets work.
 */
export async function openSitemapSource(
  source: string,
  io: CliIo,
  userAgent: string,
): Promise<OpenedSitemap> {
  if (!/^https?:\/\//i.test(source)) {
    return {
      name: displayName(source),
      failedStatus: null,
      reading: parseSitemap(await openInput(source, io)),
    };
  }
  const response = await openWithLimits(source, {
    timeoutMs: 60_000,
    maxBytes: 100 * 1024 * 1024,
    headers: {
      'user-agent': userAgent,
      accept: 'application/xml, text/xml, text/plain;q=0.9, */*;q=0.5',
    },
  });
  if (response.status !== 200) await response.cancel();
  const contentType = response.headers.get('content-type');
  const options: ReadSitemapOptions = {
    url: response.url,
    ...(contentType ? { contentType } : {}),
  };
  return {
    name: response.url,
    failedStatus: response.status === 200 ? null : response.status,
    reading: parseSitemap(response.body, options),
  };
}
