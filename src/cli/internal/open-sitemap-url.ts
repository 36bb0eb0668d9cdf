import { openWithLimits } from '../../http/index.ts';

/** A sitemap source opened for reading: a fetched URL, or a file (url and status null). */
export interface OpenedSitemap {
  readonly body: AsyncIterable<Uint8Array>;
  readonly url: string | null;
  readonly status: number | null;
  readonly contentType: string | null;
}

/** Fetches a sitemap for the CLI: generous caps (a sitemap may be 50 MiB), a clear User-Agent. */
export async function openSitemapUrl(url: string, userAgent: string): Promise<OpenedSitemap> {
  const response = await openWithLimits(url, {
    timeoutMs: 60_000,
    maxBytes: 100 * 1024 * 1024,
    headers: {
      'user-agent': userAgent,
      accept: 'application/xml, text/xml, text/plain;q=0.9, */*;q=0.5',
    },
  });
  if (response.status !== 200) await response.cancel();
  return {
    body: response.body,
    url: response.url,
    status: response.status,
    contentType: response.headers.get('content-type'),
  };
}
