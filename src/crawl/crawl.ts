import type { SitemapUrl } from '../sitemap/index.ts';
import type { CrawlResult } from './frontier.ts';
import { Crawler } from './internal/crawler.ts';
import { EventChannel } from './internal/event-channel.ts';
import type { CrawlEvent, CrawlOptions, CrawlSummary } from './types.ts';

export interface CrawlRunOptions extends CrawlOptions {
  /**
   * Receives the pages that belong in the sitemap, ordered by URL, once the crawl is over
   * (streamed from the crawl state, so memory does not grow with the site).
   */
  readonly write?: (pages: Iterable<SitemapUrl>) => Promise<void> | void;
}

/** A crawl: iterate it for events as they happen, await it for the summary. */
export interface CrawlRun extends AsyncIterable<CrawlEvent>, PromiseLike<CrawlSummary> {}

/**
 * Crawls a site politely and reports what it finds. robots.txt is the first request to each
 * origin and nothing else leaves before its outcome is known; the sitemaps it names come
 * next, then pages by priority (sitemap URLs before links, breadth first). Only 200 HTML
 * pages on the start URL's origin that are not noindex, not canonicalised elsewhere and not
 * disallowed go in the sitemap; everything else is counted with its reason. The crawl starts
 * when the run is first iterated or awaited; `signal` stops it cleanly.
 *
 * @example
 * ```ts
 * const run = crawl({ start: 'https://example.com/', write: (pages) => writeSitemaps(pages, { dir: 'out', baseUrl: 'https://example.com/' }) });
 * for await (const event of run) if (event.type === 'skipped') console.log(event.url, event.reason);
 * const summary = await run;
 * ```
 */
export function crawl(options: CrawlRunOptions): CrawlRun {
  let result: Promise<CrawlSummary> | null = null;
  let channel: EventChannel<CrawlEvent> | null = null;
  const begin = (): Promise<CrawlSummary> => {
    result ??= run(options, async (event) => {
      await channel?.push(event);
    }).then(
      (summary) => {
        channel?.close();
        return summary;
      },
      (error: unknown) => {
        channel?.close(error);
        throw error;
      },
    );
    return result;
  };
  return {
    [Symbol.asyncIterator]() {
      channel ??= new EventChannel<CrawlEvent>();
      begin().catch(() => {
        // Reported to the iterator by close(error).
      });
      return channel;
    },
    // biome-ignore lint/suspicious/noThenProperty: a run is awaited for its summary by design.
    then(onFulfilled, onRejected) {
      return begin().then(onFulfilled, onRejected);
    },
  };
}

async function run(
  options: CrawlRunOptions,
  emit: (event: CrawlEvent) => Promise<void>,
): Promise<CrawlSummary> {
  const crawler = new Crawler(options, emit);
  const crawled = await crawler.run();
  const state = crawler.state;
  try {
    const feeds = options.feeds ? await crawler.confirmFeeds() : [];
    const summary = { ...crawled, ...tally(state.results(), crawled.sitemapUrls > 0), feeds };
    if (options.write) await options.write(listedPages(state.results()));
    await emit({ type: 'done', summary });
    return summary;
  } finally {
    state.close();
  }
}

const SAMPLE = 1000;

/**
 * Counts from the whole crawl state, so a resumed crawl reports all of it: pages listed, and
 * the comparison with the site's sitemaps.
 */
function tally(
  results: Iterable<CrawlResult>,
  siteHasSitemap: boolean,
): Pick<CrawlSummary, 'listed' | 'sitemapComparison'> {
  let listed = 0;
  const comparison = {
    orphans: 0,
    missing: 0,
    orphanUrls: [] as string[],
    missingUrls: [] as string[],
  };
  for (const result of results) {
    if (result.outcome !== 'listed') continue;
    listed++;
    if (result.inSitemap && !result.linked) {
      comparison.orphans++;
      if (comparison.orphanUrls.length < SAMPLE) comparison.orphanUrls.push(result.url);
    } else if (result.linked && !result.inSitemap) {
      comparison.missing++;
      if (comparison.missingUrls.length < SAMPLE) comparison.missingUrls.push(result.url);
    }
  }
  return { listed, sitemapComparison: siteHasSitemap ? comparison : null };
}

function* listedPages(
  results: Iterable<{ url: string; outcome: string; lastmod: string | null; data: string | null }>,
): Generator<SitemapUrl> {
  for (const result of results) {
    if (result.outcome !== 'listed') continue;
    const extra =
      result.data === null
        ? {}
        : (JSON.parse(result.data) as Pick<SitemapUrl, 'alternates' | 'images'>);
    yield {
      loc: result.url,
      ...(result.lastmod === null ? {} : { lastmod: result.lastmod }),
      ...extra,
    };
  }
}
