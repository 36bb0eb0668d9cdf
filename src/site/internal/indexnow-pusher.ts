import {
  INDEXNOW_DEFAULT_ENDPOINT,
  INDEXNOW_MAX_URLS_PER_REQUEST,
  submitIndexNow,
} from '../../indexnow/submit-indexnow.ts';
import type { IndexNowReport } from '../../indexnow/types.ts';
import type { SiteState } from './site-state.ts';

/** What one IndexNow submission of the site handler did (`onIndexNow`). */
export interface SiteIndexNowReport {
  /** The URLs sent (changed public pages, and the URLs of removed ones). */
  readonly urls: readonly string[];
  readonly endpoint: string;
  /** The endpoint accepted them (200 or 202). */
  readonly ok: boolean;
  /** The last status answered, or null when there was no answer. */
  readonly status: number | null;
  /** What the status means in the IndexNow documentation, or why there was none. */
  readonly meaning: string;
  /** Requests made (retries included). */
  readonly attempts: number;
  /** Why there was no answer, or why it was not retried. */
  readonly error?: string;
  /** URLs kept for the next try (after a failure that may pass: 403, 429, 5xx, no answer). */
  readonly retrying: number;
  /** When the next try is due (epoch ms), or null. */
  readonly retryAt: number | null;
  /**
   * URLs given up since the last report: answered 400 or 422 (sending them again cannot
   * help), refused by the client, or past the {@link MAX_PENDING_URLS} kept.
   */
  readonly dropped: number;
  /** URLs accepted since the handler started. */
  readonly acceptedTotal: number;
}

/** URLs waiting to be submitted: one request's worth. Past it, the oldest are dropped. */
export const MAX_PENDING_URLS = INDEXNOW_MAX_URLS_PER_REQUEST;
const DEFAULT_DEBOUNCE_MS = 5_000;
const DEFAULT_MIN_INTERVAL_MS = 10_000;
/** Back-off after failures: doubles from the interval (at least 1 s), at most one hour. */
const MAX_BACK_OFF_MS = 3_600_000;

/** Where and how the site submits; null without IndexNow. */
interface Target {
  readonly origin: string;
  readonly host: string;
  readonly key: string;
  readonly keyLocation: string;
  readonly endpoint: string;
  readonly debounceMs: number;
  readonly minIntervalMs: number;
}

/** A listed page by its absolute URL: the document it is and its version. */
type Listing = Map<string, { readonly path: string; readonly version: number }>;

export interface IndexNowPusherOptions {
  /** Brings the state up to date with the disk (and calls `observe` with it). */
  readonly refresh: () => Promise<unknown>;
  readonly onReport?: (report: SiteIndexNowReport) => void;
}

/**
 * Submits the site's changed public pages to IndexNow. Each new state is compared with the
 * one before: a URL of the sitemap that is new or whose document changed is submitted, and
 * so is a URL that left the sitemap because its document was removed or moved to another
 * URL (it now answers 404: engines learn that sooner). Which pages are public is the
 * sitemap's decision (`SiteEntry.listed`: public, indexable Markdown); a URL whose
 * document is still there but restricted, denied, noindex or broken is never sent, also
 * when it changed that way while waiting. The first state is the baseline: nothing is sent
 * for what was there at start, nor when the origin or the key changes.
 *
 * Changes are collected for `debounceMs` from the first one, then sent in one request; one
 * submission at a time, starts at least `minIntervalMs` apart. A failed submission keeps
 * its URLs for the next try (with a back-off that doubles), except after 400 or 422, which
 * the same URLs would get again.
 */
export class IndexNowPusher {
  readonly #refresh: () => Promise<unknown>;
  readonly #onReport: ((report: SiteIndexNowReport) => void) | undefined;
  #target: Target | null = null;
  #baseline: Listing | null = null;
  #lastSerial = -1;
  /** URL -> the document path it was listed for. */
  #pending = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #dueAt: number | null = null;
  #inFlight: Promise<void> | null = null;
  #lastStart = Number.NEGATIVE_INFINITY;
  #failures = 0;
  #retryAt = 0;
  #dropped = 0;
  #accepted = 0;
  #closed = false;
  readonly #abort = new AbortController();

  constructor(options: IndexNowPusherOptions) {
    this.#refresh = options.refresh;
    this.#onReport = options.onReport;
  }

  /** Compares a state with the one before and schedules what changed. */
  observe(state: SiteState): void {
    if (this.#closed || state.serial === this.#lastSerial) return;
    this.#lastSerial = state.serial;
    const target = targetOf(state);
    if (state.unavailable !== null) return;
    if (target === null) {
      this.#target = null;
      this.#baseline = null;
      this.#pending.clear();
      return;
    }
    const listing = listingOf(state, target.origin);
    const before = this.#baseline;
    const sameSite =
      this.#target !== null &&
      this.#target.origin === target.origin &&
      this.#target.key === target.key;
    this.#target = target;
    this.#baseline = listing;
    if (before === null || !sameSite) {
      this.#pending.clear();
      return;
    }
    for (const [url, page] of listing) {
      if (before.get(url)?.version !== page.version) this.#add(url, page.path);
    }
    for (const [url, page] of before) if (!listing.has(url)) this.#add(url, page.path);
    for (const [url, path] of this.#pending) {
      if (!submittable(url, path, state, listing, target.origin)) this.#pending.delete(url);
    }
    if (this.#pending.size > 0) this.#schedule();
  }

  /** Stops: a submission under way is aborted, nothing more is sent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#abort.abort(new Error('the site handler is closed'));
    await this.#inFlight?.catch(() => {});
  }

  #add(url: string, path: string): void {
    this.#pending.delete(url);
    this.#pending.set(url, path);
    while (this.#pending.size > MAX_PENDING_URLS) {
      const oldest = this.#pending.keys().next().value;
      if (oldest === undefined) break;
      this.#pending.delete(oldest);
      this.#dropped++;
    }
  }

  #schedule(): void {
    const target = this.#target;
    if (target === null || this.#timer !== null || this.#inFlight !== null || this.#closed) return;
    const now = Date.now();
    this.#dueAt ??= now + target.debounceMs;
    const at = Math.max(this.#dueAt, this.#lastStart + target.minIntervalMs, this.#retryAt);
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - now));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = null;
    this.#inFlight = this.#submitPending().finally(() => {
      this.#inFlight = null;
      if (this.#pending.size > 0) this.#schedule();
    });
  }

  async #submitPending(): Promise<void> {
    // The latest state first: a page made restricted a moment ago must not be sent.
    await this.#refresh().catch(() => {});
    const target = this.#target;
    this.#dueAt = null;
    if (this.#closed || target === null || this.#pending.size === 0) return;
    const sent = [...this.#pending];
    this.#pending.clear();
    this.#lastStart = Date.now();
    const urls = sent.map(([url]) => url);
    let report: IndexNowReport | string;
    try {
      report = await submitIndexNow({
        host: target.host,
        key: target.key,
        keyLocation: target.keyLocation,
        urls,
        endpoint: target.endpoint,
        signal: this.#abort.signal,
      });
    } catch (error) {
      if (this.#closed) return;
      report = (error as Error).message;
    }
    this.#settle(target, sent, report);
  }

  #settle(target: Target, sent: [string, string][], report: IndexNowReport | string): void {
    const batch = typeof report === 'string' ? undefined : report.batches[0];
    const refused = new Set(typeof report === 'string' ? [] : report.refused.map((r) => r.url));
    this.#dropped += refused.size;
    const ok = typeof report !== 'string' && report.batches.every((b) => b.ok);
    const status = batch?.status ?? null;
    if (ok) {
      this.#failures = 0;
      this.#retryAt = 0;
      this.#accepted += sent.length - refused.size;
    } else if (status === 400 || status === 422) {
      this.#dropped += sent.length - refused.size;
    } else {
      this.#failures++;
      const base = Math.max(target.minIntervalMs, 1000);
      this.#retryAt = Date.now() + Math.min(base * 2 ** (this.#failures - 1), MAX_BACK_OFF_MS);
      // Back in front of what changed since: the oldest are the first dropped at the cap.
      const later = [...this.#pending];
      this.#pending = new Map(sent.filter(([url]) => !refused.has(url)));
      for (const [url, path] of later) this.#add(url, path);
    }
    const error = typeof report === 'string' ? report : batch?.error;
    const summary: SiteIndexNowReport = {
      urls: sent.map(([url]) => url),
      endpoint: target.endpoint,
      ok,
      status,
      meaning:
        typeof report === 'string'
          ? 'not submitted'
          : (batch?.meaning ?? 'nothing sent: every URL was refused'),
      attempts: batch?.attempts ?? 0,
      ...(error === undefined ? {} : { error }),
      retrying: ok ? 0 : this.#pending.size,
      retryAt: ok || this.#retryAt === 0 ? null : this.#retryAt,
      dropped: this.#dropped,
      acceptedTotal: this.#accepted,
    };
    this.#dropped = 0;
    try {
      this.#onReport?.(summary);
    } catch {
      // The caller's to fix; submissions go on.
    }
  }
}

function targetOf(state: SiteState): Target | null {
  const { indexnow, origin } = state.config;
  const keyPath = state.reserved.indexNowKeyPath;
  if (indexnow === null || origin === null || keyPath === null) return null;
  return {
    origin,
    host: new URL(origin).host,
    key: indexnow.key,
    // Always sent, so the engine checks the file this server answers, on its scheme.
    keyLocation: origin + keyPath,
    endpoint: indexnow.endpoint ?? INDEXNOW_DEFAULT_ENDPOINT,
    debounceMs: indexnow.debounceMs ?? DEFAULT_DEBOUNCE_MS,
    minIntervalMs: indexnow.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS,
  };
}

/** The sitemap's pages by absolute URL: the one decision of what is public. */
function listingOf(state: SiteState, origin: string): Listing {
  const listing: Listing = new Map();
  for (const entry of state.index.listed) {
    listing.set(origin + entry.canonicalPath, {
      path: entry.page.path,
      version: entry.page.lastModified,
    });
  }
  return listing;
}

/**
 * True when `url` may be sent now: it is in the sitemap, or nothing answers there any more
 * because its document (`path`) was removed or moved to another listed URL. A URL where a
 * restricted, noindex or not canonical page answers, or whose document is still there but
 * hidden (denied, broken), is not.
 */
function submittable(
  url: string,
  path: string,
  state: SiteState,
  listing: Listing,
  origin: string,
): boolean {
  if (listing.has(url)) return true;
  if (state.index.byUrlPath.has(url.slice(origin.length))) return false;
  if (!state.documents.has(path)) return true;
  return state.index.byFilePath.get(path)?.listed === true;
}
