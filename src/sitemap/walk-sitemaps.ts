import type { FetchFunction } from '../http/index.ts';
import type { OpenedRequest } from '../http/internal/open-request.ts';
import { checkTransportOptions } from '../http/internal/transport-check.ts';
import type { Diagnostic } from '../shared/diagnostic.ts';
import { errorMessage } from '../shared/error-message.ts';
import { isWaymarkError, type WaymarkErrorCode } from '../shared/waymark-error.ts';
import { isUrlTooLong, MAX_REQUEST_URL_LENGTH } from '../url/url-length.ts';
import { parseSitemapBatches } from './read-sitemap.ts';
import type { SitemapKind, SitemapUrl } from './types.ts';

export interface WalkSitemapsOptions {
  /** The fetch to use (a test double, a proxy-aware fetch). Default: the global fetch. */
  readonly fetch?: FetchFunction;
  /** Sent as `User-Agent`. */
  readonly userAgent?: string;
  /** Time for one sitemap, connect to last byte. Default 30 s. */
  readonly timeoutMs?: number;
  /**
   * Bytes of one sitemap's response body, counted after any HTTP `Content-Encoding` is undone
   * (a `.xml.gz` file served as such counts compressed). Default 50 MiB.
   */
  readonly maxDownloadBytes?: number;
  /** Bytes read per sitemap after gzip decompression. Default 100 MiB. */
  readonly maxBytes?: number;
  /** Entries read per sitemap. Default 1,000,000. */
  readonly maxEntries?: number;
  /** How deep indexes may nest below the sitemaps given: 0 reads no child sitemap. Default 4. */
  readonly maxDepth?: number;
  /** Sitemap documents fetched in all. Default 1,000. */
  readonly maxSitemaps?: number;
  /**
   * Request the next sitemap while the current URL set is read, so the server's work and
   * the transfer overlap with parsing (default true). Its time cap then starts with that
   * request. Only a sitemap the walk is sure to read next is requested early.
   */
  readonly prefetch?: boolean;
  /**
   * Read the child sitemaps an index names on another origin than its own (default false).
   * sitemaps.org lets an index name only sitemaps on its own site, and a sitemap elsewhere
   * is on a host the index does not speak for (or an internal address), so by default such
   * a child is skipped and reported (`skipCode: 'cross-origin'`). The index's origin counts
   * as named and as it answered after redirects. The sitemaps given to the walk are always
   * read, wherever they are.
   */
  readonly allowCrossOrigin?: boolean;
  /**
   * Decides whether a sitemap is read, just before it would be requested: true reads it, a
   * string is the reason to skip it (reported with `skipCode: 'refused'`). Called for every
   * sitemap that passed the walk's own checks (the given ones too), and may be async (to
   * read another host's robots.txt, say). A throw ends the walk with that error.
   */
  readonly checkSitemap?: (candidate: SitemapCandidate) => true | string | Promise<true | string>;
  /**
   * Connect only to public addresses (see `blockPrivateAddresses` in `waymark/http`): a
   * sitemap on a loopback, private or link-local address is skipped as `blocked-address`.
   * Cannot be combined with `fetch`.
   */
  readonly blockPrivateAddresses?: boolean;
  /** Called once per sitemap document, after it was read (or failed, or was skipped). */
  readonly onSitemap?: (report: SitemapReport) => void;
  readonly signal?: AbortSignal;
}

/** A sitemap about to be requested, as {@link WalkSitemapsOptions.checkSitemap} sees it. */
export interface SitemapCandidate {
  readonly url: string;
  /** The index that names it, as named; null for a sitemap given to the walk. */
  readonly parent: string | null;
  /** That index's URL after redirects; null for a sitemap given to the walk. */
  readonly parentFinalUrl: string | null;
  readonly depth: number;
}

/**
 * Why a sitemap was not read. A failed fetch gives its error code (`timeout`, `too-large`,
 * `redirect-limit`, `network`, `blocked-address`, `invalid-argument` for a URL that is not
 * http(s)); a status other than 200 is `http-status`; the walk's own reasons are
 * `duplicate` (already read: a loop or a repeat), `max-sitemaps`, `url-too-long` (over
 * `MAX_REQUEST_URL_LENGTH`), `cross-origin` (see `allowCrossOrigin`) and `refused` (by
 * `checkSitemap`).
 */
export type SitemapSkipCode =
  | WaymarkErrorCode
  | 'duplicate'
  | 'max-sitemaps'
  | 'url-too-long'
  | 'cross-origin'
  | 'refused';

/**
 * Thrown by a custom opener (before a request or a redirect hop is sent, say) to refuse a
 * sitemap by the caller's own rule: reported with `skipCode: 'refused'` and this message.
 */
export class SitemapRefusal extends Error {}

/** What happened to one sitemap document during a walk. */
export interface SitemapReport {
  /** The URL as named (by the caller or by a parent index). */
  readonly url: string;
  /** The URL that answered, after redirects. */
  readonly finalUrl: string | null;
  /** The parent index, or null for a sitemap given to the walk. */
  readonly parent: string | null;
  readonly depth: number;
  readonly status: number | null;
  readonly kind: SitemapKind | null;
  /** URL entries yielded from it, or child sitemaps found in it for an index. */
  readonly entries: number;
  readonly diagnostics: readonly Diagnostic[];
  /** Why it was not read, as a message: a fetch failure, a non-200 status, a cycle, a cap. */
  readonly skipped: string | null;
  /** Why it was not read, as a code to switch on; null when it was read. */
  readonly skipCode: SitemapSkipCode | null;
}

/** One URL entry, and the sitemap it was found in. */
export interface WalkedEntry {
  readonly sitemap: string;
  readonly entry: SitemapUrl;
}

interface Pending {
  readonly url: string;
  readonly parent: string | null;
  readonly parentFinalUrl: string | null;
  readonly depth: number;
}

/**
 * Reads sitemaps over HTTP and follows their indexes, yielding every URL entry as it is
 * read. Children of an index are read in document order, depth first; a sitemap already
 * read (or on the way) is never fetched again, so loops end. Each fetch has a time and a
 * size cap; a sitemap that fails (network error, timeout, 404, 500) costs only itself, and
 * `onSitemap` says what happened to each. A child an index names on another origin is
 * skipped unless `allowCrossOrigin`; so is a sitemap URL longer than
 * `MAX_REQUEST_URL_LENGTH` (8 KiB).
 *
 * @example
 * ```ts
 * for await (const { sitemap, entry } of walkSitemaps(robots.sitemaps, { userAgent: 'MyBot/1.0' })) {
 *   queue.add(entry.loc);
 * }
 * ```
 */
export function walkSitemaps(
  urls: string | Iterable<string>,
  options: WalkSitemapsOptions = {},
): AsyncGenerator<WalkedEntry> {
  return walkSitemapsWith(urls, options, fetchOpener(options));
}

/** A sitemap's response, as the walk reads it. */
export interface SitemapResponse {
  /** After redirects. */
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  /** Under the time and size caps of the request. */
  readonly body: AsyncIterable<Uint8Array>;
  cancel(): Promise<void>;
}

/** How the walk asks for one sitemap: a GET that follows redirects. */
export interface SitemapRequest {
  readonly timeoutMs: number;
  /** Body bytes as the transport hands them over (after any `Content-Encoding` is undone). */
  readonly maxBytes: number;
  /** Field names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

export type SitemapOpener = (url: string, request: SitemapRequest) => Promise<SitemapResponse>;

/** A response of waymark's own client (`openRequest`) as the walk reads it. */
export function sitemapResponseOf(response: OpenedRequest): SitemapResponse {
  return {
    url: response.url,
    status: response.status,
    contentType: response.header('content-type'),
    body: response.body,
    cancel: () => response.cancel(),
  };
}

/**
 * {@link walkSitemaps} with requests made by `opener` instead of `openWithLimits` over
 * `options.fetch`: for the crawler, which sends them over its own transport and waits for
 * each host's turn.
 */
export async function* walkSitemapsWith(
  urls: string | Iterable<string>,
  options: WalkSitemapsOptions,
  opener: SitemapOpener,
  /**
   * The index `urls` were read from, when the caller read it (the command line reads the
   * document it was given first): they are its children, held to the same rules and depth.
   */
  from?: { readonly url: string; readonly finalUrl: string },
): AsyncGenerator<WalkedEntry> {
  // Said once, up front, rather than as the same failure for every sitemap.
  checkTransportOptions(options);
  const maxDepth = options.maxDepth ?? 4;
  const maxSitemaps = options.maxSitemaps ?? 1000;
  const seen = new Set<string>();
  let fetched = 0;
  // A stack of pending sitemaps, reversed so they come off in document order.
  const stack: Pending[] = [...(typeof urls === 'string' ? [urls] : urls)].reverse().map((url) => ({
    url,
    parent: from?.url ?? null,
    parentFinalUrl: from?.finalUrl ?? null,
    depth: from === undefined ? 0 : 1,
  }));
  if (from !== undefined) {
    seen.add(canonical(from.url));
    seen.add(canonical(from.finalUrl));
  }
  /** The next sitemap, requested early (see `prefetch`). */
  // Set by requestNext, a closure, which narrowing cannot see: hence the cast.
  let early = null as {
    readonly pending: Pending;
    readonly opening: Promise<Opening>;
    /** Stops the early request when the walk ends without reading it. */
    readonly stop: AbortController;
  } | null;
  const requestNext = (): void => {
    const next = stack.at(-1);
    if (options.prefetch === false || next === undefined || fetched >= maxSitemaps) return;
    if (isUrlTooLong(next.url) || crossOriginReason(next, options) !== null) return;
    if (seen.has(canonical(next.url))) return;
    const stop = new AbortController();
    const signal =
      options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
    early = { pending: next, opening: open(next, options, opener, signal), stop };
  };
  try {
    while (stack.length > 0) {
      options.signal?.throwIfAborted();
      const pending = stack.pop() as Pending;
      const report = (fields: Partial<SitemapReport>) =>
        options.onSitemap?.(sitemapReport(pending, fields));
      if (isUrlTooLong(pending.url)) {
        report({
          skipped: `the URL is longer than ${MAX_REQUEST_URL_LENGTH} characters`,
          skipCode: 'url-too-long',
        });
        continue;
      }
      const crossOrigin = crossOriginReason(pending, options);
      if (crossOrigin !== null) {
        report({ skipped: crossOrigin, skipCode: 'cross-origin' });
        continue;
      }
      const key = canonical(pending.url);
      if (seen.has(key)) {
        report({
          skipped: 'already read in this walk (a loop or a duplicate)',
          skipCode: 'duplicate',
        });
        continue;
      }
      seen.add(key);
      if (fetched >= maxSitemaps) {
        report({
          skipped: `more than ${maxSitemaps} sitemaps (maxSitemaps)`,
          skipCode: 'max-sitemaps',
        });
        continue;
      }
      fetched++;
      let opening: Promise<Opening>;
      if (early?.pending === pending) {
        opening = early.opening;
        early = null;
      } else opening = open(pending, options, opener, options.signal);
      const opened = await opening;
      if ('thrown' in opened) throw opened.thrown;
      if ('refused' in opened) {
        // Not read, so it counts for neither cap nor loop: another index may name it again.
        fetched--;
        seen.delete(key);
        report({ skipped: opened.refused, skipCode: 'refused' });
        continue;
      }
      if ('failure' in opened) {
        options.signal?.throwIfAborted();
        report({ skipped: opened.failure, skipCode: opened.code });
        continue;
      }
      const { response } = opened;
      const redirectedAway = crossOriginReason({ ...pending, url: response.url }, options);
      if (redirectedAway !== null) {
        // A child on the index's origin that redirects elsewhere is as far away as one named there.
        await response.cancel();
        report({
          finalUrl: response.url,
          skipped: `redirected: ${redirectedAway}`,
          skipCode: 'cross-origin',
        });
        continue;
      }
      if (response.status !== 200) {
        await response.cancel();
        report({
          finalUrl: response.url,
          status: response.status,
          skipped: `HTTP ${response.status}`,
          skipCode: 'http-status',
        });
        continue;
      }
      const contentType = response.contentType;
      const reading = parseSitemapBatches(response.body, {
        url: response.url,
        ...(contentType ? { contentType } : {}),
        ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
        ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
      });
      let entries = 0;
      const children: string[] = [];
      // Children past what the walk may still fetch are counted, not held: an index of a
      // million entries (a few MB gzipped) is otherwise a million pending sitemaps per level.
      const room = maxSitemaps - fetched;
      let held = 0;
      let notHeld = 0;
      // A sitemap named twice here is held once: a hostile index naming one URL a million
      // times must not use the room of the ones it names once.
      const named = new Set<string>();
      const extra: Diagnostic[] = [];
      for await (const batch of reading) {
        entries += batch.length;
        if (reading.kind !== 'index') {
          // A URL set adds nothing to the stack, so its top is surely what is read next.
          if (early === null) requestNext();
          for (const entry of batch) yield { sitemap: pending.url, entry: entry as SitemapUrl };
        } else if (pending.depth >= maxDepth) {
          if (extra.length === 0) {
            extra.push({
              code: 'max-depth',
              severity: 'warning',
              message: `index nested deeper than ${maxDepth} (maxDepth); its sitemaps are not read`,
              line: 1,
              column: 1,
            });
          }
        } else {
          for (const entry of batch) {
            const key = canonical(entry.loc);
            if (named.has(key)) continue;
            named.add(key);
            // Read already (a loop): held to be reported as such, at no cost of room.
            if (seen.has(key)) children.push(entry.loc);
            else if (held < room) {
              children.push(entry.loc);
              held++;
            } else notHeld++;
          }
        }
      }
      if (notHeld > 0) extra.push(notReadDiagnostic(notHeld, maxSitemaps));
      report({
        finalUrl: response.url,
        status: response.status,
        kind: reading.kind,
        entries,
        diagnostics: [...extra, ...reading.diagnostics],
      });
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({
          url: children[i] as string,
          parent: pending.url,
          parentFinalUrl: response.url,
          depth: pending.depth + 1,
        });
      }
    }
  } finally {
    // Stopped early (a break, an abort, a failure): stop a sitemap requested ahead and never
    // read, without waiting for it (its server may be slow to answer), so no socket or time
    // cap of it outlives the walk; one that already answered is released.
    if (early !== null) {
      early.stop.abort();
      early.opening
        .then((opened) => {
          if ('response' in opened) return opened.response.cancel();
        })
        .catch(() => {});
    }
  }
}

const SITEMAP_ACCEPT =
  'application/xml, text/xml, application/rss+xml, application/atom+xml, text/plain;q=0.9, */*;q=0.5';

type Opening =
  | { readonly response: SitemapResponse }
  | { readonly failure: string; readonly code: WaymarkErrorCode }
  | { readonly refused: string }
  | { readonly thrown: unknown };

/**
 * Checks one sitemap with `checkSitemap`, then requests it. Every outcome is a value, so a
 * sitemap requested early cannot reject unhandled.
 */
async function open(
  pending: Pending,
  options: WalkSitemapsOptions,
  opener: SitemapOpener,
  signal: AbortSignal | undefined,
): Promise<Opening> {
  if (options.checkSitemap !== undefined) {
    try {
      const verdict = await options.checkSitemap({
        url: pending.url,
        parent: pending.parent,
        parentFinalUrl: pending.parentFinalUrl,
        depth: pending.depth,
      });
      if (verdict !== true) return { refused: verdict };
    } catch (error) {
      return { thrown: error };
    }
  }
  try {
    const response = await opener(pending.url, {
      signal,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxBytes: options.maxDownloadBytes ?? 50 * 1024 * 1024,
      headers: {
        accept: SITEMAP_ACCEPT,
        ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      },
    });
    return { response };
  } catch (error) {
    // Raised inside the transport, it arrives as the cause of its network error.
    const refusal = error instanceof SitemapRefusal ? error : (error as Error)?.cause;
    if (refusal instanceof SitemapRefusal) return { refused: refusal.message };
    // The caller's own abort reason is not a WaymarkError; the loop rethrows it.
    const code = isWaymarkError(error) ? error.code : 'network';
    return { failure: errorMessage(error), code };
  }
}

/**
 * Why `pending` is not read for its origin, or null: a child named by an index on another
 * origin than the index (as named or after redirects), unless `allowCrossOrigin`.
 */
function crossOriginReason(pending: Pending, options: WalkSitemapsOptions): string | null {
  if (pending.parent === null || options.allowCrossOrigin === true) return null;
  const origin = URL.parse(pending.url)?.origin;
  // Not a URL (or not one with an origin): the request says why.
  if (origin === undefined || origin === 'null') return null;
  const parentOrigin = URL.parse(pending.parent)?.origin;
  const finalOrigin =
    pending.parentFinalUrl === null ? undefined : URL.parse(pending.parentFinalUrl)?.origin;
  if (origin === parentOrigin || origin === finalOrigin) return null;
  return `on another origin (${origin}) than the index that names it (${finalOrigin ?? parentOrigin}); cross-origin sitemaps are not read (allowCrossOrigin)`;
}

/** The diagnostic of an index whose last `count` children the walk has no room left to read. */
export function notReadDiagnostic(count: number, maxSitemaps: number): Diagnostic {
  return {
    code: 'max-sitemaps',
    severity: 'warning',
    message: `${count} more sitemap${count === 1 ? '' : 's'} named here ${count === 1 ? 'is' : 'are'} not read: a walk reads at most ${maxSitemaps} (maxSitemaps)`,
    line: 1,
    column: 1,
  };
}

/** A report for `pending`: nothing fetched unless `fields` say otherwise. */
function sitemapReport(pending: Pending, fields: Partial<SitemapReport>): SitemapReport {
  return {
    url: pending.url,
    parent: pending.parent,
    depth: pending.depth,
    finalUrl: null,
    status: null,
    kind: null,
    entries: 0,
    diagnostics: [],
    skipped: null,
    skipCode: null,
    ...fields,
  };
}

/** Requests through `openWithLimits`, over `options.fetch` or with `blockPrivateAddresses`. */
function fetchOpener(options: WalkSitemapsOptions): SitemapOpener {
  return async (url, request) => {
    const { openWithLimits } = await loadHttp();
    const response = await openWithLimits(url, {
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(options.blockPrivateAddresses ? { blockPrivateAddresses: true } : {}),
      timeoutMs: request.timeoutMs,
      maxBytes: request.maxBytes,
      headers: request.headers,
    });
    return {
      url: response.url,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: response.body,
      cancel: () => response.cancel(),
    };
  };
}

/**
 * The HTTP client, loaded on the first fetch: it brings node:https and TLS with it (about
 * 11 MB of RSS), which a program that only reads sitemaps from files never needs, and
 * `waymark/sitemap` would otherwise load on import.
 */
let httpModule: Promise<typeof import('../http/index.ts')> | null = null;
function loadHttp(): Promise<typeof import('../http/index.ts')> {
  httpModule ??= import('../http/index.ts');
  return httpModule;
}

/** Sitemap URLs are compared without fragment, as `new URL(x).href` spells them. */
export function canonical(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return url;
  parsed.hash = '';
  return parsed.href;
}
