import { type FetchFunction, type OpenedResponse, openWithLimits } from '../http/index.ts';
import type { Diagnostic } from '../shared/diagnostic.ts';
import { parseSitemapBatches } from './read-sitemap.ts';
import type { SitemapKind, SitemapUrl } from './types.ts';

export interface WalkSitemapsOptions {
  /** The fetch to use (a test double, a proxy-aware fetch). Default: the global fetch. */
  readonly fetch?: FetchFunction;
  /** Sent as `User-Agent`. */
  readonly userAgent?: string;
  /** Time for one sitemap, connect to last byte. Default 30 s. */
  readonly timeoutMs?: number;
  /** Bytes downloaded per sitemap (compressed as sent). Default 50 MiB. */
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
  /** Called once per sitemap document, after it was read (or failed). */
  readonly onSitemap?: (report: SitemapReport) => void;
  readonly signal?: AbortSignal;
}

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
  /** Why it was not read: a fetch failure, a non-200 status, a cycle or a cap. */
  readonly skipped: string | null;
}

/** One URL entry, and the sitemap it was found in. */
export interface WalkedEntry {
  readonly sitemap: string;
  readonly entry: SitemapUrl;
}

interface Pending {
  readonly url: string;
  readonly parent: string | null;
  readonly depth: number;
}

/**
 * Reads sitemaps over HTTP and follows their indexes, yielding every URL entry as it is
 * read. Children of an index are read in document order, depth first; a sitemap already
 * read (or on the way) is never fetched again, so loops end. Each fetch has a time and a
 * size cap; a sitemap that fails (network error, timeout, 404, 500) costs only itself, and
 * `onSitemap` says what happened to each.
 *
 * @example
 * ```ts
 * for await (const { sitemap, entry } of walkSitemaps(robots.sitemaps, { userAgent: 'MyBot/1.0' })) {
 *   queue.add(entry.loc);
 * }
 * ```
 */
export async function* walkSitemaps(
  urls: string | Iterable<string>,
  options: WalkSitemapsOptions = {},
): AsyncGenerator<WalkedEntry> {
  const maxDepth = options.maxDepth ?? 4;
  const maxSitemaps = options.maxSitemaps ?? 1000;
  const seen = new Set<string>();
  let fetched = 0;
  // A stack of pending sitemaps, reversed so they come off in document order.
  const stack: Pending[] = [...(typeof urls === 'string' ? [urls] : urls)]
    .reverse()
    .map((url) => ({ url, parent: null, depth: 0 }));
  /** The next sitemap, requested early (see `prefetch`). */
  // Set by requestNext, a closure, which narrowing cannot see: hence the cast.
  let early = null as { readonly pending: Pending; readonly opening: Promise<Opening> } | null;
  const requestNext = (): void => {
    const next = stack.at(-1);
    if (options.prefetch === false || next === undefined || fetched >= maxSitemaps) return;
    if (seen.has(canonical(next.url))) return;
    early = { pending: next, opening: open(next.url, options) };
  };
  try {
    while (stack.length > 0) {
      options.signal?.throwIfAborted();
      const pending = stack.pop() as Pending;
      const key = canonical(pending.url);
      const report = (fields: Partial<SitemapReport>) =>
        options.onSitemap?.(sitemapReport(pending, fields));
      if (seen.has(key)) {
        report({ skipped: 'already read in this walk (a loop or a duplicate)' });
        continue;
      }
      seen.add(key);
      if (fetched >= maxSitemaps) {
        report({ skipped: `more than ${maxSitemaps} sitemaps (maxSitemaps)` });
        continue;
      }
      fetched++;
      let opening: Promise<Opening>;
      if (early?.pending === pending) {
        opening = early.opening;
        early = null;
      } else opening = open(pending.url, options);
      const opened = await opening;
      if ('failure' in opened) {
        options.signal?.throwIfAborted();
        report({ skipped: opened.failure });
        continue;
      }
      const { response } = opened;
      if (response.status !== 200) {
        await response.cancel();
        report({
          finalUrl: response.url,
          status: response.status,
          skipped: `HTTP ${response.status}`,
        });
        continue;
      }
      const contentType = response.headers.get('content-type');
      const reading = parseSitemapBatches(response.body, {
        url: response.url,
        ...(contentType ? { contentType } : {}),
        ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
        ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
      });
      let entries = 0;
      const children: string[] = [];
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
          for (const entry of batch) children.push(entry.loc);
        }
      }
      report({
        finalUrl: response.url,
        status: response.status,
        kind: reading.kind,
        entries,
        diagnostics: [...extra, ...reading.diagnostics],
      });
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ url: children[i] as string, parent: pending.url, depth: pending.depth + 1 });
      }
    }
  } finally {
    // Stopped early: release a sitemap requested ahead and never read, without waiting
    // for it (its server may be slow to answer).
    void early?.opening.then((opened) => {
      if ('response' in opened) opened.response.cancel().catch(() => {});
    });
  }
}

type Opening = { readonly response: OpenedResponse } | { readonly failure: string };

/** Requests one sitemap; a failure is a value, so a request made early cannot go unhandled. */
async function open(url: string, options: WalkSitemapsOptions): Promise<Opening> {
  try {
    const response = await openWithLimits(url, {
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs: options.timeoutMs ?? 30_000,
      maxBytes: options.maxDownloadBytes ?? 50 * 1024 * 1024,
      headers: {
        accept:
          'application/xml, text/xml, application/rss+xml, application/atom+xml, text/plain;q=0.9, */*;q=0.5',
        ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      },
    });
    return { response };
  } catch (error) {
    return { failure: (error as Error).message };
  }
}

/** A report for `pending`: nothing fetched unless `fields` say otherwise. */
function sitemapReport(pending: Pending, fields: Partial<SitemapReport>): SitemapReport {
  return {
    ...pending,
    finalUrl: null,
    status: null,
    kind: null,
    entries: 0,
    diagnostics: [],
    skipped: null,
    ...fields,
  };
}

/** Sitemap URLs are compared without fragment, as `new URL(x).href` spells them. */
function canonical(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return url;
  parsed.hash = '';
  return parsed.href;
}
