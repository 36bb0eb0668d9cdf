import { MAX_TIMEOUT_MS } from '../shared/abortable-sleep.ts';
import { WaymarkError } from '../shared/waymark-error.ts';
import { checkLiteralHost, publicOnlyFetch } from './internal/address-checked-fetch.ts';
import {
  type Hop,
  openFollowing,
  requestUrl,
  type Transport,
} from './internal/follow-redirects.ts';
import { LimitedBody } from './internal/limited-body.ts';
import { checkTransportOptions } from './internal/transport-check.ts';

/**
 * The `fetch` waymark calls: the global one, or any function of the same shape (a test
 * double, an undici `fetch` with its own dispatcher, a proxy-aware fetch). It is always
 * called with a URL string and `{ method: 'GET', headers, redirect: 'manual', signal }`.
 */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** Options of {@link fetchWithLimits} and {@link openWithLimits}. */
export interface FetchLimitsOptions {
  /** The `fetch` to call. Default: `globalThis.fetch` (undici in Node). */
  readonly fetch?: FetchFunction;
  /**
   * Time for the whole fetch, in milliseconds: connecting, every redirect hop, the headers and
   * the whole body. For {@link openWithLimits} the clock runs until the body has been read,
   * including the time the consumer spends between chunks. Default 15,000.
   */
  readonly timeoutMs?: number;
  /**
   * Most body bytes accepted, counted after `fetch` has undone any `Content-Encoding`
   * (gzip, deflate, br), so a compressed body that inflates past the cap (a decompression
   * bomb) fails at the cap. A `Content-Length` over the cap on an unencoded body fails before
   * any byte is read. A file that is itself compressed (`sitemap.xml.gz` served as
   * `application/gzip`, no `Content-Encoding`) is counted as compressed bytes: whoever inflates
   * it must cap what comes out. Default 10 MiB.
   */
  readonly maxBytes?: number;
  /**
   * Most redirects followed (301, 302, 303, 307, 308 with a `Location`); one more is an
   * error. 0 follows none. Default 10.
   */
  readonly maxRedirects?: number;
  /**
   * Request headers, e.g. `user-agent` and `accept`. `authorization`, `cookie` and
   * `proxy-authorization` are dropped when a redirect leaves the origin.
   */
  readonly headers?: HeadersInit;
  /** Aborts the fetch; the promise (or the body's iteration) then rejects with its reason. */
  readonly signal?: AbortSignal;
  /**
   * Follow redirects (default true). When false, a 3xx comes back as the result, for a
   * caller that checks each target itself (a crawler obeying robots.txt per URL).
   */
  readonly followRedirects?: boolean;
  /**
   * Connect only to public addresses (default false): for a service that fetches URLs its
   * users give. Loopback, private (RFC 1918, unique local fc00::/7), link-local
   * (169.254/16, fe80::/10), unspecified, carrier-grade NAT (100.64/10), multicast,
   * documentation, benchmarking and reserved ranges are refused, also when written as
   * IPv4-mapped IPv6, NAT64 or 6to4. The check is made on the address the connection goes
   * to, after DNS, on every redirect hop, so a name that resolves to 127.0.0.1 (`localhost`,
   * DNS rebinding) is refused too; a name with public and private addresses connects to a
   * public one. A refused target throws `blocked-address`.
   *
   * Requests then go through waymark's own node:http(s) transport (no proxy), so this
   * cannot be combined with `fetch` (`invalid-argument`).
   */
  readonly blockPrivateAddresses?: boolean;
}

/** What a fetch answered, whatever the status: a 404 or a 500 is a result, not an error. */
export interface FetchedResponseHead {
  /** The URL that answered, after redirects, without a fragment. */
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  /**
   * Every URL that answered with a redirect, in order, starting with the requested URL; empty
   * when there was none. `redirects.length` is the number of redirects followed.
   */
  readonly redirects: string[];
}

/** A whole response, from {@link fetchWithLimits}. */
export interface FetchedResponse extends FetchedResponseHead {
  /** The body, after `Content-Encoding` has been undone. */
  readonly body: Uint8Array;
}

/** A response whose body is still to be read, from {@link openWithLimits}. */
export interface OpenedResponse extends FetchedResponseHead {
  /**
   * The body as it arrives, after `Content-Encoding` has been undone. Iterable once, under the
   * same time and size caps; iteration throws when one is exceeded. Leaving the loop early
   * (`break`, `return`, a throw) closes the connection.
   */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * Drops the body without reading it (or the rest of it) and closes the connection. Call it
   * when the status alone decides, so the connection is not held until the timeout.
   */
  cancel(): Promise<void>;
}

/**
 * The limits applied when an option is left out.
 *
 * @example
 * ```ts
 * await fetchWithLimits(url, { maxBytes: 5 * DEFAULT_FETCH_LIMITS.maxBytes });
 * ```
 */
export const DEFAULT_FETCH_LIMITS: Readonly<Limits> = Object.freeze({
  timeoutMs: 15_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
});

interface Limits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

/**
 * GETs `url` and reads the whole body, within a time cap, a size cap and a redirect cap.
 * Redirects are followed one hop at a time, each visible in `redirects`. Any status is a
 * result. Throws a {@link WaymarkError} with the URL (and the limit) in its message, and a
 * code to switch on: `timeout` when the time cap runs out, `too-large` when the body is
 * over the size cap, `redirect-limit` on too many redirects or a redirect loop, `network`
 * when the connection fails or a redirect's `Location` is invalid or not http(s) (a network
 * error in the Fetch standard too), `blocked-address` when `blockPrivateAddresses` refuses
 * the target; `invalid-argument` for a URL that is not http(s) or a bad option. When
 * `options.signal` fires, rejects with its reason.
 *
 * @example
 * ```ts
 * const response = await fetchWithLimits('https://example.com/robots.txt', {
 *   headers: { 'user-agent': 'MyBot/1.0 (+https://example.com/bot)' },
 *   timeoutMs: 10_000,
 *   maxBytes: 500 * 1024,
 * });
 * if (response.status === 200) parseRobots(response.body, { url: response.url });
 * ```
 */
export async function fetchWithLimits(
  url: string,
  options: FetchLimitsOptions = {},
): Promise<FetchedResponse> {
  const opened = await openWithLimits(url, options);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of opened.body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const { url: finalUrl, status, headers, redirects } = opened;
  return { url: finalUrl, status, headers, redirects, body: bytes };
}

/**
 * Like {@link fetchWithLimits}, but resolves once the headers of the final response are in
 * and hands the body over as it arrives, still under the time and size caps, so a large
 * (or gzip) body can be parsed as a stream. Read the body to its end, leave the loop, or call
 * `cancel()`: each releases the connection.
 *
 * @example
 * ```ts
 * const response = await openWithLimits('https://example.com/sitemap.xml.gz');
 * if (response.status !== 200) await response.cancel();
 * else for await (const chunk of response.body) parser.write(chunk);
 * ```
 */
export async function openWithLimits(
  url: string,
  options: FetchLimitsOptions = {},
): Promise<OpenedResponse> {
  const limits = readLimits(options);
  // The URL first, as before: a bad one fails without loading fetch.
  const start = requestUrl(url);
  const headers = requestHeaders(options.headers);
  checkTransportOptions(options);
  const guard = options.blockPrivateAddresses === true;
  const {
    url: finalUrl,
    redirects,
    response,
  } = await openFollowing(
    start,
    headers,
    { ...limits, followRedirects: options.followRedirects !== false, signal: options.signal },
    fetchTransport(guard ? publicOnlyFetch : (options.fetch ?? globalThis.fetch), guard),
  );
  return {
    url: finalUrl,
    status: response.status,
    headers: response.headers,
    redirects,
    body: response.body,
    cancel: () => response.cancel(),
  };
}

/** A response from a `fetch`, with its `Headers` for {@link OpenedResponse}. */
export interface FetchHop extends Hop {
  readonly headers: Headers;
}

/**
 * The transport over a `fetch`, called with `redirect: 'manual'`. With `guard`, a URL whose
 * host is a literal address is checked before the request (the fetch checks names).
 */
export function fetchTransport(fetchFunction: FetchFunction, guard = false): Transport<FetchHop> {
  return async ({ url, headers, deadline, maxBytes, where }) => {
    if (guard) checkLiteralHost(url);
    const response = await callFetch(fetchFunction, url, {
      method: 'GET',
      headers: new Headers(headers),
      redirect: 'manual',
      signal: deadline.signal,
    });
    const body = new LimitedBody(response, deadline, maxBytes, where);
    return {
      status: response.status,
      headers: response.headers,
      header: (name) => response.headers.get(name),
      body,
      cancel: () => body.cancel(),
      release: () => {
        response.body?.cancel().catch(() => {});
      },
    };
  };
}

/** The caps, defaulted and checked. */
function readLimits(options: FetchLimitsOptions): Limits {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_LIMITS.timeoutMs;
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_LIMITS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULT_FETCH_LIMITS.maxRedirects;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw invalid(
      `timeoutMs must be a number of milliseconds above 0, at most ${MAX_TIMEOUT_MS}`,
      timeoutMs,
    );
  }
  if (!(Number.isSafeInteger(maxBytes) && maxBytes >= 0)) {
    throw invalid('maxBytes must be a whole number of bytes, 0 or more', maxBytes);
  }
  if (!(Number.isSafeInteger(maxRedirects) && maxRedirects >= 0)) {
    throw invalid('maxRedirects must be a whole number, 0 or more', maxRedirects);
  }
  return { timeoutMs, maxBytes, maxRedirects };
}

function invalid(message: string, value: unknown): WaymarkError {
  return new WaymarkError('invalid-argument', `${message}, got ${String(value)}`);
}

/**
 * The caller's headers, checked and copied, names in lower case; a malformed name or value is
 * their mistake.
 */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  try {
    return Object.fromEntries(new Headers(init));
  } catch (error) {
    throw new WaymarkError('invalid-argument', `invalid request headers: ${String(error)}`, {
      cause: error,
    });
  }
}

/** A `fetch` call whose synchronous throw becomes a rejection. */
async function callFetch(fetchFunction: FetchFunction, url: string, init: RequestInit) {
  const pending = fetchFunction(url, init);
  // If the deadline wins the race, a response that still arrives is released.
  pending.then((late) => (init.signal?.aborted ? late.body?.cancel() : undefined)).catch(() => {});
  return pending;
}
