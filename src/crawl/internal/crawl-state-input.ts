// What every crawl state checks of its caller's input before it changes anything, whichever
// store it uses, so both refuse the same things with the same messages.
import { WaymarkError } from '../../shared/waymark-error.ts';
import type {
  FinishedItem,
  FrontierItem,
  HostRobots,
  NewCrawl,
  ReleasedItem,
  StepRequest,
} from '../crawl-state.ts';

const KINDS = new Set(['robots', 'sitemap', 'page']);
const OUTCOMES = new Set(['listed', 'skipped', 'error']);

/**
 * The dedupe key of a URL when the caller gives no normaliser: the WHATWG serialisation
 * without the fragment (`HTTP://Example.com:80/a/../b#x` -> `http://example.com/b`).
 */
export function defaultNormalizeUrl(url: string): string {
  // One parse: URL.parse is null exactly where URL.canParse is false.
  const parsed = typeof url === 'string' ? URL.parse(url) : null;
  if (parsed === null) throw invalid(`frontier URL is not absolute: ${String(url)}`);
  parsed.hash = '';
  return parsed.href;
}

export function checkItem(item: FrontierItem): void {
  const problem =
    typeof item.url !== 'string'
      ? 'url must be a string'
      : typeof item.origin !== 'string' || item.origin === ''
        ? 'origin must be a non-empty string'
        : !Number.isFinite(item.priority)
          ? 'priority must be a finite number'
          : !Number.isSafeInteger(item.depth) || item.depth < 0
            ? 'depth must be an integer >= 0'
            : !KINDS.has(item.kind)
              ? 'kind must be robots, sitemap or page'
              : item.via !== null && typeof item.via !== 'string'
                ? 'via must be a string or null'
                : item.redirects !== undefined &&
                    (!Number.isSafeInteger(item.redirects) || item.redirects < 0)
                  ? 'redirects must be an integer >= 0'
                  : null;
  if (problem !== null) throw invalid(`frontier item ${problem}: ${String(item.url)}`);
}

/** Checks a step's request (its discovered items are checked where they are normalised). */
export function checkStep(request: StepRequest): void {
  const { take } = request;
  if (!Number.isSafeInteger(take) || take < 0) {
    throw invalid(`step needs take to be an integer >= 0, got ${take}`);
  }
  const { maxRequested } = request;
  if (
    maxRequested !== undefined &&
    (typeof maxRequested !== 'number' || Number.isNaN(maxRequested))
  ) {
    throw invalid(`step maxRequested must be a number, got ${String(maxRequested)}`);
  }
  for (const done of request.finished) checkFinished(done);
  for (const released of request.released) checkReleased(released);
}

function checkFinished(done: FinishedItem): void {
  checkTaken(done.item);
  const { outcome, status } = done.result;
  if (!OUTCOMES.has(outcome)) {
    throw invalid(`result outcome must be listed, skipped or error: ${done.item.url}`);
  }
  if (status !== null && !Number.isSafeInteger(status)) {
    throw invalid(`result status must be an integer or null: ${done.item.url}`);
  }
  for (const field of ['reason', 'lastmod', 'finalUrl', 'data'] as const) {
    const value = done.result[field];
    if (value !== null && typeof value !== 'string') {
      throw invalid(`result ${field} must be a string or null: ${done.item.url}`);
    }
  }
  if (!Number.isSafeInteger(done.depthCut) || done.depthCut < 0) {
    throw invalid(`finished item depthCut must be an integer >= 0: ${done.item.url}`);
  }
  if (typeof done.requested !== 'boolean') {
    throw invalid(`finished item requested must be a boolean: ${done.item.url}`);
  }
}

function checkReleased(released: ReleasedItem): void {
  checkTaken(released.item);
  const { notBefore } = released;
  if (notBefore !== null && !Number.isFinite(notBefore)) {
    throw invalid(`released item notBefore must be a number or null: ${released.item.url}`);
  }
}

function checkTaken(item: FrontierItem & { id: number; attempt: number }): void {
  if (!Number.isSafeInteger(item.id) || !Number.isSafeInteger(item.attempt)) {
    throw invalid(`not an item taken from a crawl state: ${String(item.url)}`);
  }
}

export function checkOrigin(origin: string): void {
  if (typeof origin !== 'string' || origin === '') {
    throw invalid(`origin must be a non-empty string, got ${JSON.stringify(origin)}`);
  }
}

export function checkRobots(origin: string, robots: HostRobots): void {
  checkOrigin(origin);
  const { status, gapMs, body } = robots;
  if (status !== 'network-error' && !Number.isSafeInteger(status)) {
    throw invalid(`robots.txt status must be an integer or network-error: ${origin}`);
  }
  if (!Number.isFinite(gapMs) || gapMs < 0) {
    throw invalid(`robots.txt gapMs must be a number >= 0, got ${gapMs}: ${origin}`);
  }
  if (body !== null && !(body instanceof Uint8Array)) {
    throw invalid(`robots.txt body must be bytes or null: ${origin}`);
  }
}

export function checkNewCrawl(crawl: NewCrawl): void {
  if (typeof crawl.start !== 'string' || crawl.start === '') {
    throw invalid('a crawl needs a start URL');
  }
  if (typeof crawl.options !== 'string') throw invalid('crawl options must be JSON text');
  if (!Number.isFinite(crawl.gapMs) || crawl.gapMs < 0) {
    throw invalid(`crawl gapMs must be a number >= 0, got ${crawl.gapMs}`);
  }
}

export function checkSitemapUrls(sitemapUrls: number | null): void {
  if (sitemapUrls !== null && (!Number.isSafeInteger(sitemapUrls) || sitemapUrls < 0)) {
    throw invalid(`sitemapUrls must be an integer >= 0 or null, got ${sitemapUrls}`);
  }
}

/**
 * How many items a step may take: `take`, capped by `maxRequested - requested` (see
 * `StepRequest.maxRequested`; `requested` as the step leaves it), never below 0.
 */
export function takeLimit(
  take: number,
  maxRequested: number | undefined,
  requested: number,
): number {
  if (maxRequested === undefined) return take;
  return Math.max(0, Math.min(take, Math.floor(maxRequested - requested)));
}

function invalid(message: string): WaymarkError {
  return new WaymarkError('invalid-argument', message);
}
