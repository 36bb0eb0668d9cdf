// The part of a capped GET that does not depend on how bytes travel: one time cap over every
// hop and the body, redirects followed one hop at a time (loops and too many refused, the
// caller's credentials dropped when a redirect leaves the origin), and every failure named
// with the URL and its code. Two transports plug in: a `fetch` (fetch-with-limits.ts) and
// waymark's own node:http(s) client (node-open.ts), so both give the same outcomes.

import { WaymarkError } from '../../shared/waymark-error.ts';
import { Deadline } from './deadline.ts';

/** One response, no redirect followed. */
export interface Hop {
  readonly status: number;
  /** The field's values joined with ", " (as `Headers.get`), or null; `name` in lower case. */
  header(name: string): string | null;
  /**
   * Each field's value on its own, for fields whose meaning ends with the field
   * (`X-Robots-Tag: bingbot: nofollow` then `X-Robots-Tag: noindex`); absent where the
   * transport joins them (`fetch`'s `Headers`).
   */
  fields?(name: string): string[];
  /**
   * The body as it arrives, decoded, under the size cap and the time cap; iterable once.
   * Reading it to its end ends the time cap; leaving the loop early closes the connection.
   */
  readonly body: AsyncIterable<Uint8Array>;
  /** Drops the rest of the body, closes the connection and ends the time cap. */
  cancel(): Promise<void>;
  /** Drops a redirect's body without touching the time cap, which the next hop still runs under. */
  release(): void;
}

/** One hop to send: where, with which header fields, under which caps. */
export interface HopRequest {
  /** The URL as serialised, without its fragment. */
  readonly url: string;
  /** The same URL, parsed. */
  readonly target: URL;
  /** Field names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly deadline: Deadline;
  readonly maxBytes: number;
  /** The URL for messages (see {@link describe}). */
  readonly where: string;
}

/** Sends one GET and resolves with its response once the header fields are in. */
export type Transport<H extends Hop> = (request: HopRequest) => Promise<H>;

export interface FollowOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** When false, a redirect is a result like any other status. */
  readonly followRedirects: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** The final response of a chain, and the URLs that redirected on the way. */
export interface Followed<H extends Hop> {
  readonly url: string;
  readonly redirects: string[];
  readonly response: H;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * GETs `start` (checked by {@link requestUrl}) through `transport`, following redirects
 * (unless `followRedirects` is false), under one time cap from the first connect to the last
 * body byte. Rejects as the transport's failure, named by `Deadline.failure` (`timeout`,
 * `network`, `redirect-limit`, ...), or with the caller's abort reason.
 */
export async function openFollowing<H extends Hop>(
  start: URL,
  headers: Readonly<Record<string, string>>,
  options: FollowOptions,
  transport: Transport<H>,
): Promise<Followed<H>> {
  let fields = headers;
  options.signal?.throwIfAborted();
  const deadline = new Deadline(options.timeoutMs, options.signal);
  const redirects: string[] = [];
  const seen = new Set([start.href]);
  let current = start;
  try {
    for (;;) {
      const where = describe(current.href, start.href);
      const response = await deadline.race(
        transport({
          url: current.href,
          target: current,
          headers: fields,
          deadline,
          maxBytes: options.maxBytes,
          where,
        }),
      );
      const location =
        options.followRedirects && REDIRECT_STATUSES.has(response.status)
          ? response.header('location')
          : null;
      if (location === null) return { url: current.href, redirects, response };
      response.release();
      const next = redirectTarget(location, current.href, start.href);
      redirects.push(current.href);
      if (seen.has(next.href)) {
        throw new WaymarkError(
          'redirect-limit',
          `redirect loop: ${start.href} leads back to ${next.href}`,
        );
      }
      if (redirects.length > options.maxRedirects) {
        throw new WaymarkError(
          'redirect-limit',
          `too many redirects (more than ${options.maxRedirects}): ${start.href}`,
        );
      }
      seen.add(next.href);
      if (next.origin !== current.origin) fields = withoutCredentials(fields);
      current = next;
    }
  } catch (error) {
    const failure = deadline.failure(error, describe(current.href, start.href), 'request');
    deadline.stop();
    throw failure;
  }
}

/**
 * `url` parsed, http(s) only, without its fragment (which is never sent); throws
 * `invalid-argument` otherwise.
 */
export function requestUrl(url: string): URL {
  const parsed = URL.parse(url);
  if (parsed === null) throw new WaymarkError('invalid-argument', `not a URL: ${url}`);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new WaymarkError('invalid-argument', `not an http(s) URL: ${url}`);
  }
  parsed.hash = '';
  return parsed;
}

/**
 * Where a redirect from `current` leads, `location` resolved against it. A Location that is
 * not a URL or not http(s) is `network`, as the Fetch standard makes it a network error.
 */
function redirectTarget(location: string, current: string, start: string): URL {
  const parsed = URL.parse(location, current);
  const where = describe(current, start);
  if (parsed === null) {
    throw new WaymarkError('network', `redirect to an invalid Location (${location}): ${where}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new WaymarkError('network', `redirect to a non-http(s) URL (${parsed.href}): ${where}`);
  }
  parsed.hash = '';
  return parsed;
}

function withoutCredentials(
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const kept = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete kept[name];
  return kept;
}

/** The URL for a message: the one being fetched, and where the chain started if elsewhere. */
function describe(current: string, start: string): string {
  return current === start ? current : `${current} (redirected from ${start})`;
}
