import type { CrawlEvent, CrawlSummary } from '../../crawl/index.ts';
import type { CliIo } from '../io.ts';

export type ProgressMode = 'tty' | 'log' | 'json' | 'quiet';

export interface CrawlProgressOptions {
  /** The clock the status line is timed by (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** How often the status line is redrawn on a terminal, and written to a log. */
const TTY_EVERY_MS = 200;
const LOG_EVERY_MS = 5000;

/**
 * Crawl progress on stderr: a live line on a terminal, a line every few seconds in a log,
 * JSON lines with --json-log, nothing with --quiet. --verbose adds one line per URL.
 */
export class CrawlProgress {
  readonly #io: CliIo;
  readonly #mode: ProgressMode;
  readonly #verbose: boolean;
  readonly #now: () => number;
  readonly #began: number;
  #lastLine = 0;
  #done = 0;
  #listed = 0;
  #errors = 0;
  #skipped = 0;

  constructor(io: CliIo, mode: ProgressMode, verbose: boolean, options: CrawlProgressOptions = {}) {
    this.#io = io;
    this.#mode = mode;
    this.#verbose = verbose;
    this.#now = options.now ?? Date.now;
    this.#began = this.#now();
  }

  event(event: CrawlEvent): void {
    if (event.type === 'fetched') {
      this.#done++;
      this.#listed++;
    } else if (event.type === 'skipped') {
      this.#done++;
      this.#skipped++;
    } else if (event.type === 'error') {
      this.#done++;
      this.#errors++;
    }
    if (this.#mode === 'quiet') return;
    if (this.#mode === 'json') {
      if (event.type !== 'done') this.#io.stderr(`${JSON.stringify(event)}\n`);
      return;
    }
    if (event.type === 'warning') this.#line(`warning: ${event.message}`);
    else if (event.type === 'error') this.#line(`error: ${event.url}: ${event.message}`);
    else if (event.type === 'robots') {
      this.#line(
        `robots.txt ${event.origin}: ${event.status} (${event.source})${event.crawlDelay === null ? '' : `, crawl-delay ${event.crawlDelay}s`}`,
      );
    } else if (this.#verbose && event.type === 'fetched') this.#line(`listed ${event.url}`);
    else if (this.#verbose && event.type === 'skipped')
      this.#line(
        `skipped ${event.url}: ${event.reason}${event.detail ? ` (${event.detail})` : ''}`,
      );
    this.#tick();
  }

  #tick(): void {
    const now = this.#now();
    const every = this.#mode === 'tty' ? TTY_EVERY_MS : LOG_EVERY_MS;
    if (now - this.#lastLine < every) return;
    this.#lastLine = now;
    const seconds = (now - this.#began) / 1000;
    const status = `${this.#done} done, ${this.#listed} listed, ${this.#skipped} left out, ${this.#errors} errors, ${(this.#done / Math.max(seconds, 0.001)).toFixed(1)} pages/s, ${seconds.toFixed(0)}s`;
    if (this.#mode === 'tty') this.#io.stderr(`\r\x1b[K${status}`);
    else this.#io.stderr(`${status}\n`);
  }

  #line(text: string): void {
    this.#io.stderr(this.#mode === 'tty' ? `\r\x1b[K${text}\n` : `${text}\n`);
  }

  summary(summary: CrawlSummary, written: string | null): void {
    if (this.#mode === 'quiet') return;
    if (this.#mode === 'json') {
      this.#io.stderr(`${JSON.stringify({ type: 'done', summary, written })}\n`);
      return;
    }
    if (this.#mode === 'tty') this.#io.stderr('\r\x1b[K');
    const reasons = Object.entries(summary.skipped)
      .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
      .map(([reason, n]) => `  ${String(n).padStart(6)}  ${reason}`);
    const lines = [
      `${summary.fetched} pages fetched in ${(summary.durationMs / 1000).toFixed(1)} s (${summary.rate.toFixed(1)} pages/s)`,
      `${summary.listed} listed in the sitemap${written === null ? '' : `: ${written}`}`,
      ...(reasons.length > 0 ? ['left out:', ...reasons] : []),
      ...(summary.errors > 0 ? [`${summary.errors} errors (timeouts, network, size)`] : []),
      ...(summary.sitemapUrls > 0
        ? [`${summary.sitemapUrls} URLs named by the site's own sitemaps`]
        : []),
      ...(summary.feeds.length > 0 ? [`${summary.feeds.length} feeds found`] : []),
      ...comparison(summary),
      ...(summary.stoppedBy === null ? [] : [`stopped early: ${summary.stoppedBy}`]),
    ];
    this.#io.stderr(`${lines.join('\n')}\n`);
  }
}

/** Orphans and pages missing from the site's sitemap, with a few examples of each. */
function comparison(summary: CrawlSummary): string[] {
  const c = summary.sitemapComparison;
  if (c === null) return [];
  const examples = (urls: readonly string[]) => urls.slice(0, 5).map((url) => `    ${url}`);
  return [
    `${c.orphans} pages only the site's sitemap leads to (no link reaches them)`,
    ...examples(c.orphanUrls),
    `${c.missing} crawled pages missing from the site's sitemap`,
    ...examples(c.missingUrls),
  ];
}
