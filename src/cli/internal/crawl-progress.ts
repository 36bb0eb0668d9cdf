import type { CrawlEvent, CrawlSummary } from '../../crawl/index.ts';
import { printable } from '../../shared/printable.ts';
import type { CliIo } from '../io.ts';
import { jsonLine } from './json-line.ts';
import { lastmodFindingLines } from './lastmod-output.ts';

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
      if (event.type !== 'done') this.#io.stderr(jsonLine(event));
      return;
    }
    if (event.type === 'warning') this.#line(`warning: ${event.message}`);
    else if (event.type === 'error') this.#line(`error: ${event.url}: ${event.message}`);
    else if (event.type === 'robots') {
      this.#line(
        `robots.txt ${event.origin}: ${event.status}${event.detail === null ? '' : ` ${event.detail}`} (${event.source})${event.crawlDelay === null ? '' : `, crawl-delay ${event.crawlDelay}s`}`,
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

  /** A line of text that may quote the site (URLs, messages): shown safe for the terminal. */
  #line(text: string): void {
    const safe = text.split('\n').map(printable).join('\n');
    this.#io.stderr(this.#mode === 'tty' ? `\r\x1b[K${safe}\n` : `${safe}\n`);
  }

  /**
   * The crawl's summary. What the user must know even with --quiet is always written: why
   * the site could not be crawled, limits that cut the crawl short, files left as they were.
   */
  summary(summary: CrawlSummary, written: string | null, kept: readonly string[] = []): void {
    if (this.#mode === 'json') {
      this.#io.stderr(jsonLine({ type: 'done', summary, written, kept }));
      return;
    }
    const alerts = [
      ...(summary.unreachable === null ? [] : [summary.unreachable.message]),
      ...truncation(summary),
      ...kept.map((path) => `nothing written: ${path} is left as it was`),
    ];
    if (this.#mode === 'quiet') {
      if (alerts.length > 0) this.#io.stderr(`${alerts.map(printable).join('\n')}\n`);
      return;
    }
    if (this.#mode === 'tty') this.#io.stderr('\r\x1b[K');
    const reasons = Object.entries(summary.skipped)
      .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || a[0].localeCompare(b[0]))
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
      ...(summary.lastmodSanity?.findings ?? []).flatMap(lastmodFindingLines),
      ...alerts,
    ];
    // URLs and messages come from the crawled site: shown safe for the terminal.
    this.#io.stderr(`${lines.map(printable).join('\n')}\n`);
  }

  /** A message that must reach the user in every mode (a JSON line with --json-log). */
  notice(message: string): void {
    if (this.#mode === 'json') {
      this.#io.stderr(jsonLine({ type: 'notice', message }));
      return;
    }
    this.#line(message);
  }
}

/** What cut the crawl short, with the flag that lifts the limit. */
function truncation(summary: CrawlSummary): string[] {
  const t = summary.truncated;
  const lines: string[] = [];
  if (t?.maxPages) {
    lines.push(
      `stopped at --max-pages ${t.maxPages.limit}: ${t.maxPages.queued} URLs found were not fetched (raise --max-pages to crawl them)`,
    );
  }
  if (t?.maxDepth) {
    lines.push(
      `${t.maxDepth.links} links lead deeper than --max-depth ${t.maxDepth.limit} and were not followed (raise --max-depth to follow them)`,
    );
  }
  return lines;
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
