import { WaymarkError } from '../../shared/waymark-error.ts';
import { normalizeUrl, originOf, pathFilter, sameSite } from '../../url/index.ts';
import type { CrawlRecord, CrawlState } from '../crawl-state.ts';
import {
  baseGapMs,
  type CrawlSettings,
  differingOptions,
  type SharedCrawlOptions,
  sharedOptionsJson,
  storedSharedOptions,
} from './crawl-settings.ts';
import type { DecisionContext } from './page-outcomes.ts';
import { memoByAuthority, memoByString } from './url-memo.ts';

/** A crawl as this worker works on it: its record, and the options every worker shares. */
export interface OpenedCrawl {
  readonly record: CrawlRecord;
  /** The normalised start URL. */
  readonly start: string;
  readonly shared: SharedCrawlOptions;
}

/**
 * Finds or creates the crawl in the state. `join` never creates: the crawl must exist, and
 * its stored options are the ones crawled with (any option given must equal the stored
 * one). Otherwise the crawl is created, unless it exists (a resume, another worker that
 * created it first): the start URL and every option must then equal the stored ones.
 */
export async function openCrawl(state: CrawlState, settings: CrawlSettings): Promise<OpenedCrawl> {
  if (settings.worker.join) {
    const record = await state.crawl();
    if (record === null) {
      throw new WaymarkError(
        'invalid-argument',
        `there is no crawl to join in ${state.location}: start it first (without join)`,
      );
    }
    if (record.options === '') {
      throw new WaymarkError(
        'invalid-argument',
        `the crawl in ${state.location} was made by an older waymark, which did not store its options: resume it without join`,
      );
    }
    const shared = storedSharedOptions(record.options, state.location);
    refuseOthers(state, differingOptions(shared, settings.shared, settings.given));
    if (settings.start !== null) checkStart(record, normalizedStart(settings.start, shared));
    return { record, start: record.start, shared };
  }
  const start = normalizedStart(settings.start ?? '', settings.shared);
  const record =
    (await state.crawl()) ??
    (await state.create({
      start,
      options: sharedOptionsJson(settings.shared),
      gapMs: baseGapMs(settings.shared),
    }));
  checkStart(record, start);
  // An older waymark stored no options (and compared none): the given ones are taken.
  if (record.options !== '') {
    const stored = storedSharedOptions(record.options, state.location);
    refuseOthers(state, differingOptions(stored, settings.shared));
  }
  return { record, start, shared: settings.shared };
}

/** The start URL under the crawl's normalisation. */
function normalizedStart(given: string, shared: SharedCrawlOptions): string {
  const start = normalizeUrl(given, normalizeOptions(shared));
  if (start === null) {
    throw new WaymarkError('invalid-argument', `not an absolute http(s) URL: ${given}`);
  }
  return start;
}

/** The options of `normalizeUrl` a crawl's URLs are normalised with. */
export function normalizeOptions(shared: SharedCrawlOptions) {
  return {
    ...(shared.keepTracking ? { keepTracking: true } : {}),
    ...(shared.stripParams.length > 0 ? { stripParams: [...shared.stripParams] } : {}),
    ...(shared.stripQuery ? { stripQuery: true } : {}),
  };
}

/**
 * The crawl's rules for URLs, for deciding on pages: its normalisation, its site (the start
 * URL's origin, or www. and bare host with `canonicalHost`), its path filters.
 */
export function urlRules(crawl: OpenedCrawl, now: () => number): DecisionContext {
  const { shared } = crawl;
  const site = originOf(crawl.start) ?? '';
  const normalizing = normalizeOptions(shared);
  // Every link of every page goes through these: repeats are answered from memos (see
  // url-memo.ts), each held to the full function by a differential test.
  const normalizeLink = memoByString((url: string) => normalizeUrl(url, normalizing));
  const sameSiteAs = { canonicalHost: shared.canonicalHost };
  const origin = memoByAuthority((url) => originOf(url));
  const filtered = shared.include.length > 0 || shared.exclude.length > 0;
  return {
    options: shared,
    normalize: (url, base) =>
      base === undefined ? normalizeLink(url) : normalizeUrl(url, { ...normalizing, base }),
    onSite: memoByAuthority((url) => sameSite(url, site, sameSiteAs)),
    // Without filters, pathFilter only asks whether the URL is http(s): a question of its origin.
    passes: filtered
      ? pathFilter({ include: [...shared.include], exclude: [...shared.exclude] })
      : (url) => origin(url) !== null,
    // Only for URLs `normalize` accepted: always http(s), so never null.
    originOf: (url) => origin(url) ?? '',
    now,
  };
}

function checkStart(record: CrawlRecord, start: string): void {
  if (record.start === start) return;
  throw new WaymarkError(
    'invalid-argument',
    `the crawl state holds a crawl of ${record.start}, not of ${start}: resume it with that URL, or start afresh without --resume`,
  );
}

function refuseOthers(state: CrawlState, differences: readonly string[]): void {
  if (differences.length === 0) return;
  throw new WaymarkError(
    'invalid-argument',
    `the crawl in ${state.location} was made with other options (${differences.join('; ')}): give the same ones, or join it to crawl with the stored ones`,
  );
}
