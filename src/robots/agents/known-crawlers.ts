import type { Diagnostic } from '../../shared/diagnostic.ts';
import type { CrawlerRegistry, KnownCrawler } from './crawler-registry.ts';
import bundled from './known-crawlers.json' with { type: 'json' };
import { parseCrawlerRegistry } from './parse-crawler-registry.ts';

const reading = parseCrawlerRegistry(bundled);

/**
 * What reading the bundled registry reported. A test keeps it empty; it is kept so that a
 * bad edit of the data file shows up there rather than as a silently shorter list.
 *
 * @internal
 */
export const KNOWN_CRAWLERS_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze(reading.diagnostics);

/**
 * The bundled registry of known crawlers: for each robots.txt product token, its operator,
 * purpose, whether it documents obeying robots.txt and `Crawl-delay`, the operator's page,
 * how to verify it, and where and when each fact was checked. Read once, frozen. Extend it
 * with {@link mergeCrawlerRegistries}, or use your own registry instead.
 *
 * @example
 * ```ts
 * const trainers = KNOWN_CRAWLERS.crawlers.filter((c) => c.purpose === 'ai-training');
 * trainers.map((c) => c.token); // ['GPTBot', 'ClaudeBot', 'CCBot', ...]
 * ```
 */
export const KNOWN_CRAWLERS: CrawlerRegistry = Object.freeze({
  checked: reading.registry.checked,
  crawlers: Object.freeze(reading.registry.crawlers.map(freezeCrawler)),
});

function freezeCrawler(crawler: KnownCrawler): KnownCrawler {
  const verify: KnownCrawler['verify'] = Object.freeze({
    ...crawler.verify,
    ...(crawler.verify.reverseDns === undefined
      ? {}
      : { reverseDns: Object.freeze([...crawler.verify.reverseDns]) }),
  });
  return Object.freeze({
    ...crawler,
    verify,
    ...(crawler.fallback === undefined ? {} : { fallback: Object.freeze([...crawler.fallback]) }),
  });
}
