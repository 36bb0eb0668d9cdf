import type { SitemapUrl } from '../sitemap/index.ts';
import type { CrawlResult, CrawlState } from './crawl-state.ts';
import { openCrawl } from './internal/crawl-record.ts';
import { resolveCrawlSettings } from './internal/crawl-settings.ts';
import { siteUnreachable, tally } from './internal/crawl-tally.ts';
import { Crawler } from './internal/crawler.ts';
import { EventChannel } from './internal/event-channel.ts';
import { openSqliteCrawlState } from './sqlite-crawl-state.ts';
import type { CrawlEvent, CrawlOptions, CrawlSummary, CrawlTruncation } from './types.ts';

export interface CrawlRunOptions extends CrawlOptions {
  /**
   * Receives the pages that belong in the sitemap, ordered by URL, once the crawl is over
   * (streamed from the crawl state, so memory does not grow with the site); what it returns
   * is awaited. Called by one run per crawl: the one that found the crawl finished (with
   * many workers, the last to see it end), or a run (not `join`) that opens a crawl finished
   * before. Not called when no page is listed or the crawl was aborted: there is then no
   * sitemap to write.
   */
  readonly write?: (pages: AsyncIterable<SitemapUrl>) => unknown;
  /**
   * Asked with the summary before `write` is called: false keeps whatever sitemap there was
   * (the command line says no when more pages failed than were listed and a sitemap is
   * already there: the sitemap of an outage must not replace a good one). Default: yes.
   */
  readonly writeIf?: (summary: CrawlSummary) => boolean;
  /**
   * Receives the crawl state and the summary once this run is over, before the state is
   * closed (a temporary one is then deleted): the place to read it for the crawl report.
   * Called at the end of every run that was not aborted, also when nothing is listed or the
   * site could not be reached (then most of all); with many workers, the state is the
   * crawl as it stands when this worker stops. What it returns is awaited.
   */
  readonly report?: (state: CrawlState, summary: CrawlSummary) => unknown;
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
  const settings = resolveCrawlSettings(options);
  // A caller's own store (a shared one, say) or the SQLite file; joining one never empties it.
  const state: CrawlState =
    options.state ??
    openSqliteCrawlState(options.statePath ?? null, {
      resume: options.resume === true || settings.worker.join,
      now: settings.worker.now,
    });
  try {
    const worker = new Crawler(state, await openCrawl(state, settings), settings.worker, emit);
    const facts = await worker.run();
    const { shared } = facts;
    const readAt = (await state.sitemapFiles()).map((file) => file.readAt);
    const totals = await tally(state.results(), facts.start, readAt);
    const unreachable = siteUnreachable(facts, totals);
    // Feeds are confirmed by the run that writes: their requests are made once per crawl.
    const feeds =
      shared.feeds && facts.writes && unreachable === null ? await worker.confirmFeeds() : [];
    const truncated: CrawlTruncation = {
      maxPages:
        facts.stoppedBy === 'max-pages'
          ? { limit: shared.maxPages, queued: facts.queuedAtStop }
          : null,
      maxDepth: facts.depthCut > 0 ? { limit: shared.maxDepth, links: facts.depthCut } : null,
    };
    const summary: CrawlSummary = {
      fetched: totals.fetched,
      listed: totals.listed,
      skipped: totals.skipped,
      errors: totals.errors,
      sitemapUrls: facts.sitemapUrls,
      durationMs: facts.durationMs,
      rate: (totals.fetched * 1000) / facts.durationMs,
      stoppedBy: facts.stoppedBy,
      truncated: truncated.maxPages === null && truncated.maxDepth === null ? null : truncated,
      unreachable,
      sitemapComparison: facts.sitemapUrls > 0 ? totals.comparison : null,
      lastmodSanity: totals.lastmod.withLastmod > 0 ? totals.lastmod : null,
      feeds,
    };
    // Nothing listed, or stopped part-way: there is no sitemap to write, and the user's
    // old one must stay. (An aborted crawl resumes from its state.)
    if (
      options.write &&
      facts.writes &&
      summary.listed > 0 &&
      summary.stoppedBy !== 'aborted' &&
      (options.writeIf?.(summary) ?? true)
    ) {
      await options.write(crawlSitemapPages(state));
    }
    if (options.report && summary.stoppedBy !== 'aborted') {
      await options.report(state, summary);
    }
    await emit({ type: 'done', summary });
    return summary;
  } finally {
    await state.close();
  }
}

/**
 * The pages a crawl lists for its sitemap, ordered by URL, read from its state as iterated:
 * what `write` receives at the end of a crawl, also for a crawl still under way (the
 * sitemap so far) or one whose output is wanted again.
 *
 * @example
 * ```ts
 * const state = openSqliteCrawlState('crawl.db', { resume: true });
 * try {
 *   await writeSitemaps(crawlSitemapPages(state), { dir: 'out', baseUrl: 'https://example.com/' });
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export function crawlSitemapPages(state: CrawlState): AsyncIterable<SitemapUrl> {
  return listedPages(state.results());
}

async function* listedPages(results: AsyncIterable<CrawlResult>): AsyncGenerator<SitemapUrl> {
  for await (const result of results) {
    if (result.outcome !== 'listed') continue;
    // The sitemap's own fields only: a page's data also keeps what the crawl alone reads
    // (the feeds it names).
    const { alternates, images } =
      result.data === null
        ? {}
        : (JSON.parse(result.data) as Pick<SitemapUrl, 'alternates' | 'images'>);
    yield {
      loc: result.url,
      ...(result.lastmod === null ? {} : { lastmod: result.lastmod }),
      ...(alternates === undefined ? {} : { alternates }),
      ...(images === undefined ? {} : { images }),
    };
  }
}
